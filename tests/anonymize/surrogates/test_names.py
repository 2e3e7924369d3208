"""Person-name surrogates: one person per original person, gender, case and letter case."""

import random

import pytest

from spacy_deid.anonymize.surrogates.names import NameSurrogates
from spacy_deid.lang import LANGUAGES
from spacy_deid.lang.lexicon import lexicon, mimesis_first_names
from spacy_deid.lang.morphology import detect_cases, inflect, lemma_candidates, turkish_suffix


def _names(lang: str) -> NameSurrogates:
    return NameSurrogates(lang, random.Random(0))


def test_mentions_of_one_person_map_to_one_surrogate():
    names = _names("de")
    full = names.surrogate("Hans Meier", "Herrn ", "")
    first, last = full.split()
    assert names.surrogate("Meier", "Herr ", "") == last
    assert names.surrogate("MEIER", "", "") == last.upper()
    assert names.surrogate("Meier, Hans", "", "") == f"{last}, {first}"
    assert names.surrogate("H. Meier", "", "") == f"{first[0]}. {last}"
    assert names.surrogate("Dr. Meier", "", "") == f"Dr. {last}"


def test_gender_cues_are_kept():
    names = _names("pl")
    female = names.surrogate("Kowalska", "Pani ", "")
    male = names.surrogate("Nowak", "Pan ", "")
    assert female.endswith(("ska", "cka", "dzka"))
    assert not male.endswith("ska")


def test_a_first_name_only_mimesis_lists_keeps_its_gender():
    turkish = lexicon("tr")
    assert turkish.first_name_genders("tr", "Burcu", other_lists=False) == set()
    assert turkish.first_name_genders("tr", "Burcu") == {"F"}
    for seed in range(5):
        first = NameSurrogates("tr", random.Random(seed)).surrogate("Burcu Tandoğan", "", "")
        assert "F" in turkish.first_name_genders("tr", first.split()[0], other_lists=False)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_mimesis_has_first_names_of_both_genders_for_every_language(lang):
    names = mimesis_first_names(lang)
    assert len(names["F"]) > 100 and len(names["M"]) > 100
    assert not any(" " in name for name in names["F"] + names["M"])


def test_polish_cases_follow_the_original():
    names = _names("pl")
    nominative = names.surrogate("Jan Kowalski", "", "")
    genitive = names.surrogate("Jana Kowalskiego", "Pana ", "")
    first, last = nominative.split()
    assert genitive.split()[1] == last[:-1] + "iego"
    assert genitive.split()[0].startswith(first)


def test_russian_dative_with_patronymic():
    names = _names("ru")
    new = names.surrogate("Захаровой Ксении Николаевне", "пациентке ", "")
    surname, first, patronymic = new.split()
    assert surname.endswith("ой") and patronymic.endswith("не")
    assert names.surrogate("Захаровой", "", "") == surname
    initials = names.surrogate("Захарова К. Н.", "", "")
    assert initials.split()[1:] == [f"{first[0]}.", f"{patronymic[0]}."]


def test_ukrainian_enko_surnames_stay_indeclinable_for_women():
    names = _names("uk")
    new = names.surrogate("Олені Шевченко", "пані ", "")
    assert new.split()[1].endswith("енко")


def test_turkish_suffix_is_reharmonized():
    names = _names("tr")
    base = names.surrogate("Yılmaz", "", "")
    with_suffix = names.surrogate("Yılmaz'ın", "", "")
    assert with_suffix.startswith(base + "'")
    assert turkish_suffix("ın", "Yılmaz", "Demir") == "in"
    assert turkish_suffix("da", "Ankara", "Eskişehir") == "de"
    assert turkish_suffix("a", "Kemal", "Ali") == "ye"


@pytest.mark.parametrize(
    ("lang", "word", "case"),
    [("pl", "Agnieszce", "dat"), ("ru", "Ивановым", "ins"), ("uk", "Петренком", "ins")],
)
def test_case_detection(lang, word, case):
    assert case in detect_cases(lang, word)


def test_inflection_tables():
    assert inflect("pl", "Agnieszka", "first", "F", "dat") == "Agnieszce"
    assert inflect("pl", "Kowalska", "surname", "F", "gen") == "Kowalskiej"
    assert inflect("ru", "Иванов", "surname", "M", "ins") == "Ивановым"
    assert inflect("uk", "Марія", "first", "F", "ins") == "Марією"
    assert inflect("uk", "Ольга", "first", "F", "dat") == "Ользі"
    assert "ольга" in lemma_candidates("uk", "Ольги")
    assert inflect("pl", "Maja", "first", "F", "gen") == "Mai"
    assert inflect("pl", "Maja", "first", "F", "ins") == "Mają"
    assert "maja" in lemma_candidates("pl", "Mai")


def test_arabic_spellings_of_one_name_map_to_one_surrogate():
    names = _names("ar")
    with_long_vowel = names.surrogate("ياسمين", "", "")
    assert names.surrogate("ياسمن", "", "") == with_long_vowel
    assert names.surrogate("سوسن", "", "") != with_long_vowel


@pytest.mark.parametrize("lang", ["en", "fr", "it", "ar", "fa"])
def test_every_language_gives_a_different_name(lang):
    names = _names(lang)
    original = {"en": "John Smith", "fr": "Jean Dupont", "it": "Mario Rossi",
                "ar": "فاطمة الحسن", "fa": "مریم احمدی"}[lang]
    new = names.surrogate(original, "", "")
    assert new != original and len(new.split()) == 2
    assert not set(original.split()) & set(new.split())


@pytest.mark.parametrize("lang, originals", [
    ("tr", ["Elif Acar", "Sevda Kılıçkaya", "Emre Aksu", "Ayşe Yılmaz"]),
    ("fa", ["نازنین بیگدلی", "حبیبی کریمه", "مریم احمدی"]),
    ("de", ["Beate Albrecht", "Hans Meier", "Inge Krahn", "Max Muster"]),
])
@pytest.mark.parametrize("seed", range(5))
def test_no_surrogate_word_starts_with_the_original_words_initial(lang, originals, seed):
    names = NameSurrogates(lang, random.Random(seed))
    for original in originals:
        new = names.surrogate(original, "", "")
        for old_word, new_word in zip(original.split(), new.split(), strict=True):
            assert new_word[0].lower() != old_word[0].lower(), (original, new)
        initial = names.surrogate(f"{original[0]}.", "", "")
        assert initial[0].lower() != original[0].lower()


@pytest.mark.parametrize("mention", ["Dossier : 207538164092", "4711", "Zimmer 12 Meier"])
def test_no_digit_of_a_name_mention_survives(mention):
    surrogate = _names("fr").surrogate(mention, "", "")
    original_digits = "".join(ch for ch in mention if ch.isdigit())
    new_digits = "".join(ch for ch in surrogate if ch.isdigit())
    assert len(new_digits) == len(original_digits)
    assert original_digits not in surrogate or not original_digits
    assert surrogate != mention
