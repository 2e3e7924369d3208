"""The `deid_name_extent` component: a detected person name grown to its whole extent.

The NER often finds part of a name only: the first name of "Isobel Braithby", the surname
of "Alissa Riedle" or "al-Masri", both halves of "KIENZLER-DIAKITE" or "Ch. Jantzen" as two
names with the hyphen or the dot left between them, "Morvic" and "Mélina" of "Morvic,
Mélina" apart. The anonymizer then replaces the parts it was given and the rest of the name
stays in the text, or the name is split into surrogates that no longer read as one. This
component takes the person entities as found and

* joins two person entities that only a name's own joint separates: a hyphen, an
  apostrophe, an initial's dot, a lower-case name particle learned from the training names
  ("von", "фон", "de"), or, where "Surname, Firstname" was seen in training at least
  `min_count` times, a comma after a one-word name before a name of one or two words
  ("Morvic, Mélina", "Akbulak, Ayla Nur"); the joined name keeps the first one's label;
* grows a person entity that holds one name word only (a first name or a surname alone),
  or ends with a particle, over the words right before and after it on its line, one
  space apart: after it, a name-like word (letters, capitalised where the script has case,
  outside other entities, no ordinary word of the training documents, no title word, no
  capitalised abbreviation such as "MBA"; in a script without case, a word seen inside a
  person name in training), a particle with such a word after it ("Ortrun von Brackwede")
  or an initial ("B.", which ends the name); before it, an initial ("M."), a learned
  particle, or a first name of the language (Faker's lists), as a sentence's capitalised
  first word stands there as often ("Дочь Ирина"); a particle stands before a surname, never
  before an initial ("von" of "Befund von J. Morgenstock" is a preposition); where
  "Surname, Firstname" was learned, a surname before a comma, also before a first name of
  two words ("Akbulak, Ayla Nur"; not a short word in capitals, a degree). A hyphen joins a
  name word to any name ("al-Masri", "Ebersberg-Hallwang").
  A name of two words in a script with case takes a third name-like word where that word
  ends it: the line, punctuation or a lower-case word follows ("Mert Can Aydoğdu"; not
  before a number or another capitalised word: "Tobias Öttl Kaiserstraße 33"). A name, even
  of two words or more, takes one word after it that has a family name's form in the
  language (`surname_forms` in its profile: Arabic `ال…ي`, "سامي نبيل الحلبي"), where that
  word is no ordinary or title word: in training, a word of that form right after a whole
  person name belongs to it. A name grows to at most `max_tokens` tokens, and never from a
  script without case into one with case or back (a Latin drug name after an Arabic-script
  word).

What it learns from the training documents (`initialize`): ordinary words (seen at least
`min_count` times outside entities), title words (inside NAME_TITLE entities and the
language's titles), name words, particles (lower-case words seen at least `min_count` times
inside person names) and whether inverted names occur; in a script without case, where no word
is lower-case, the particles are the profile's (`أبو`, `أم`). Place it after the rule
components that add names and before `deid_mention_propagation`, which then finds the other
mentions of the whole name.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

from spacy.language import Language
from spacy.tokens import Doc, Span, Token
from spacy.training import Example

from spacy_deid.detect.entities import grow_entities
from spacy_deid.detect.gold import reference_docs
from spacy_deid.detect.learned_data import LearnedData
from spacy_deid.detect.name_cues import is_inverted_name, medical_title_words
from spacy_deid.detect.name_forms import initial_end
from spacy_deid.detect.tokens import (
    COMMAS,
    ends_line,
    is_name_like,
    is_short_capitals,
    learn_common_words,
    name_particles,
)
from spacy_deid.lang import pipeline_language, validate_language
from spacy_deid.lang.casing import has_case
from spacy_deid.lang.lexicon import is_first_name
from spacy_deid.lang.profile import language_profile
from spacy_deid.schema import PERSON_LABELS

# What may stand between two parts of one name, written without spaces around it.
NAME_JOINTS = frozenset({"-", "\u2010", "\u2011", "'", "\u2019"})


def script_kinds(tokens: Iterable[Token]) -> set[bool]:
    """For the tokens with letters: whether their script has case (True) or not (False)."""
    return {has_case(token.text) for token in tokens if any(c.isalpha() for c in token.text)}


def same_script_kind(name: Iterable[Token], part: Iterable[Token]) -> bool:
    """Whether the words of `part` are written like those of `name`, in a script with case
    or in one without (a name does not switch from Arabic letters to Latin ones midway)."""
    return script_kinds(part) <= script_kinds(name)


def is_name_boundary(token: Token) -> bool:
    """Punctuation or a lower-case word: what may follow the last word of a name."""
    return token.is_punct or token.is_lower


def is_abbreviation(word: str) -> bool:
    """A word of up to four letters with a capital after its first letter ("PhD", "MSc",
    "IgG"): in the training documents such words are degrees and units, never part of a
    person name."""
    return len(word) <= 4 and not word.isupper() and any(char.isupper() for char in word[1:])


def is_cased_pair(name: Span) -> bool:
    """Whether `name` is two words of letters in a script with case ("Ayla Nur"; not a
    name that runs into another script)."""
    return len(name) == 2 and all(token.is_alpha and has_case(token.text) for token in name)


def single_space_after(token: Token) -> bool:
    """Whether one space, or nothing, separates `token` from the next one."""
    return token.whitespace_ in ("", " ")


class NameExtent(LearnedData):
    """Join and grow person entities to whole names (see the module docstring)."""

    data_file = "name_extent.json"
    factory = "deid_name_extent"

    def __init__(self, name: str, lang: str, max_tokens: int, min_count: int) -> None:
        if max_tokens < 2 or min_count < 1:
            raise ValueError("deid_name_extent: max_tokens must be >= 2 and min_count >= 1")
        self.name = name
        self.lang = validate_language(lang)
        self.max_tokens = max_tokens
        self.min_count = min_count
        self.ordinary_words: set[str] = set()
        self.title_words: set[str] = set()
        self.name_words: set[str] = set()
        self.particles: set[str] = set()
        self.inverted_names = False
        profile = language_profile(self.lang)
        self.surname_forms = [re.compile(form) for form in profile.surname_forms]
        # in a script without case no particle can be learned as a lower-case word
        self.script_particles = frozenset(word for word in profile.particles
                                          if not has_case(word))

    # -- learning -----------------------------------------------------------------
    def initialize(self, get_examples: Callable[[], Iterable[Example]],
                   nlp: Language | None = None, examples: Callable | None = None) -> None:
        """Learn from the reference docs; those of `examples` (an `[initialize.components]`
        setting, see `detect.gold`) where set."""
        self.learn(reference_docs(get_examples, nlp, examples))

    def learn(self, docs: Iterable[Doc]) -> None:
        """Collect ordinary words, title words, name words, particles and whether names are
        written "Surname, Firstname" from gold documents."""
        docs = list(docs)
        self.ordinary_words = learn_common_words(docs, self.min_count, also_in_names=True)
        people = [ent for doc in docs for ent in doc.ents if ent.label_ in PERSON_LABELS]
        self.title_words = {token.lower_ for doc in docs for ent in doc.ents
                            if ent.label_ == "NAME_TITLE" for token in ent
                            } | medical_title_words(self.lang)
        self.name_words = {token.lower_ for ent in people for token in ent
                           if token.is_alpha and len(token) >= 2}
        self.particles = name_particles(people, self.min_count)
        self.inverted_names = sum(map(is_inverted_name, people)) >= self.min_count

    # -- finding --------------------------------------------------------------------
    def __call__(self, doc: Doc) -> Doc:
        grown = grow_entities(self.joined(list(doc.ents)), PERSON_LABELS, self.grown)
        grown = self.joined(grown)  # parts that growing brought next to each other
        if [(e.start, e.end, e.label_) for e in grown] != [
                (e.start, e.end, e.label_) for e in doc.ents]:
            doc.ents = grown
        return doc

    def joined(self, ents: list[Span]) -> list[Span]:
        """The entities, with neighbouring person entities that one name's joint separates
        made one (the first one's label)."""
        result: list[Span] = []
        for ent in ents:
            last = result[-1] if result else None
            if (last is not None and last.label_ in PERSON_LABELS
                    and ent.label_ in PERSON_LABELS and same_script_kind(last, ent)
                    and self.is_joint(last, ent)):
                result[-1] = Span(ent.doc, last.start, ent.end, label=last.label_)
            else:
                result.append(ent)
        return result

    def is_joint(self, left: Span, right: Span) -> bool:
        """Whether what stands between two person entities belongs inside one name."""
        doc = left.doc
        gap = doc[left.end:right.start]
        if len(gap) == 0:
            return single_space_after(left[-1])
        if len(gap) > 1 or not single_space_after(left[-1]):
            return False
        token = gap[0]
        if token.text in NAME_JOINTS:
            return not left[-1].whitespace_ and not token.whitespace_
        if token.text == ".":
            return not left[-1].whitespace_ and len(left[-1]) <= 2
        if self.is_particle(token):
            return single_space_after(token)
        return (token.text in COMMAS and self.inverted_names and not left[-1].whitespace_
                and len(left) == 1 and len(right) <= 2)

    def grown(self, ent: Span, taken: set[int]) -> Span:
        """`ent` with the rest of its name around it on its line (see the module docstring):
        a hyphenated continuation always; name words, initials and particles only while the
        name has one name word or ends with a particle, and nothing after an initial."""
        doc = ent.doc
        start, end = ent.start, ent.end
        while end - start < self.max_tokens:
            step = self.part_after(doc, end, taken, self.is_open(doc[start:end]))
            if step is None and self.takes_third_word(doc[start:end], taken):
                step = end + 1
            if step is None or not same_script_kind(doc[start:end], doc[end:step]):
                break
            closed_by_initial = initial_end(doc, end) == step
            end = step
            if closed_by_initial:
                break
        while end - start < self.max_tokens:
            step = self.part_before(doc[start:end], taken)
            if step is None or not same_script_kind(doc[start:end], doc[step:start]):
                break
            start = step
        if (start, end) == (ent.start, ent.end):
            return ent
        return Span(doc, start, end, label=ent.label_)

    def is_open(self, name: Span) -> bool:
        """Whether a name may still take words: it has one name word only (a first name or
        a surname alone), or it ends with a particle ("Maximilian Freiherr von")."""
        words = [token for token in name if token.is_alpha and len(token) >= 2
                 and not self.is_particle(token)]
        return len(words) <= 1 or self.is_particle(name[-1])

    def part_after(self, doc: Doc, end: int, taken: set[int], is_open: bool) -> int | None:
        """The end of the name part that continues a name ending at token `end`, else None."""
        if end >= len(doc) or end in taken:
            return None
        before = doc[end - 1]
        token = doc[end]
        if token.text in NAME_JOINTS and not before.whitespace_ and not token.whitespace_:
            return end + 2 if self.is_name_part(doc, end + 1, taken) else None
        if before.whitespace_ != " ":
            return None
        if self.is_family_name_after(doc, end, taken):
            return end + 1
        if not is_open:
            return None
        initial = initial_end(doc, end)
        if initial is not None and all(i not in taken for i in range(end, initial)):
            return initial
        if self.is_particle(token) and single_space_after(token):  # "Ortrun von Brackwede"
            return end + 2 if self.is_name_part(doc, end + 1, taken) else None
        return end + 1 if self.is_name_part(doc, end, taken) else None

    def part_before(self, name: Span, taken: set[int]) -> int | None:
        """The start of the name part that precedes `name`; a first name of two words takes
        its surname before a comma too ("Akbulak, Ayla Nur")."""
        doc, start, is_open = name.doc, name.start, self.is_open(name)
        if start == 0 or start - 1 in taken:
            return None
        token = doc[start - 1]
        if token.text in NAME_JOINTS and not token.whitespace_ and start >= 2:
            word = doc[start - 2]
            if word.whitespace_ or word.i in taken:
                return None
            if self.is_particle(word) or self.is_name_part(doc, word.i, taken):
                return word.i
            return None
        if token.text in COMMAS and self.is_inverted_surname(doc, start - 2, taken):
            degree = is_short_capitals(doc[start - 2], 4)  # "FRCP, Consultant …"
            if is_open or (is_cased_pair(name) and not degree):
                return start - 2
            return None
        if not is_open or token.whitespace_ != " ":
            return None
        if self.is_particle(token):
            # a particle stands between a first name and a surname, never before "J."
            return token.i if initial_end(doc, start) is None else None
        if token.text == "." and start >= 2 and initial_end(doc, start - 2) == start:
            return start - 2 if start - 2 not in taken else None
        if initial_end(doc, token.i) == start:
            return token.i
        return token.i if self.is_first_name(doc, token.i, taken) else None

    def is_name_part(self, doc: Doc, i: int, taken: set[int]) -> bool:
        """A name-like word of two or more letters that is no ordinary or title word; in a
        script without case, one seen inside a person name in training."""
        if i >= len(doc):
            return False
        token = doc[i]
        if len(token) < 2 or token.text.endswith("."):
            return False
        if is_short_capitals(token):  # titles, roles
            return False
        if not self.is_unlisted_name_like(token, taken):
            return False
        return has_case(token.text) or token.lower_ in self.name_words

    def is_unlisted_name_like(self, token: Token, taken: set[int]) -> bool:
        """A name-like word (`is_name_like`) that is no ordinary or title word of the
        training documents."""
        return (token.lower_ not in self.title_words
                and is_name_like(token, taken, self.ordinary_words))

    def takes_third_word(self, name: Span, taken: set[int]) -> bool:
        """Whether a name of two words in a script with case goes on over the name-like
        word after it ("Mert Can Aydoğdu"): only where that word ends the name, before the
        line's end, punctuation or a lower-case word ("Tobias Öttl Kaiserstraße 33" stays
        two words), and is no abbreviation such as a degree ("PhD")."""
        doc, end = name.doc, name.end
        if (len(name) != 2 or not all(token.is_alpha for token in name)
                or not has_case(name.text) or name[-1].whitespace_ != " "):
            return False
        if not self.is_name_part(doc, end, taken) or is_abbreviation(doc[end].text):
            return False
        return ends_line(doc, end + 1) or is_name_boundary(doc[end + 1])

    def is_particle(self, token: Token) -> bool:
        """A name particle: learned from the training names ("von"), or in a script without
        case one of the language's particles (Arabic "أبو", "أم")."""
        return token.lower_ in self.particles or token.text in self.script_particles

    def is_inverted_surname(self, doc: Doc, i: int, taken: set[int]) -> bool:
        """Whether token `i` is the surname of "Surname, Firstname": names are written so
        in the training documents, a comma follows it without a space and one space
        follows the comma, and it is a name-like word (in a script without case, any word
        of letters that is no ordinary or title word)."""
        if not self.inverted_names or i < 0 or i in taken:
            return False
        word, comma = doc[i], doc[i + 1]
        if word.whitespace_ or comma.whitespace_ != " ":
            return False
        if has_case(word.text):
            return self.is_name_part(doc, i, taken)
        return len(word) >= 2 and self.is_unlisted_name_like(word, taken)

    def is_family_name_after(self, doc: Doc, i: int, taken: set[int]) -> bool:
        """Whether token `i`, right after a name, has the form of a family name
        (`surname_forms`) and the name before it does not end with one already."""
        if i >= len(doc) or not self.has_surname_form(doc[i].text):
            return False
        return (not self.has_surname_form(doc[i - 1].text)
                and self.is_unlisted_name_like(doc[i], taken))

    def has_surname_form(self, word: str) -> bool:
        """Whether `word` has one of the language's family-name forms."""
        return any(form.fullmatch(word) for form in self.surname_forms)

    def is_first_name(self, doc: Doc, i: int, taken: set[int]) -> bool:
        """A name part that is a first name of the language (Faker's lists). Only such a
        word joins a name from the left, where a sentence's capitalised first word stands
        as often ("Дочь Ирина", "Ortoptist Ertekin")."""
        return self.is_name_part(doc, i, taken) and is_first_name(self.lang, doc[i].text)

    # -- serialisation (LearnedData) ------------------------------------------------
    def learned(self) -> dict:
        """What `initialize` learned, as JSON-ready data."""
        return {"ordinary_words": sorted(self.ordinary_words),
                "title_words": sorted(self.title_words),
                "name_words": sorted(self.name_words),
                "particles": sorted(self.particles),
                "inverted_names": self.inverted_names}

    def load_learned(self, data: dict) -> None:
        """Restore what `learned` returned."""
        self.ordinary_words = set(data.get("ordinary_words", []))
        self.title_words = set(data.get("title_words", []))
        self.name_words = set(data.get("name_words", []))
        self.particles = set(data.get("particles", []))
        self.inverted_names = bool(data.get("inverted_names", False))


@Language.factory(
    "deid_name_extent",
    assigns=["doc.ents"],
    requires=["doc.ents"],
    default_config={"lang": None, "max_tokens": 4, "min_count": 2},
)
def make_name_extent(nlp: Language, name: str, lang: str | None, max_tokens: int,
                     min_count: int) -> NameExtent:
    """Factory of `deid_name_extent`; `lang` defaults to the pipeline's language. Call
    `initialize` (or load) to give it its word lists."""
    lang = pipeline_language(nlp, lang, "deid_name_extent")
    return NameExtent(name, lang, max_tokens, min_count)
