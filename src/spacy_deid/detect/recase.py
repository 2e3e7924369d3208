"""The `deid_recase` component: documents written in lower case only, or in capitals only.

The NERs learned where PHI stands partly from capitals: a person name is a capitalised word
that is no ordinary word. A note typed in lower case, or a record exported in capitals,
has lost that cue, and names go unseen. For such a document (at least `min_cased` letters
that have a case, most of its letters, of which at least `upper_share` are capitals, or at
most `lower_share` with most sentences starting in lower case), this component gives the
NER components a copy of the document in which every word is written as the training
documents write it most often outside PHI; a word they never wrote outside PHI is in lower
case where its stem (all but its last `STEM_CUT` letters) is that of words they write in
lower case (another form of a known word), else capitalised, as names are. The entities
found on the copy, on the same tokens, replace those the NERs found in the text as written
(in capitals, most words look like names to them). A document with ordinary capitals
passes unchanged.

A single word in capitals in a text of ordinary case (a surname in a form or an e-mail
signature, `Dr. Eva ROTH`) is read the same way where `min_word_capitals` is set: words of
at least that many letters written in capitals, which the training documents write
otherwise, are rewritten in their usual form on a copy, and the entities found there on
such a word are added where they enclose what the first reading found on those tokens.
Abbreviations the training documents write in capitals (`EKG`, `MRT`) stay as they are.

What it learns from the training documents (`initialize`): for each word seen outside PHI,
the form written most often, and the stems of the words written in lower case.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Sequence

from spacy.language import Language
from spacy.tokens import Doc, Span
from spacy.training import Example

from spacy_deid.detect.entities import entity_tokens, merge_entities
from spacy_deid.detect.gold import reference_docs
from spacy_deid.detect.learned_data import LearnedData
from spacy_deid.lang.casing import has_case

LOWER = "lower"
UPPER = "upper"
# The first letter of a text, of a line, or after a sentence's final punctuation (after a
# word of four letters or more: "z.B.", "Dr.", "г." are no sentence ends).
SENTENCE_START = re.compile(r"(?:^|(?<=[^\W\d_]{4})[.!?]\s+|\n)[^\w]*([^\W\d_])")
# A word's stem: all but its last STEM_CUT letters, if MIN_STEM letters remain.
STEM_CUT = 3
MIN_STEM = 4


def letter_case(text: str, min_cased: int, lower_share: float, upper_share: float) -> str | None:
    """"upper" for a text in capitals only, "lower" for one in lower case only, else None.

    Counted over its letters that have a case, if there are `min_cased` of them and they are
    most of its letters (Latin codes and logins in an Arabic text do not count): capitals make
    up at least `upper_share` of them, or at most `lower_share` and most of its sentences
    start in lower case (a sentence without a name has one capital, so few capitals alone do
    not tell)."""
    letters = [char for char in text if char.isalpha()]
    cased = [char for char in letters if has_case(char)]
    if len(cased) < min_cased or 2 * len(cased) < len(letters):
        return None
    share = sum(char.isupper() for char in cased) / len(cased)
    if share >= upper_share:
        return UPPER
    if share > lower_share:
        return None
    starts = [char for char in SENTENCE_START.findall(text) if has_case(char)]
    return LOWER if 2 * sum(char.islower() for char in starts) > len(starts) else None


def stem(word: str) -> str | None:
    """The stem of a lower-case word (None for a word too short to have one)."""
    return word[:-STEM_CUT] if len(word) - STEM_CUT >= MIN_STEM else None


def capitalised(word: str) -> str:
    """`word` with a capital first letter and the rest in lower case."""
    lower = word.lower()
    return lower[:1].upper() + lower[1:]


def encloses_all(span: Span, overlapping: Sequence[Span]) -> bool:
    """Whether `span` holds every one of the `overlapping` entities whole."""
    return all(span.start <= ent.start and ent.end <= span.end for ent in overlapping)


class Recase(LearnedData):
    """Let the NERs read documents without case cues as usually written (see the module
    docstring)."""

    data_file = "recase.json"
    factory = "deid_recase"

    def __init__(self, nlp: Language, name: str, ner_components: list[str], min_cased: int,
                 lower_share: float, upper_share: float, min_word_capitals: int = 0) -> None:
        if not ner_components:
            raise ValueError("deid_recase: ner_components must name the components that find "
                             "entities (e.g. tok2vec, ner, ner_multilingual)")
        if not 0 <= lower_share < upper_share <= 1:
            raise ValueError("deid_recase: need 0 <= lower_share < upper_share <= 1, not "
                             f"{lower_share} and {upper_share}")
        if min_cased < 1:
            raise ValueError(f"deid_recase: min_cased must be >= 1, not {min_cased}")
        if min_word_capitals < 0:
            raise ValueError("deid_recase: min_word_capitals must be >= 0 (0: off), not "
                             f"{min_word_capitals}")
        self.nlp = nlp
        self.name = name
        self.ner_components = list(ner_components)
        self.min_cased = min_cased
        self.lower_share = lower_share
        self.upper_share = upper_share
        self.min_word_capitals = min_word_capitals
        self.forms: dict[str, str] = {}
        self.lower_stems: set[str] = set()

    # -- learning -----------------------------------------------------------------
    def initialize(self, get_examples: Callable[[], Iterable[Example]],
                   nlp: Language | None = None, examples: Callable | None = None) -> None:
        """Learn from the reference docs; those of `examples` (an `[initialize.components]`
        setting, see `detect.gold`) where set."""
        self.learn(reference_docs(get_examples, nlp, examples))

    def learn(self, docs: Iterable[Doc]) -> None:
        """The most frequent written form of each word seen outside PHI (ties: the form
        that sorts first)."""
        counts: dict[str, Counter] = defaultdict(Counter)
        for doc in docs:
            in_entities = entity_tokens(doc)
            for token in doc:
                if token.is_alpha and token.i not in in_entities:
                    counts[token.lower_][token.text] += 1
        self.forms = {word: min(forms, key=lambda form: (-forms[form], form))
                      for word, forms in counts.items()}
        capitalised_by_stem: dict[str, Counter] = defaultdict(Counter)
        for word, form in self.forms.items():
            if (word_stem := stem(word)) is not None:
                capitalised_by_stem[word_stem][form[:1].isupper()] += 1
        self.lower_stems = {word_stem for word_stem, kinds in capitalised_by_stem.items()
                            if kinds[False] > kinds[True]}

    # -- finding --------------------------------------------------------------------
    def written_form(self, word: str) -> str:
        """How the training documents write `word`; for a word they never wrote outside
        PHI, lower case if its stem is that of words they write so, else capitalised; a
        word without a letter (a number or a sign) as it is."""
        lower = word.lower()
        form = self.forms.get(lower)
        if form is not None:
            return form
        if not any(char.isalpha() for char in word):
            return word
        return lower if stem(lower) in self.lower_stems else capitalised(word)

    def recased(self, doc: Doc, only: set[int] | None = None) -> Doc:
        """A copy of `doc`'s tokens, each in its usual written form (only the tokens whose
        indices are in `only`, where given)."""
        words = [self.written_form(token.text) if only is None or token.i in only
                 else token.text for token in doc]
        return Doc(doc.vocab, words=words, spaces=[bool(token.whitespace_) for token in doc])

    def finders(self) -> list[str]:
        """The components of `ner_components` that the pipeline runs, in that order."""
        running = [name for name in self.ner_components if name in self.nlp.pipe_names]
        if not running:
            raise ValueError(f"deid_recase: none of ner_components "
                             f"({', '.join(self.ner_components)}) runs in the pipeline "
                             f"({', '.join(self.nlp.pipe_names)})")
        return running

    def read_again(self, copy: Doc) -> Doc:
        """`copy` after the NER components."""
        for name in self.finders():
            copy = self.nlp.get_pipe(name)(copy)
        return copy

    def unusual_capitals(self, doc: Doc) -> set[int]:
        """The indices of the words in capitals, of at least `min_word_capitals` letters,
        that the training documents write otherwise."""
        return {token.i for token in doc
                if token.is_alpha and len(token) >= self.min_word_capitals
                and token.is_upper and not self.written_form(token.text).isupper()}

    def reread_capitals(self, doc: Doc, words: set[int]) -> None:
        """Add the entities found on a copy with `words` in their usual form that hold one
        of them and enclose every entity of `doc` they overlap (those are replaced)."""
        found = [Span(doc, ent.start, ent.end, label=ent.label_)
                 for ent in self.read_again(self.recased(doc, only=words)).ents
                 if words.intersection(range(ent.start, ent.end))]
        doc.ents = merge_entities(doc.ents, found, encloses_all)

    def __call__(self, doc: Doc) -> Doc:
        if letter_case(doc.text, self.min_cased, self.lower_share, self.upper_share) is not None:
            copy = self.read_again(self.recased(doc))
            doc.ents = [Span(doc, ent.start, ent.end, label=ent.label_) for ent in copy.ents]
        elif self.min_word_capitals and (words := self.unusual_capitals(doc)):
            self.reread_capitals(doc, words)
        return doc

    # -- serialisation (LearnedData) ------------------------------------------------
    def learned(self) -> dict:
        """What `initialize` learned, as JSON-ready data."""
        return {"forms": self.forms, "lower_stems": sorted(self.lower_stems)}

    def load_learned(self, data: dict) -> None:
        """Restore what `learned` returned."""
        self.forms = dict(data.get("forms", {}))
        self.lower_stems = set(data.get("lower_stems", []))


@Language.factory(
    "deid_recase",
    assigns=["doc.ents"],
    requires=["doc.ents"],
    default_config={"ner_components": ["tok2vec", "transformer", "ner", "ner_multilingual"],
                    "min_cased": 100, "lower_share": 0.01, "upper_share": 0.8,
                    "min_word_capitals": 0},
)
def make_recase(nlp: Language, name: str, ner_components: list[str], min_cased: int,
                lower_share: float, upper_share: float, min_word_capitals: int) -> Recase:
    """Factory of `deid_recase` (settings: `ner_components`, the components that find
    entities, run again on the recased copy in this order where the pipeline has them;
    `min_cased`, `lower_share`, `upper_share`: which documents count as written in one
    case; `min_word_capitals`, the shortest word in capitals read again in a text of
    ordinary case, 0 for none). Call `initialize` (or load) to give it the written forms."""
    return Recase(nlp, name, ner_components, min_cased, lower_share, upper_share,
                  min_word_capitals)
