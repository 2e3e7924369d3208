"""The public `SurrogateGenerator` API: languages, determinism, keyed consistency."""

import re

import pytest

from spacy_deid.anonymize.surrogates import SurrogateGenerator, group_age
from spacy_deid.lang import LANGUAGES
from spacy_deid.lang.profile import language_profile

SAMPLE = [
    ("Jan Kowalski", "NAME_PATIENT"),
    ("27.03.2025", "DATE"),
    ("Hauptstraße 12", "LOCATION_STREET"),
    ("Köln", "LOCATION_CITY"),
    ("Klinikum Köln", "LOCATION_HOSPITAL"),
    ("+49 221 1234567", "CONTACT_PHONE"),
    ("info@klinik-koeln.de", "CONTACT_EMAIL"),
    ("https://www.klinik.de/", "CONTACT_URL"),
    ("AB-12345", "ID"),
    ("50937", "LOCATION_ZIP"),
    ("Deutschland", "LOCATION_COUNTRY"),
    ("Bayern", "LOCATION_STATE"),
    ("AOK", "LOCATION_ORGANIZATION"),
    ("Lehrerin", "PROFESSION"),
    ("Dr. med.", "NAME_TITLE"),
]


def test_unknown_language_is_refused():
    with pytest.raises(ValueError, match="xx"):
        SurrogateGenerator(lang="xx")


def test_unknown_label_is_refused():
    session = SurrogateGenerator(lang="de").new_document()
    with pytest.raises(ValueError, match="NAME_FOO"):
        session.surrogate(text="x", label="NAME_FOO")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_label_gets_a_different_string_in_every_language(lang):
    session = SurrogateGenerator(lang=lang, seed=3).new_document()
    for text, label in SAMPLE:
        new = session.surrogate(text=text, label=label, context=f"... {text} ...")
        assert new and new != text, (lang, label)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_cities_and_hospitals_are_from_the_locale(lang):
    places = language_profile(lang).places
    session = SurrogateGenerator(lang=lang, seed=1).new_document()
    city = session.surrogate(text="Köln", label="LOCATION_CITY")
    assert city in places["cities"]
    hospital = session.surrogate(text="Klinikum Köln", label="LOCATION_HOSPITAL")
    templates = [t.format(city=city, n="") for t in places["hospitals"]]
    assert any(hospital.startswith(t.split("{")[0].rstrip()[:6]) for t in templates)


def test_same_seed_same_surrogates_and_new_documents_differ():
    def run(seed):
        generator = SurrogateGenerator(lang="en", seed=seed)
        first = generator.new_document()
        second = generator.new_document()
        return ([first.surrogate(text=t, label=lb) for t, lb in SAMPLE],
                [second.surrogate(text=t, label=lb) for t, lb in SAMPLE])

    assert run(7) == run(7)
    first, second = run(7)
    assert first != second


def test_secret_key_gives_the_same_surrogate_in_every_document():
    generator = SurrogateGenerator(lang="de", seed=0, secret_key="s3cret")
    a = generator.new_document(doc_key="doc a")
    b = generator.new_document(doc_key="doc b")
    for text, label in SAMPLE:
        assert a.surrogate(text=text, label=label) == b.surrogate(text=text, label=label)
    other_key = SurrogateGenerator(lang="de", seed=0, secret_key="other").new_document()
    assert [other_key.surrogate(text=t, label=lb) for t, lb in SAMPLE] != [
        a.surrogate(text=t, label=lb) for t, lb in SAMPLE
    ]


def test_ages_are_grouped_above_the_limit():
    assert group_age("93 Jahre", 89) == "90+ Jahre"
    assert group_age("45", 89) == "45"
    session = SurrogateGenerator(lang="de", age_group_over=89).new_document()
    assert session.surrogate(text="95", label="AGE") == "90+"


@pytest.mark.parametrize("seed", range(12))
def test_an_age_never_stays_as_it_was(seed):
    # a downward move below zero goes up instead (an age 0 once stayed 0)
    session = SurrogateGenerator(lang="de", seed=seed).new_document()
    for age in ("0", "1", "0 J.", "000J", "45"):
        new = session.surrogate(text=age, label="AGE")
        assert new != age and int(new.rstrip("J. ")) != int(age.rstrip("J. ")), (age, new)
        assert int(new.rstrip("J. ")) >= 0


@pytest.mark.parametrize("text", ["00000J", "100101000000000000", "Alter 4711 J."])
def test_a_number_too_long_for_an_age_gets_a_new_number_of_its_shape(text):
    # moved by a year or two, such a number would keep nearly all its digits
    new = SurrogateGenerator(lang="de", seed=0).new_document().surrogate(text=text, label="AGE")
    assert len(new) == len(text) and new != text
    assert [ch.isdigit() for ch in new] == [ch.isdigit() for ch in text]
    digits, new_digits = re.findall(r"\d+", text), re.findall(r"\d+", new)
    pairs = zip(digits, new_digits, strict=True)
    assert all(old[:4] != moved[:4] for old, moved in pairs if len(old) > 3)


@pytest.mark.parametrize("age", ["fifty", "ottantanove", "yetmiş iki", "JJJJJJ"])
def test_an_age_in_words_is_masked(age):
    # the generator moves numbers; an age it cannot read as one must not survive
    new = SurrogateGenerator(lang="it", seed=0).new_document().surrogate(text=age, label="AGE")
    assert new == "".join(" " if ch == " " else "*" for ch in age)


def test_a_moved_age_keeps_its_digits():
    session = SurrogateGenerator(lang="fa", seed=0, age_group_over=89).new_document()
    moved = session.surrogate(text="۴۹", label="AGE")
    assert moved != "۴۹" and all("۰" <= ch <= "۹" for ch in moved)
    assert session.surrogate(text="۹۶", label="AGE") == "۹۰+"


@pytest.mark.parametrize("seed", range(10))
def test_a_code_never_becomes_another_original_of_its_document(seed):
    # a leading non-zero digit stays non-zero: with "2" to "8" taken, "9" can only become "1"
    session = SurrogateGenerator(lang="de", seed=seed).new_document()
    originals = [str(digit) for digit in range(2, 9)]
    session.avoid([*originals, "9"])
    assert session.surrogate(text="9", label="ID") == "1"


@pytest.mark.parametrize("seed", range(10))
def test_each_word_of_a_code_avoids_the_words_of_the_originals(seed):
    # each number of "3-5" keeps a non-zero first digit; 1 to 6 are words of originals
    session = SurrogateGenerator(lang="de", seed=seed).new_document()
    session.avoid(["Bett 3-5", "1", "2", "4", "6"])
    first, second = session.surrogate(text="3-5", label="ID").split("-")
    assert first in "789" and second in "789"
