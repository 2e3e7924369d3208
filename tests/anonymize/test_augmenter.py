"""spacy_deid.SurrogateAugmenter.v1: training copies with surrogate PHI, aligned and seeded."""

import pytest
from spacy.training import Example
from spacy.util import registry

from tests.annotated_docs import annotated, blank

TEXT = "Frau Anna Albrecht, geb. 12.03.1950, liegt auf Station 4B. Fall-Nr. 2024057166."
ENTITIES = [("Anna Albrecht", "NAME_PATIENT"), ("12.03.1950", "DATE"), ("4B", "ID"),
            ("2024057166", "ID")]


def augmenter(**settings):
    return registry.augmenters.get("spacy_deid.SurrogateAugmenter.v1")(**settings)


def example(nlp, lang="de", source=None):
    reference = annotated(nlp, TEXT, ENTITIES)
    reference.user_data["lang"] = lang
    if source is not None:
        reference.user_data["source"] = source
    return Example(nlp.make_doc(TEXT), reference)


def test_the_copy_has_new_phi_of_the_same_labels_on_token_boundaries():
    nlp = blank("de")
    original, copy = list(augmenter(level=1.0, lower_level=0.0)(nlp, example(nlp)))
    assert original.reference.text == TEXT
    assert [ent.label_ for ent in copy.reference.ents] == [label for _, label in ENTITIES]
    assert all(new.text != old for new, (old, _) in zip(copy.reference.ents, ENTITIES,
                                                         strict=True))
    assert copy.predicted.text == copy.reference.text
    assert "Frau " in copy.reference.text and "auf Station " in copy.reference.text


def test_an_age_in_words_stays_as_written_in_the_copy():
    # the anonymizer masks such an age; asterisks would be no training text
    nlp = blank("de")
    text = "Frau Anna Albrecht, zweiundfünfzig Jahre, geb. 12.03.1950."
    reference = annotated(nlp, text, [("Anna Albrecht", "NAME_PATIENT"),
                                      ("zweiundfünfzig", "AGE"), ("12.03.1950", "DATE")])
    reference.user_data["lang"] = "de"
    _, copy = list(augmenter(level=1.0, lower_level=0.0)(nlp, Example(nlp.make_doc(text),
                                                                       reference)))
    name, age, date = copy.reference.ents
    assert age.text == "zweiundfünfzig" and name.text != "Anna Albrecht"
    assert date.text != "12.03.1950"


def test_a_weekday_in_a_date_stays_a_weekday_in_the_copy():
    # the anonymizer hides it (it would give the real date away); a copy is training text
    nlp = blank("en")
    text = "Seen on Tue, 12 March 2024 by Dr Ann Lee."
    reference = annotated(nlp, text, [("Tue, 12 March 2024", "DATE"), ("Ann Lee", "NAME_DOCTOR")])
    reference.user_data["lang"] = "en"
    _, copy = list(augmenter(level=1.0, lower_level=0.0)(nlp, Example(nlp.make_doc(text),
                                                                       reference)))
    date = copy.reference.ents[0]
    assert date.text.startswith("Tue, ") and date.text != "Tue, 12 March 2024"


def test_lower_level_writes_names_in_lower_case():
    nlp = blank("de")
    _, copy = list(augmenter(level=1.0, lower_level=1.0)(nlp, example(nlp)))
    name = copy.reference.ents[0]
    assert name.label_ == "NAME_PATIENT" and name.text == name.text.lower()


def test_level_zero_and_unknown_languages_yield_the_example_alone():
    nlp = blank("de")
    assert len(list(augmenter(level=0.0)(nlp, example(nlp)))) == 1
    assert len(list(augmenter(level=1.0)(nlp, example(nlp, lang="zz")))) == 1


def test_the_same_seed_gives_the_same_copies():
    nlp = blank("de")
    texts = [[eg.reference.text for eg in augmenter(level=1.0, seed=3)(nlp, example(nlp))]
             for _ in range(2)]
    assert texts[0] == texts[1]


def test_a_source_with_copies_gets_that_many_different_copies():
    nlp = blank("de")
    make = augmenter(level=0.0, source_copies={"synthetic": 3})
    examples = list(make(nlp, example(nlp, source="synthetic")))
    assert len(examples) == 4
    assert len({eg.reference.text for eg in examples}) == 4
    assert all([ent.label_ for ent in eg.reference.ents] == [label for _, label in ENTITIES]
               for eg in examples)
    assert len(list(make(nlp, example(nlp, source="letters")))) == 1


@pytest.mark.parametrize("settings", [{"level": -0.1}, {"lower_level": 1.5}])
def test_bad_levels_are_refused(settings):
    with pytest.raises(ValueError, match="must be in"):
        augmenter(**settings)


@pytest.mark.parametrize("copies", [-1, 1.5])
def test_copies_that_are_not_a_whole_number_are_refused(copies):
    with pytest.raises(ValueError, match="whole number"):
        augmenter(source_copies={"synthetic": copies})
