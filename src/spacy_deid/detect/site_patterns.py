"""A hospital's own names and codes as entities: spaCy's `entity_ruler` in a de-identification
pipeline.

The statistical NER and the rule components learn from documents of other hospitals, so a
site's own ward names, unit codes, staff names and record-number formats are the PHI they
miss most. A site knows them, and can list them in spaCy's pattern format, one JSON object
a line::

    {"label": "ID", "pattern": "K7 West"}
    {"label": "NAME_DOCTOR", "pattern": "Linnet Corbyn"}
    {"label": "ID", "pattern": [{"TEXT": "KV"}, {"TEXT": "-"}, {"TEXT": {"REGEX": "^\\\\d{4}$"}}]}

A phrase (a string) matches in any case; a token pattern matches as written, token by token
as the pipeline's tokenizer splits the text (`nlp.make_doc`; codes are split at hyphens and
slashes). A match is one entity, replaced whole: a unit code is listed without the ward word
before it. `add_site_patterns` puts an `entity_ruler` with those patterns before
`deid_mention_propagation` (before the anonymizer where that is absent): what it matches
replaces the entities it overlaps, and the later components treat it as any entity (the
propagation finds its other mentions, the anonymizer replaces it). Every label must be one
of the PHI labels (`spacy_deid.schema`).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from spacy.language import Language
from spacy.schemas import validate_token_pattern

from spacy_deid.schema import validate_label

# The name of the ruler in the pipeline.
SITE_PATTERNS = "deid_site_patterns"
# The components the ruler goes before, the first present one.
RULER_BEFORE: tuple[str, ...] = ("deid_mention_propagation", "deid_anonymizer")


class SitePatternError(ValueError):
    """A pattern file that cannot be read or holds a malformed pattern; the message names
    the file and the line, not the pattern's text."""


def read_site_patterns(path: str | Path) -> list[dict[str, Any]]:
    """The patterns of a JSONL file, each checked by `check_site_pattern`; blank lines are
    skipped."""
    path = Path(path)
    try:
        lines = path.read_text(encoding="utf8").splitlines()
    except (OSError, UnicodeDecodeError) as err:
        raise SitePatternError(f"cannot read the pattern file {path}: "
                               f"{err.__class__.__name__}") from err
    patterns = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            entry = json.loads(line)
        except json.JSONDecodeError as err:
            raise SitePatternError(f"{path}, line {number}: not JSON ({err.msg})") from err
        patterns.append(check_site_pattern(entry, f"{path}, line {number}"))
    return patterns


def check_site_pattern(entry: Any, where: str) -> dict[str, Any]:
    """`entry` if it is a pattern of spaCy's entity ruler with a PHI label: a "label" and a
    "pattern" that is a non-empty string or a non-empty list of token objects that spaCy's
    Matcher accepts."""
    if not isinstance(entry, Mapping) or not {"label", "pattern"} <= entry.keys():
        raise SitePatternError(f"{where}: a pattern is an object with a label and a pattern")
    try:
        validate_label(entry["label"])
    except ValueError as err:
        raise SitePatternError(f"{where}: {err}") from None
    pattern = entry["pattern"]
    is_phrase = isinstance(pattern, str) and pattern.strip()
    is_tokens = (isinstance(pattern, list) and pattern
                 and all(isinstance(token, Mapping) for token in pattern))
    if not (is_phrase or is_tokens):
        raise SitePatternError(f"{where}: the pattern must be a non-empty text or a "
                               "non-empty list of token objects")
    problems = [] if is_phrase else validate_token_pattern(pattern)
    if problems:
        raise SitePatternError(f"{where}: not a token pattern of spaCy's Matcher: "
                               f"{'; '.join(problems)}")
    return dict(entry)


def ruler_position(nlp: Language) -> dict[str, str]:
    """Where the ruler goes: `add_pipe`'s `before` argument, or nothing (last)."""
    before = next((name for name in RULER_BEFORE if name in nlp.pipe_names), None)
    return {"before": before} if before else {}


def add_site_patterns(nlp: Language, patterns: str | Path | Iterable[Mapping[str, Any]]
                      ) -> Language:
    """Add an entity ruler named `deid_site_patterns` with `patterns` (a JSONL file, or
    pattern objects) to `nlp` and return `nlp`. A pipeline that has one gets the new
    patterns added to it."""
    from_file = isinstance(patterns, (str, Path))
    if from_file:
        entries = read_site_patterns(patterns)
    else:
        entries = [check_site_pattern(entry, f"pattern {number}")
                   for number, entry in enumerate(patterns, start=1)]
    if not entries:
        raise SitePatternError(f"no patterns in {patterns}" if from_file else "no patterns")
    if SITE_PATTERNS in nlp.pipe_names:
        ruler = nlp.get_pipe(SITE_PATTERNS)
    else:
        ruler = nlp.add_pipe("entity_ruler", name=SITE_PATTERNS, **ruler_position(nlp),
                             config={"phrase_matcher_attr": "LOWER", "overwrite_ents": True})
    # a phrase needs only the tokenizer: the components before the ruler stay off
    with nlp.select_pipes(enable=[SITE_PATTERNS]):
        ruler.add_patterns(entries)
    return nlp
