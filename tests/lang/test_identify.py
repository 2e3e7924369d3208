"""`identify_language`: the ten languages told apart by script and function words; short
and ambiguous texts are never a clear mismatch."""

from __future__ import annotations

import pytest

from spacy_deid.lang import LANGUAGES
from spacy_deid.lang.identify import (
    LanguageGuess,
    identify_language,
    is_clear_mismatch,
    text_words,
)

# A few plain sentences of a discharge note per language, written for this test.
SENTENCES = {
    "de": "Die Patientin wurde am Morgen mit starken Bauchschmerzen in unsere Klinik "
          "aufgenommen. Nach der Untersuchung haben wir eine Entzündung festgestellt und sie "
          "mit Antibiotika behandelt. Der Verlauf war ohne Komplikationen, und sie konnte nach "
          "fünf Tagen nach Hause entlassen werden.",
    "en": "The patient was admitted in the morning with severe abdominal pain. After the "
          "examination we found an inflammation and treated her with antibiotics. The course "
          "was without complications, and she was discharged home after five days.",
    "fr": "La patiente a été admise le matin avec de fortes douleurs abdominales. Après "
          "l'examen, nous avons constaté une inflammation et nous l'avons traitée par des "
          "antibiotiques. L'évolution a été sans complications et elle est rentrée à la maison "
          "après cinq jours.",
    "it": "La paziente è stata ricoverata la mattina con forti dolori addominali. Dopo la "
          "visita abbiamo riscontrato un'infiammazione e l'abbiamo trattata con antibiotici. "
          "Il decorso è stato senza complicazioni e la paziente è stata dimessa a casa dopo "
          "cinque giorni.",
    "pl": "Pacjentka została przyjęta rano z silnymi bólami brzucha. Po badaniu "
          "stwierdziliśmy stan zapalny i leczyliśmy ją antybiotykami. Przebieg był bez "
          "powikłań i po pięciu dniach została wypisana do domu.",
    "ru": "Пациентка была госпитализирована утром с сильными болями в животе. После "
          "обследования мы обнаружили воспаление и лечили её антибиотиками. Течение было без "
          "осложнений, и через пять дней она была выписана домой. Контроль у врача через "
          "неделю.",
    "uk": "Пацієнтку було госпіталізовано вранці із сильним болем у животі. Після "
          "обстеження ми виявили запалення і лікували її антибіотиками. Перебіг був без "
          "ускладнень, і через п'ять днів її виписали додому.",
    "tr": "Hasta sabah şiddetli karın ağrısı ile kliniğimize yatırıldı. Muayeneden sonra bir "
          "iltihap saptandı ve antibiyotik ile tedavi edildi. Süreç komplikasyonsuz seyretti "
          "ve hasta beş gün sonra evine taburcu edildi.",
    "ar": "تم إدخال المريضة في الصباح بسبب آلام شديدة في البطن. بعد الفحص وجدنا التهابا "
          "وتمت معالجتها بالمضادات الحيوية. كان سير المرض بدون مضاعفات، وخرجت إلى منزلها "
          "بعد خمسة أيام.",
    "fa": "بیمار صبح با درد شدید شکم در بیمارستان بستری شد. پس از معاینه، التهاب تشخیص "
          "داده شد و با آنتی‌بیوتیک درمان شد. روند بیماری بدون عارضه بود و بیمار پس از پنج "
          "روز به خانه مرخص شد.",
}


def test_every_language_has_sentences():
    assert set(SENTENCES) == set(LANGUAGES)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_each_language_is_identified(lang):
    guess = identify_language(SENTENCES[lang])
    assert guess.lang == lang
    assert guess.confidence > 0.7
    assert not is_clear_mismatch(guess, lang)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_each_language_is_a_clear_mismatch_for_every_other(lang):
    guess = identify_language(SENTENCES[lang])
    assert [other for other in LANGUAGES
            if other != lang and not is_clear_mismatch(guess, other)] == []


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_short_text_is_never_a_clear_mismatch(lang):
    first_sentence = SENTENCES[lang].split(".")[0]
    guess = identify_language(first_sentence)
    assert not any(is_clear_mismatch(guess, other) for other in LANGUAGES)


@pytest.mark.parametrize("text", ["", "   \n", "12.03.2024 08:15 – 120/80 mmHg",
                                  "Hb 9.8 g/dL, CRP 38 mg/l, WBC 13.6 ×10³/µL"])
def test_text_without_words_has_no_language(text):
    guess = identify_language(text)
    assert guess.lang is None or guess.cues < 1
    assert not any(is_clear_mismatch(guess, other) for other in LANGUAGES)


def test_units_codes_and_addresses_are_not_words():
    assert text_words("Hb 9.8 g/dL, mg/l p.o. a@b.de (Anna) l'examen") == [
        "Hb", "Anna", "l'examen"]


def test_a_mixed_text_is_not_a_clear_mismatch():
    # half German, half English: neither language is clearly wrong
    mixed = SENTENCES["de"] + " " + SENTENCES["en"]
    guess = identify_language(mixed)
    assert not is_clear_mismatch(guess, "de")
    assert not is_clear_mismatch(guess, "en")


def test_close_languages_are_told_apart_by_their_letters():
    ru, uk = identify_language(SENTENCES["ru"]), identify_language(SENTENCES["uk"])
    assert ru.share("ru") > 0.8 and uk.share("uk") > 0.8


def test_no_letters_no_guess():
    guess = identify_language("")
    assert isinstance(guess, LanguageGuess)
    assert (guess.lang, guess.confidence, guess.words, guess.script) == (None, 0.0, 0, None)
