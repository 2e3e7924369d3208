"""Named policies that decide overlaps between pattern results and existing entities.

`deid_presidio_patterns` adds a pattern span where it overlaps no entity; where it does, the
component's `merge_policy` setting names the policy that decides whether the pattern span
replaces the entities it overlaps. Policies live in the `merge_policies` registry, so a
pipeline config can pick one by name and a user can register their own:

    from spacy_deid.presidio.merge_policies import merge_policies

    @merge_policies.register("higher_score")
    def make_higher_score(override_score: float):
        def pattern_wins(pattern_span, overlapping_entities):
            return (pattern_span._.deid_score or 0.0) >= 0.5
        return pattern_wins

A registered function receives the component's `override_score` and returns the policy:
`(pattern_span, overlapping_entities) -> bool`, true when the pattern span wins. Other
packages can register policies under the `spacy_deid_merge_policies` entry-point group.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import catalogue
from spacy.tokens import Span

MergePolicy = Callable[[Span, Sequence[Span]], bool]

merge_policies = catalogue.create("spacy_deid", "merge_policies", entry_points=True)

# The policies this module registers, in the order the documentation lists them.
BUILT_IN: tuple[str, ...] = ("ner_first", "patterns_first", "longest")


@merge_policies.register("ner_first")
def make_ner_first(override_score: float) -> MergePolicy:
    """An existing entity wins, unless the pattern span scores at least `override_score`
    (checksum-validated or unambiguous matches such as e-mail addresses score 1.0)."""

    def pattern_wins(span: Span, overlapping: Sequence[Span]) -> bool:
        score = span._.deid_score
        return score is not None and score >= override_score

    return pattern_wins


@merge_policies.register("patterns_first")
def make_patterns_first(override_score: float) -> MergePolicy:
    """A pattern span replaces every entity it overlaps."""

    def pattern_wins(span: Span, overlapping: Sequence[Span]) -> bool:
        return True

    return pattern_wins


@merge_policies.register("longest")
def make_longest(override_score: float) -> MergePolicy:
    """The longer span, in characters, wins; a tie keeps the entity."""

    def pattern_wins(span: Span, overlapping: Sequence[Span]) -> bool:
        pattern_length = span.end_char - span.start_char
        return all(pattern_length > ent.end_char - ent.start_char for ent in overlapping)

    return pattern_wins


def known_merge_policies() -> list[str]:
    """The names of all registered merge policies (the built-in ones, then the others)."""
    others = sorted(set(merge_policies.get_all()) - set(BUILT_IN))
    return [*BUILT_IN, *others]


def resolve_merge_policy(name: str, override_score: float) -> MergePolicy:
    """The policy registered as `name`, set up with `override_score`.

    Raises a ValueError naming the `merge_policy` setting and the known policies when no
    policy is registered under `name`.
    """
    registered = merge_policies.get_all()
    if name not in registered:
        raise ValueError(f"deid_presidio_patterns: setting 'merge_policy': {name!r} is not one "
                         f"of {', '.join(known_merge_policies())}")
    return registered[name](override_score=override_score)
