"""The `deid_name_cues` component: names announced by the words around them.

Clinical letters introduce people with cue words: "Frau Albrecht", "Dr. med. Krahn",
"السيدة الطويل", "Luise Ulmer, * 3.4.1959". A statistical model that misses such a name
leaks it, although its neighbour says plainly that a name stands there. This component
learns the cues from annotated training documents (`initialize`), so it needs no
hand-written word list and works for any language with a training split:

* `cues_before` / `cues_after`: what stands right before / after a person name in at
  least `min_cue_ratio` of its `min_cue_count` or more occurrences, each with the name
  label that most often goes with it. A cue is a word, a field label with its colon
  ("hasta:", "Patientin:"; the word alone is too common to be a cue), an abbreviation of
  two short words with a slash between them ("м/с": the nurse, not the preposition "с"), a
  dash after the end of a sentence on its line (`<SIGN-OFF>`: "Verband gewechselt. –
  Ilka", an entry signed in a nursing note; a dash elsewhere joins a range or a
  department's name) or an entity ("<NAME_TITLE>", "<LOCATION_STREET>"); before a
  title, the title's own words and the word before the title count too ("Grüßen" in
  "Mit freundlichen Grüßen / Dr. Krahn");
  before a name that opens a line, so does the line above it (a closing formula); at run
  time such a line cue takes only a name of two or more words that fills its line;
  whitespace, and one `,` `(` `:` after a name, are looked past;
* `joiners`: a word or a column gap (a tab, or two or more spaces, within a line) seen
  at least `min_cue_count` times between two entities of one label, a title before the
  second one counting as part of it ("und", "و", the gap in "Dr. Kunz <tab> Dr. Lange");
  a name after a person entity and a joiner is a person of the same label ("Drs. Seidl
  und Pfetzer");
* `common_words`: words seen at least `min_common_count` times outside any entity and
  never inside a person name: these never become names;
* `particles`: lower-case words seen inside person names ("von", "de"), allowed within;
* medical titles of the language (`lang`; its profile: "Dr.", "الدكتورة")
  that the training letters hold fewer than `min_cue_count` times become cues for a
  doctor's name: too rare there to learn, too plain to miss. Where the letters hold a
  title word often enough, they decide (Ukrainian "лікар" mostly stands before
  "вищої категорії", not before a name);
* the language's words for nurses, therapists and other staff who are not doctors (`lang`;
  its profile's `staff`: "Pflegerin", "hemşire"), and each as a field label ("hemşire:"),
  are cues for a doctor's name (the schema's label for medical staff) unless training made
  them cues of another label: a staff word stands before too few names in any one
  language's training documents to learn it, and in those of all languages with case a
  capitalised word on its line after one is a name; so is a field label of two words that
  a staff word opens ("Pielęgniarka anestezjologiczna:", "الممرضة الدوّارة:"; the second
  word lower-case in a script with case);
* in the same way, the language's words for family members (its profile's `relatives`:
  "husband", "córką", "kızı"), and each as a field label ("wife:"), are cues for a
  relative's name unless training made them cues of another label: in the training
  documents of the languages with case, a capitalised word after one that is no common
  word is mostly a name ("his wife Oriel", "брат Эльдар"); in a language that writes every
  noun with a capital (German) the name must open with a first name of the language's
  lists, since a family history writes "Vater Apoplex";
* `inverted_names`: whether "Surname, Firstname" (one word each side of a comma) was seen
  at least `min_cue_count` times as one person name ("Patientin: Albrecht, Beate"); then
  a one-word name, after a cue or found by the NER, takes the word after its comma too.

At run time, next to every cue, the run of up to `max_tokens` name-like tokens (letters,
not a common word, capitalised in scripts with case, outside existing entities) becomes
a name. Existing entities always win: new spans only fill gaps. Place it after the NER
and before `deid_mention_propagation`, which then finds the other mentions.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Iterator

from spacy.language import Language
from spacy.tokens import Doc, Span, Token
from spacy.training import Example

from spacy_deid.detect.entities import add_entities, entity_tokens
from spacy_deid.detect.gold import reference_docs
from spacy_deid.detect.learned_data import LearnedData
from spacy_deid.detect.tokens import (
    COMMAS,
    ends_line,
    entity_index,
    field_label,
    is_name_like,
    is_name_word,
    learn_common_words,
    name_particles,
    next_word,
    opens_line,
)
from spacy_deid.lang import pipeline_language, validate_language
from spacy_deid.lang.casing import has_case
from spacy_deid.lang.lexicon import is_first_or_double_name
from spacy_deid.lang.profile import language_profile
from spacy_deid.schema import PERSON_LABELS

# Punctuation between a name and the cue after it: "Ulmer, * 3.4.1959", "اوحدی، متولد".
SKIPPED_AFTER_NAME = frozenset({",", "(", ":", "\u060c"})
# Whitespace with a tab or two or more spaces and no line break between two names
# (signature columns: "Prof. Dr. Ali Demir      Can Yıldız"), as a joiner key.
COLUMN_GAP = "<GAP>"
# A closing formula or role line before a name line, as a cue key (see `line_cues`).
LINE_CUE = "<LINE>"
MAX_LINE_CUE = 60
LINE_END_PUNCTUATION = ",;\u060c\u061b "
# A dash after the end of a sentence on its line, as a cue key: the signature of an entry
# in a nursing note or a message ("Verband gewechselt. – Ilka").
SIGN_OFF = "<SIGN-OFF>"
DASHES = frozenset({"\u2013", "\u2014"})
SENTENCE_ENDS = (".", "!", "?", "\u061f")


def medical_title_words(lang: str) -> frozenset[str]:
    """The lower-cased words of the language's medical and academic titles."""
    titles = language_profile(lang).titles
    return frozenset(word.lower() for title in titles for word in title.split())


def role_cues(words: Iterable[str], label: str) -> dict[str, str]:
    """Words for a person's role and their field labels ("hemşire", "hemşire:"), each a cue
    for a name of `label`."""
    return {key: label for word in words for key in (word, f"{word}:")}


def is_sign_off(doc: Doc, i: int) -> bool:
    """Whether token `i` is a dash after the end of a sentence on the same line."""
    if doc[i].text not in DASHES:
        return False
    before = i - 1
    while before >= 0 and doc[before].is_space and "\n" not in doc[before].text:
        before -= 1
    return before >= 0 and doc[before].text.endswith(SENTENCE_ENDS)


def slash_abbreviation(doc: Doc, i: int) -> str | None:
    """The abbreviation that token `i` ends, where two short words are written with a slash
    between them ("м/с", a nurse in Russian and Ukrainian), lower-cased; else None."""
    if i < 2 or doc[i - 1].text != "/" or doc[i - 2].whitespace_ or doc[i - 1].whitespace_:
        return None
    first, second = doc[i - 2].text, doc[i].text
    if not (first.isalpha() and second.isalpha() and len(first) <= 2 and len(second) <= 2):
        return None
    return f"{first}/{second}".lower()


def word_cue(doc: Doc, i: int) -> str:
    """The cue key of token `i`: its field label ("hasta:"), a sign-off dash, a slash
    abbreviation ("м/с"), or the word."""
    if is_sign_off(doc, i):
        return SIGN_OFF
    return field_label(doc, i) or slash_abbreviation(doc, i) or doc[i].lower_


def entity_cue(label: str) -> str:
    """The cue key of an entity next to a name: "<NAME_TITLE>", "<LOCATION_STREET>"."""
    return f"<{label}>"


def written_as_first_name(word: str, surname: str) -> bool:
    """Whether `word` is cased like a first name after `surname`: in title case, in
    capitals after a surname in capitals, or in a script without case."""
    return word.istitle() or (word.isupper() and surname.isupper()) or word.lower() == word


def line_cues(doc: Doc) -> dict[int, str]:
    """Token index -> cue key of the line above, for every token that opens a line: that
    line, blank lines skipped, lower-cased, without a final comma, up to `MAX_LINE_CUE`
    characters ("<LINE>mit freundlichen grüßen"). A closing formula announces the name on
    the next line."""
    text = doc.text
    cues = {}
    for token in doc[1:]:
        if token.is_space or not opens_line(doc, token.i):
            continue
        line_start = text.rfind("\n", 0, token.idx) + 1
        if text[line_start : token.idx].strip():
            continue
        end = line_start - 1
        while end > 0 and text[end - 1].isspace():
            end -= 1
        previous = text[text.rfind("\n", 0, end) + 1 : end].strip().rstrip(LINE_END_PUNCTUATION)
        if previous and len(previous) <= MAX_LINE_CUE:
            cues[token.i] = LINE_CUE + " ".join(previous.lower().split())
    return cues


def between_same_labels(doc: Doc) -> Iterator[Span]:
    """What stands between neighbouring entities of one label, for learning joiners; a
    title right before the second one belongs to it ("Dr. Kaya <tab> Dr. Aksoy": the tab)."""
    ents = doc.ents
    for i, left in enumerate(ents[:-1]):
        right = ents[i + 1]
        start = right.start
        if (right.label_ == "NAME_TITLE" and left.label_ != "NAME_TITLE" and i + 2 < len(ents)
                and next_word(doc, right.end, 1) == ents[i + 2].start):
            right = ents[i + 2]
        if left.label_ == right.label_:
            yield doc[left.end:start]


def is_inverted_name(ent: Span) -> bool:
    """"Surname, Firstname": one name word, a comma, one name word."""
    words = [token for token in ent if not token.is_space]
    return (len(words) == 3 and words[1].text in COMMAS
            and is_name_word(words[0].text) and is_name_word(words[2].text))


class NameCues(LearnedData):
    """Add person names next to learned cue words (see the module docstring)."""

    data_file = "name_cues.json"
    factory = "deid_name_cues"

    def __init__(self, name: str, lang: str | None, max_tokens: int, min_cue_count: int,
                 min_cue_ratio: float, min_common_count: int) -> None:
        if max_tokens < 1 or min_cue_count < 1 or min_common_count < 1:
            raise ValueError("deid_name_cues: max_tokens, min_cue_count and min_common_count "
                             "must be >= 1")
        if not 0 < min_cue_ratio <= 1:
            raise ValueError(f"deid_name_cues: min_cue_ratio must be in (0, 1], "
                             f"not {min_cue_ratio}")
        self.name = name
        self.max_tokens = max_tokens
        self.min_cue_count = min_cue_count
        self.min_cue_ratio = min_cue_ratio
        self.min_common_count = min_common_count
        self.lang = validate_language(lang) if lang else None
        profile = language_profile(self.lang) if self.lang else None
        self.staff_words = frozenset(profile.staff_words if profile else ())
        self.relative_words = frozenset(profile.relative_words if profile else ())
        self.capitalises_nouns = bool(profile and profile.capitalises_nouns)
        self.cues_before: dict[str, str] = {}
        self.cues_after: dict[str, str] = {}
        self.joiners: set[str] = set()
        self.common_words: set[str] = set()
        self.particles: set[str] = set()
        self.inverted_names = False

    # -- learning -----------------------------------------------------------------
    def initialize(self, get_examples: Callable[[], Iterable[Example]],
                   nlp: Language | None = None, examples: Callable | None = None) -> None:
        """Learn cues, joiners, common words and name particles from the reference docs; those of
        `examples` (an `[initialize.components]` setting, see `detect.gold`) where set."""
        self.learn(reference_docs(get_examples, nlp, examples))

    def learn(self, docs: Iterable[Doc]) -> None:
        """Count, over gold documents, what stands around, between and inside person names."""
        docs = list(docs)
        seen: Counter = Counter()
        people: list[Span] = []
        joiners: Counter = Counter()
        inverted = 0
        before: dict[str, Counter] = defaultdict(Counter)
        after: dict[str, Counter] = defaultdict(Counter)
        for doc in docs:
            entity_of = entity_index(doc)
            seen.update(entity_cue(ent.label_) for ent in doc.ents)
            seen.update(token.lower_ for token in doc)
            seen.update(filter(None, (field_label(doc, token.i) for token in doc)))
            seen.update(SIGN_OFF for token in doc if is_sign_off(doc, token.i))
            seen.update(filter(None, (slash_abbreviation(doc, token.i) for token in doc)))
            lines = line_cues(doc)
            seen.update(lines.values())
            doc_people = [ent for ent in doc.ents if ent.label_ in PERSON_LABELS]
            people.extend(doc_people)
            inverted += sum(is_inverted_name(ent) for ent in doc_people)
            for ent in doc_people:
                for cue in self.cues_before_name(doc, ent.start, entity_of, lines):
                    before[cue][ent.label_] += 1
                cue = self.cue_after(doc, ent.end, entity_of)
                if cue is not None:
                    after[cue][ent.label_] += 1
            for between in between_same_labels(doc):
                joiner = self.joiner_key(between)
                if joiner:
                    joiners[joiner] += 1
        self.cues_before = self.select_cues(before, seen)
        self.cues_before.update(self.rare_title_cues(seen))
        self.cues_before = {**self.profile_cues(), **self.cues_before}
        self.cues_after = self.select_cues(after, seen)
        self.joiners = {word for word, count in joiners.items() if count >= self.min_cue_count}
        self.common_words = learn_common_words(docs, self.min_common_count)
        self.particles = name_particles(people, 2)
        self.inverted_names = inverted >= self.min_cue_count

    def profile_cues(self) -> dict[str, str]:
        """The staff and family words of the language as cues, before what training learned."""
        return {**role_cues(self.staff_words, "NAME_DOCTOR"),
                **role_cues(self.relative_words, "NAME_RELATIVE")}

    def select_cues(self, neighbours: dict[str, Counter], seen: Counter) -> dict[str, str]:
        """Words next to a name often enough, each with its most frequent name label."""
        cues = {}
        for word, labels in neighbours.items():
            count = sum(labels.values())
            if count >= self.min_cue_count and count / seen[word] >= self.min_cue_ratio:
                cues[word] = labels.most_common(1)[0][0]
        return cues

    def rare_title_cues(self, seen: Counter) -> dict[str, str]:
        """The language's title words seen fewer than `min_cue_count` times and not yet
        cues, as cues for a doctor's name (none without `lang`)."""
        titles = medical_title_words(self.lang) if self.lang else frozenset()
        return {word: "NAME_DOCTOR" for word in titles
                if seen[word] < self.min_cue_count and word not in self.cues_before}

    @staticmethod
    def joiner_key(between: Span) -> str | None:
        """What joins two entities of one label: one word ("und", "و") or a column gap
        (a tab, or two or more spaces, without a line break)."""
        words = [token for token in between if not token.is_space]
        if len(words) == 1 and words[0].is_alpha:
            return words[0].lower_
        gap = between.text
        if not words and "\n" not in gap and ("\t" in gap or gap.count(" ") >= 2):
            return COLUMN_GAP
        return None

    @staticmethod
    def cue_before(doc: Doc, start: int, entity_of: dict[int, Span]) -> str | None:
        """The cue key before a name: the entity next to it ("Dr."), a field label
        ("hasta:"), or the word before."""
        i = next_word(doc, start - 1, -1)
        if i < 0:
            return None
        if i in entity_of:
            return entity_cue(entity_of[i].label_)
        return word_cue(doc, i)

    def cues_before_name(self, doc: Doc, start: int, entity_of: dict[int, Span],
                         lines: dict[int, str]) -> list[str]:
        """The cue keys before a name: the one next to it and, when that is a title, also
        the title's own words (for a title the NER missed) and the word before the title
        ("Mit freundlichen Grüßen / Dr. med. Krahn"); and the line cue (`lines`) where the
        name, or its title, opens a line."""
        cue = self.cue_before(doc, start, entity_of)
        if cue != entity_cue("NAME_TITLE"):
            return [key for key in (cue, lines.get(start)) if key is not None]
        title = entity_of[next_word(doc, start - 1, -1)]
        cues = [cue, *(token.lower_ for token in title if not token.is_space)]
        before_title = [self.cue_before(doc, title.start, entity_of), lines.get(title.start)]
        return [*cues, *(key for key in before_title if key is not None)]

    @staticmethod
    def cue_after(doc: Doc, end: int, entity_of: dict[int, Span]) -> str | None:
        """The cue key after a name (past one `,` `(` `:`): an entity or a word."""
        i = next_word(doc, end, 1, SKIPPED_AFTER_NAME)
        if i >= len(doc):
            return None
        return entity_cue(entity_of[i].label_) if i in entity_of else doc[i].lower_

    # -- finding --------------------------------------------------------------------
    def __call__(self, doc: Doc) -> Doc:
        if not (self.cues_before or self.cues_after):
            return doc
        self.repair_person_entities(doc)
        entity_of = entity_index(doc)
        lines = line_cues(doc)
        taken = set(entity_of)
        found: list[Span] = []

        def add(span: Span | None) -> None:
            if span is not None:
                found.append(span)
                taken.update(range(span.start, span.end))

        for ent in doc.ents:
            key = entity_cue(ent.label_)
            if key in self.cues_before:
                add(self.name_after(doc, ent.end, taken, entity_of, self.cues_before[key]))
            if key in self.cues_after:
                add(self.name_before(doc, ent.start, taken, self.cues_after[key]))
        for token in doc:
            line = lines.get(token.i)
            if line in self.cues_before:
                add(self.name_line(doc, token.i, taken, entity_of, self.cues_before[line]))
            if token.i in entity_of:
                continue
            cue = word_cue(doc, token.i)
            colon = self.role_label_colon(doc, token.i)
            if colon is not None:  # the word after the staff word says which one
                add(self.name_after(doc, colon + 1, taken, entity_of,
                                    self.cues_before.get(token.lower_, "NAME_DOCTOR")))
            elif cue in self.cues_before:
                name = self.name_after(doc, token.i + 1, taken, entity_of, self.cues_before[cue])
                add(name if name is None or self.may_follow(cue, name) else None)
            if token.i not in taken and token.lower_ in self.cues_after:
                add(self.name_before(doc, token.i, taken, self.cues_after[token.lower_]))
        people = [span for span in [*doc.ents, *found] if span.label_ in PERSON_LABELS]
        for person in sorted(people, key=lambda span: span.start):
            add(self.joined_name(doc, person, taken))
        add_entities(doc, found)
        return doc

    def may_follow(self, cue: str, name: Span) -> bool:
        """Whether `name` may follow the cue word `cue`: after a family word, in a language
        that writes every noun with a capital, only a name that opens with a first name of
        the language's lists ("Tochter Anke", "Enkelin Eva-Maria", not "Vater Apoplex" of a
        family history)."""
        if not (self.capitalises_nouns and cue.removesuffix(":") in self.relative_words):
            return True
        return is_first_or_double_name(self.lang, name[0].text)

    def role_label_colon(self, doc: Doc, i: int) -> int | None:
        """The colon of a field label of two words on one line that a staff word opens and
        whose second word says which one ("Pielęgniarka anestezjologiczna:", "الممرضة
        الدوّارة:"), else None. The second word is lower-case in a script with case: a
        capitalised one may be the name itself ("Pflegerin Anna:")."""
        if doc[i].lower_ not in self.staff_words:
            return None
        word = i + 1 if i + 1 < len(doc) and doc[i].whitespace_ == " " else None
        if word is None or word + 1 >= len(doc) or doc[word + 1].text != ":":
            return None
        second = doc[word].text
        if not any(char.isalpha() for char in second) or (has_case(second)
                                                          and second != second.lower()):
            return None
        return word + 1

    def name_after(self, doc: Doc, start: int, taken: set[int], entity_of: dict[int, Span],
                   label: str) -> Span | None:
        """The run of name words from `start`, past whitespace, titles and further cues;
        a title right before the name decides the label when it is a known cue."""
        i = next_word(doc, start, 1)
        while i < len(doc):
            ent = entity_of.get(i)
            if ent is not None and ent.label_ == "NAME_TITLE":
                label = self.cues_before.get(entity_cue("NAME_TITLE"), label)
                i = next_word(doc, ent.end, 1)
            elif ent is None and doc[i].lower_ in self.cues_before:
                label = self.cues_before[doc[i].lower_]
                i = next_word(doc, i + 1, 1)
            else:
                break
        name = self.run_from(doc, i, taken, label)
        return self.with_first_name(doc, name, taken) if name is not None else None

    def repair_person_entities(self, doc: Doc) -> None:
        """Mend two slips of the NER in person entities, where the training letters show
        the pattern: a learned joiner taken as the last word ("Aydoğdu ve" in "Dr. Aydoğdu ve
        Kazancı") is dropped, so that the joined name after it is found; a one-word name
        that a comma and a name word follow grows to "Surname, Firstname" (the NER often
        marks only "Albrecht" in "Albrecht, Beate")."""
        taken = entity_tokens(doc)
        repaired = [self.repaired(doc, ent, taken) if ent.label_ in PERSON_LABELS else ent
                    for ent in doc.ents]
        if any((new.start, new.end) != (ent.start, ent.end)
               for new, ent in zip(repaired, doc.ents, strict=True)):
            doc.ents = repaired

    def repaired(self, doc: Doc, person: Span, taken: set[int]) -> Span:
        """`person` without a trailing joiner word, or grown by its first name."""
        last = person[-1]
        if len(person) > 1 and last.lower_ in self.joiners and last.text == last.lower_:
            return Span(doc, person.start, person.end - 1, label=person.label_)
        return self.with_first_name(doc, person, taken)

    def name_line(self, doc: Doc, start: int, taken: set[int], entity_of: dict[int, Span],
                  label: str) -> Span | None:
        """The name of a line after a line cue, when it fills the rest of the line (past
        titles) with two or more words: a signature line, not "Signature:" or "Sincerely"."""
        name = self.name_after(doc, start, taken, entity_of, label)
        if name is None or len(name) < 2 or not ends_line(doc, name.end):
            return None
        return name

    def with_first_name(self, doc: Doc, name: Span, taken: set[int]) -> Span:
        """`name` and, for a one-word name followed by a comma and one name word written
        like a first name, that word too ("Albrecht, Beate", "ALBRECHT, BEATE"; not the degree
        in "Hensby, MBA"), where the training letters write names that way."""
        if not self.inverted_names or len(name) != 1:
            return name
        comma = next_word(doc, name.end, 1)
        if comma >= len(doc) or doc[comma].text not in COMMAS:
            return name
        first = next_word(doc, comma + 1, 1)
        if first >= len(doc) or not self.is_name_token(doc[first], taken):
            return name
        if not written_as_first_name(doc[first].text, name.text):
            return name
        return Span(doc, name.start, first + 1, label=name.label_)

    def run_from(self, doc: Doc, start: int, taken: set[int], label: str) -> Span | None:
        """Up to `max_tokens` name-like tokens from `start` (particles allowed inside)."""
        end = start
        while (end < len(doc) and end - start < self.max_tokens
               and self.may_continue(doc, end, start, taken)):
            end += 1
        while end > start and doc[end - 1].lower_ in self.particles:
            end -= 1
        return Span(doc, start, end, label=label) if end > start else None

    def name_before(self, doc: Doc, cue: int, taken: set[int], label: str) -> Span | None:
        """The run of name words that ends right before the cue (past one `,` `(` `:`)."""
        end = next_word(doc, cue - 1, -1, SKIPPED_AFTER_NAME) + 1
        start = end
        while (start > 0 and end - start < self.max_tokens
               and self.is_name_token(doc[start - 1], taken)):
            start -= 1
        return Span(doc, start, end, label=label) if end > start else None

    def joined_name(self, doc: Doc, person: Span, taken: set[int]) -> Span | None:
        """A second name joined to `person` by a learned joiner ("Seidl und Pfetzer")."""
        i = next_word(doc, person.end, 1)
        if i >= len(doc) or i in taken:
            return None
        if self.joiner_key(doc[person.end:i]) == COLUMN_GAP and COLUMN_GAP in self.joiners:
            return self.run_from(doc, i, taken, person.label_)
        if doc[i].lower_ not in self.joiners:
            return None
        return self.run_from(doc, next_word(doc, i + 1, 1), taken, person.label_)

    def may_continue(self, doc: Doc, i: int, first: int, taken: set[int]) -> bool:
        """Whether token `i` can extend a name that starts at token `first`."""
        token = doc[i]
        if i > first and token.lower_ in self.particles and i + 1 < len(doc):
            return self.is_name_token(doc[i + 1], taken)
        return self.is_name_token(token, taken)

    def is_name_token(self, token: Token, taken: set[int]) -> bool:
        """Name-like (`is_name_like`) and not itself a cue word."""
        return (is_name_like(token, taken, self.common_words)
                and token.lower_ not in self.cues_before)

    # -- serialisation (LearnedData) ------------------------------------------------
    def learned(self) -> dict:
        """What `initialize` learned, as JSON-ready data."""
        return {"cues_before": self.cues_before, "cues_after": self.cues_after,
                "joiners": sorted(self.joiners), "common_words": sorted(self.common_words),
                "particles": sorted(self.particles), "inverted_names": self.inverted_names}

    def load_learned(self, data: dict) -> None:
        """Restore what `learned` returned, checking that every label is a name label."""
        for key in ("cues_before", "cues_after"):
            unknown = set(data.get(key, {}).values()) - PERSON_LABELS
            if unknown:
                raise ValueError(f"deid_name_cues: {key} has labels that are not person "
                                 f"names: {sorted(unknown)}")
        self.cues_before = {**self.profile_cues(), **data.get("cues_before", {})}
        self.cues_after = dict(data.get("cues_after", {}))
        self.joiners = set(data.get("joiners", []))
        self.common_words = set(data.get("common_words", []))
        self.particles = set(data.get("particles", []))
        self.inverted_names = bool(data.get("inverted_names", False))


@Language.factory(
    "deid_name_cues",
    assigns=["doc.ents"],
    requires=["doc.ents"],
    default_config={"lang": None, "max_tokens": 3, "min_cue_count": 2, "min_cue_ratio": 0.5,
                    "min_common_count": 2},
)
def make_name_cues(nlp: Language, name: str, lang: str | None, max_tokens: int,
                   min_cue_count: int, min_cue_ratio: float, min_common_count: int) -> NameCues:
    """Factory of `deid_name_cues`; call `initialize` (or load) to give it its cues. With
    `lang`, the language's medical titles are cues too where training has too few of them."""
    lang = pipeline_language(nlp, lang, "deid_name_cues")
    return NameCues(name, lang, max_tokens, min_cue_count, min_cue_ratio, min_common_count)
