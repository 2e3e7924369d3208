"""Language profiles: complete for every language, and the one source its consumers read."""

from importlib import resources

import pytest
import spacy

from spacy_deid.anonymize.surrogates.dates import month_table
from spacy_deid.anonymize.surrogates.generator import SurrogateGenerator
from spacy_deid.cli.review import RTL_LANGUAGES
from spacy_deid.detect.id_cues import unit_words
from spacy_deid.detect.name_cues import medical_title_words
from spacy_deid.lang import LANGUAGES
from spacy_deid.lang.identify import SCRIPTS, _cues
from spacy_deid.lang.profile import LanguageProfile, language_profile
from spacy_deid.lang.spelling import ARABIC_SCRIPT_LANGUAGES
from spacy_deid.lang.tokenizer import build_tokenizer, expand_character_classes
from spacy_deid.translate.task import resolve_country

REQUIRED_PEOPLE = ("female", "male", "titles", "title_words", "professions")
REQUIRED_PLACES = ("cities", "states", "streets", "hospitals", "organizations", "unit_words")


def test_every_profile_file_is_a_supported_language():
    folder = resources.files("spacy_deid.lang").joinpath("profiles")
    names = {entry.name for entry in folder.iterdir() if entry.name.endswith(".json")}
    assert names == {f"{lang}.json" for lang in LANGUAGES}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_language_has_a_complete_profile(lang):
    profile = language_profile(lang)
    assert isinstance(profile, LanguageProfile)
    assert profile.code == lang
    assert profile.country and profile.faker_locale and profile.mimesis_locales
    assert profile.script in SCRIPTS
    assert profile.alphabet
    assert all(profile.people[key] for key in REQUIRED_PEOPLE)
    assert all(profile.places[key] for key in REQUIRED_PLACES)
    assert profile.months and all(len(names) == 12 for names in profile.months.values())
    assert len(profile.month_patterns) >= 12
    assert set(profile.age_cues) == {"before", "after", "years", "person_link"}
    assert profile.age_cues["before"] and profile.age_cues["years"]
    assert profile.cue_words


@pytest.mark.parametrize("lang", LANGUAGES)
def test_role_words_are_lower_case_and_a_family_word_is_no_staff_word(lang):
    profile = language_profile(lang)
    for words in (profile.staff_words, profile.relative_words):
        assert all(word == word.lower() for word in words)
    assert not set(profile.staff_words) & set(profile.relative_words)
    # family words come with the capital that marks the name after them
    assert not profile.relative_words or profile.script != "arabic"


def test_only_german_writes_its_nouns_with_a_capital():
    assert [lang for lang in LANGUAGES if language_profile(lang).capitalises_nouns] == ["de"]


def test_profiles_are_cached_and_frozen():
    profile = language_profile("de")
    assert language_profile("de") is profile
    with pytest.raises(AttributeError):
        profile.code = "en"
    with pytest.raises(TypeError):
        profile.places["cities"] = ()


@pytest.mark.parametrize("code", ["xx", "es", "", "DE"])
def test_an_unsupported_code_raises(code):
    with pytest.raises(ValueError, match="Unsupported language code"):
        language_profile(code)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_surrogates_read_the_profile(lang):
    profile = language_profile(lang)
    generator = SurrogateGenerator(lang=lang, seed=0)
    assert generator.faker.locales == [profile.faker_locale]
    assert generator.places.places is profile.places
    assert generator.places.people is profile.people
    assert month_table(lang)[1] == dict(profile.months)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_detection_reads_the_profile(lang):
    profile = language_profile(lang)
    assert unit_words(lang) == frozenset(profile.unit_words)
    titles = {word.lower() for title in profile.titles for word in title.split()}
    assert medical_title_words(lang) == titles
    assert _cues().script[lang] == profile.script


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_tokenizer_uses_the_profile_rules(lang):
    rules = language_profile(lang).tokenizer
    tokenizer = build_tokenizer(spacy.blank("xx"), lang)
    searches = {"prefixes": tokenizer.prefix_search, "suffixes": tokenizer.suffix_search,
                "infixes": tokenizer.infix_finditer}
    for kind, search in searches.items():
        for rule in getattr(rules, kind):
            assert expand_character_classes(rule) in search.__self__.pattern
    defaults = spacy.util.get_lang_class(lang).Defaults
    assert tokenizer.token_match is (defaults.token_match if rules.keep_token_match else None)


def test_script_sets_and_countries_come_from_the_profiles():
    arabic = {lang for lang in LANGUAGES if language_profile(lang).script == "arabic"}
    assert ARABIC_SCRIPT_LANGUAGES == arabic == RTL_LANGUAGES == {"ar", "fa"}
    for lang in LANGUAGES:
        assert resolve_country(lang, None) == language_profile(lang).country
