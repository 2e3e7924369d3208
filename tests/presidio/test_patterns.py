"""Tests for the `deid_presidio_patterns` component: locale formats, label mapping,
merge policies, thresholds, context words, config errors, and a real corpus letter."""

from __future__ import annotations

from pathlib import Path

import pytest
import spacy

from spacy_deid.presidio.patterns import PATTERN_LABELS
from spacy_deid.presidio.recognizers import normalize_digits
from spacy_deid.translate.inline_tags import parse_inline_tags

CORPUS = Path(__file__).resolve().parents[2] / "corpus" / "multigrascco_replica"


def blank(lang: str) -> spacy.language.Language:
    return spacy.blank("xx", config={"nlp": {"tokenizer": {
        "@tokenizers": "spacy_deid.Tokenizer.v1", "lang": lang}}})


def pipeline(lang: str, **config) -> spacy.language.Language:
    nlp = blank(lang)
    nlp.add_pipe("deid_presidio_patterns", config={"lang": lang, **config})
    return nlp


def ents(doc) -> list[tuple[str, str]]:
    return [(ent.text, ent.label_) for ent in doc.ents]


@pytest.fixture(scope="module")
def pl_nlp():
    return pipeline("pl")


def test_polish_letter_header(pl_nlp):
    text = ("Szpital Miejski, ul. Długa 5, 76-200 Słupsk, tel.: 52 585 42 23, "
            "faks: 52 585 43 38, e-mail: sekretariat@szpital.pl. Przyjęty 12.03.2024, "
            "wypis 27 marca 2024. PESEL 44051401359.")
    found = ents(pl_nlp(text))
    assert ("76-200", "LOCATION_ZIP") in found
    assert ("52 585 42 23", "CONTACT_PHONE") in found
    assert ("52 585 43 38", "CONTACT_FAX") in found
    assert ("sekretariat@szpital.pl", "CONTACT_EMAIL") in found
    assert ("12.03.2024", "DATE") in found
    assert ("27 marca 2024", "DATE") in found
    assert ("44051401359", "ID") in found


@pytest.mark.parametrize("lang,text,url", [
    ("de", "Befund: www.uniklinik-ulm.de/radiologie, Dr.med. Kunz, geb.am 3.4.",
     "www.uniklinik-ulm.de/radiologie"),
    ("de", "Siehe https://klinik.example.org und Priv.Doz. Lange.", "https://klinik.example.org"),
    ("tr", "Başhekim ve II No.lu Radyasyon Onkolojisi, iletişim: hastane-izmir.com",
     "hastane-izmir.com"),
    ("it", "Gent.mo collega, f.to dott. Rossi", None),
])
def test_urls_need_a_scheme_www_path_or_a_lower_case_host(lang, text, url):
    found = [span for span, label in ents(pipeline(lang)(text)) if label == "CONTACT_URL"]
    assert found == ([url] if url else [])


def test_scores_are_recorded_on_spans(pl_nlp):
    doc = pl_nlp("Kontakt: jan@example.pl")
    (ent,) = doc.ents
    assert ent.label_ == "CONTACT_EMAIL"
    assert ent._.deid_score == pytest.approx(1.0)


@pytest.mark.parametrize("lang,text,expected", [
    ("en", "Seen on March 27, 2025 in Duluth, MN 55812.",
     [("March 27, 2025", "DATE"), ("55812", "LOCATION_ZIP")]),
    ("de", "Aufnahme am 05.07.2024, wohnhaft 50667 Köln.",
     [("05.07.2024", "DATE"), ("50667", "LOCATION_ZIP")]),
    ("ru", "Поступил 13 июля 2025 г., адрес: 426008 г. Ижевск.",
     [("13 июля 2025 г.", "DATE"), ("426008", "LOCATION_ZIP")]),
    ("fa", "تاریخ ۲۰۲۴/۱۱/۰۵ و کد پستی ۴۸۱۵۷۳۳۹۷۱",
     [("۲۰۲۴/۱۱/۰۵", "DATE"), ("۴۸۱۵۷۳۳۹۷۱", "LOCATION_ZIP")]),
    ("ar", "هاتف: 041-2756134، فاكس: 041-2756138",
     [("041-2756134", "CONTACT_PHONE"), ("041-2756138", "CONTACT_FAX")]),
    ("it", "Codice fiscale RSSMRA85T10A562S, nato il 10/12/1985.",
     [("RSSMRA85T10A562S", "ID"), ("10/12/1985", "DATE")]),
    # a Solar Hijri year after a month name
    ("fa", "تاریخ پذیرش: ۱۱ مرداد ۱۴۰۳", [("۱۱ مرداد ۱۴۰۳", "DATE")]),
])
def test_locale_formats(lang, text, expected):
    found = ents(pipeline(lang)(text))
    for item in expected:
        assert item in found, (item, found)


@pytest.mark.parametrize("lang, text, expected", [
    ("tr", "Uzm. Dr. Sevda Kılıçkaya\nSevK. 06.06.2012", [("SevK.", "NAME_USERNAME")]),
    ("ru", "Диктовал: ЛанА. 12.03.2024", [("ЛанА.", "NAME_USERNAME")]),
    ("de", "Befund TypI und MioE ohne Punkt, USA. und McD. auch nicht.", []),
    ("de", "Mit freundlichen Grüßen\nDr. Müller\nCMA/tr\n", [("CMA/tr", "NAME_USERNAME")]),
    ("ru", "Набор: ГОС/рав\nКонец", [("ГОС/рав", "NAME_USERNAME")]),
    ("fr", "Dr Roux\nJC/NB/ls\n", [("JC/NB/ls", "NAME_USERNAME")]),
    ("tr", "Rapor: rad_ayilmazkaya – 13.11.2024", [("rad_ayilmazkaya", "NAME_USERNAME")]),
    ("de", "Unser Zeichen: eb/kn\nDatum: 2. Oktober", [("eb/kn", "NAME_USERNAME")]),
    # field values: dotted initials without case, Latin logins in another script
    ("ar", "كتابة: ر.س.ح/م.ع\nكُتب بواسطة: ع.ف.ش – 27/08/2024",
     [("ر.س.ح/م.ع", "NAME_USERNAME"), ("ع.ف.ش", "NAME_USERNAME")]),
    ("fa", "تایپ: ف.ر     امضای الکترونیک", [("ف.ر", "NAME_USERNAME")]),
    ("ru", "Исп.: hablm\nКонец", [("hablm", "NAME_USERNAME")]),
    ("uk", "Підписано КЕП: vashchenko.lr\n", [("vashchenko.lr", "NAME_USERNAME")]),
    # titles, abbreviations before a number, short or Latin-script values: no sign
    ("ar", "المدير: أ.د. حسين عباس\nاللاذقية، ص.ب 1587\nطبيب – ن.ظ.پ 85214", []),
    ("ru", "Результат: ok\nСайт: www.gkb71.ru", []),
    ("de", "Allergien: keine\nStatus: stabil", []),
    # units after a number, a single capital, lower-case pairs, marks inside a line: no sign
    ("de", "Ferritin 5 IE/ml\nDosis in Mg/kg\nund/oder\nAC/bio im Satz.", []),
    ("en", "See file report_final.pdf attached.", []),
])
def test_dictation_signs(lang, text, expected):
    found = [ent for ent in ents(pipeline(lang)(text)) if ent[1] == "NAME_USERNAME"]
    assert found == expected


def test_digit_normalization_keeps_offsets():
    text = "۲۰۲۴/۱۱/۰۵ ٣٤"
    normalized = normalize_digits(text)
    assert len(normalized) == len(text)
    assert normalized == "2024/11/05 34"


def test_case_number_needs_context_and_context_words_extend_it():
    text = "Vermerk 31857924 abgelegt."
    assert ents(pipeline("de")(text)) == []
    extended = pipeline("de", context_words={"ID": ["vermerk"]})
    assert ents(extended(text)) == [("31857924", "ID")]


@pytest.mark.parametrize(("lang", "text", "expected"), [
    ("en", "Lot KJ-61-40972Q implanted.", [("KJ-61-40972Q", "ID")]),
    ("fr", "Examen XR/2023/55817 validé", [("XR/2023/55817", "ID")]),
    ("ru", "Образец 7Т41096 принят", [("7Т41096", "ID")]),
    # fewer digits, lower-case letters, dots, no letter at all: no code
    ("de", "CYP2D6, COVID-19, HbA1c, S72.01, 120/80mmHg, 2024-09-12, KT0319A", []),
])
def test_codes_of_capitals_and_five_digits_need_no_context(lang, text, expected):
    found = [ent for ent in ents(pipeline(lang)(text)) if ent[1] == "ID"]
    assert found == expected


def test_score_threshold_filters(pl_nlp):
    text = "Numer 52 585 42 23"  # no phone word: Presidio's phone score alone
    assert ents(pl_nlp(text)) == [("52 585 42 23", "CONTACT_PHONE")]
    assert ents(pipeline("pl", score_threshold=0.99)(text)) == []


def test_labels_restrict_output():
    nlp = pipeline("pl", labels=["DATE"])
    found = ents(nlp("tel. 52 585 42 23 dnia 12.03.2024"))
    assert found == [("12.03.2024", "DATE")]


def with_ner(nlp, text: str, entity: str, label: str):
    """Run the component on a Doc that already has one 'NER' entity, the text `entity`."""
    doc = nlp.make_doc(text)
    start = text.index(entity)
    doc.ents = [doc.char_span(start, start + len(entity), label=label, alignment_mode="expand")]
    return nlp.get_pipe("deid_presidio_patterns")(doc)


@pytest.mark.parametrize("policy,expected", [
    ("ner_first", [("12.03", "OTHER")]),
    ("patterns_first", [("12.03.2024", "DATE")]),
    ("longest", [("12.03.2024", "DATE")]),
])
def test_merge_policies(policy, expected):
    nlp = pipeline("pl", merge_policy=policy)
    assert ents(with_ner(nlp, "Kontrola 12.03.2024 rano", "12.03", "OTHER")) == expected


def test_longest_keeps_a_longer_ner_entity():
    nlp = pipeline("pl", merge_policy="longest")
    doc = with_ner(nlp, "Kontrola 12.03.2024 rano", "12.03.2024 rano", "OTHER")
    assert ents(doc) == [("12.03.2024 rano", "OTHER")]


def test_override_score_lets_certain_results_win_under_ner_first():
    text = "Pisać na jan@example.pl dziś"
    nlp = pipeline("pl")  # override_score 1.0: e-mail addresses (1.0) replace NER guesses
    assert ents(with_ner(nlp, text, "jan", "NAME_PATIENT")) == [("jan@example.pl",
                                                                 "CONTACT_EMAIL")]
    strict = pipeline("pl", override_score=1.5)
    assert ents(with_ner(strict, text, "jan", "NAME_PATIENT")) == [("jan@example.pl",
                                                                    "NAME_PATIENT")]


@pytest.mark.parametrize(("url", "label"), [
    ("https://szpital-gorce.pl", "CONTACT_URL"),
    ("www.szpital-gorce.pl", "CONTACT_URL"),
    # a bare host may be an abbreviation: the NER's label stays
    ("szpital-gorce.pl", "NAME_USERNAME"),
])
def test_a_url_with_scheme_or_www_replaces_a_ner_guess(url, label):
    doc = with_ner(pipeline("pl"), f"Strona: {url}\nNowy Targ", url, "NAME_USERNAME")
    assert ents(doc) == [(url, label)]


def test_a_login_replaces_a_ner_guess_and_a_reference_mark_or_field_value_does_not():
    login = with_ner(pipeline("ru"), "Подписан ЭП: golovanov_is\n", "golovanov_is", "LOCATION_ZIP")
    assert ents(login) == [("golovanov_is", "NAME_USERNAME")]
    mark = with_ner(pipeline("fr"), "Dr Roux\nEM/sd\n", "EM", "NAME_USERNAME")
    assert ents(mark) == [("EM", "NAME_USERNAME")]
    # a Latin field value may be a web host: the NER's URL stays
    host = with_ner(pipeline("fa"), "وب‌سایت: mehregan-hospital.ir\n", "mehregan-hospital.ir",
                    "CONTACT_URL")
    assert ents(host) == [("mehregan-hospital.ir", "CONTACT_URL")]


def test_non_overlapping_entities_are_kept(pl_nlp):
    doc = with_ner(pl_nlp, "Jan Kowalski, tel. 52 585 42 23", "Jan Kowalski", "NAME_PATIENT")
    assert ents(doc) == [("Jan Kowalski", "NAME_PATIENT"), ("52 585 42 23", "CONTACT_PHONE")]


@pytest.mark.parametrize("text", ["", "   \n\t", "Brak danych."])
def test_empty_and_entity_free_texts(pl_nlp, text):
    assert ents(pl_nlp(text)) == []


@pytest.mark.parametrize("config,setting", [
    ({"lang": "pl", "merge_policy": "vote"}, "merge_policy"),
    ({"lang": "pl", "score_threshold": 1.5}, "score_threshold"),
    ({"lang": "pl", "labels": ["NAME_PATIENT"]}, "labels"),
    ({"lang": "pl", "labels": ["PHONE"]}, "labels"),
    ({"lang": "pl", "context_words": {"PHONE": ["x"]}}, "context_words"),
    ({"lang": "xx"}, "lang"),
])
def test_bad_config_fails_at_creation_naming_the_setting(config, setting):
    nlp = blank("pl")
    with pytest.raises(ValueError, match=setting):
        nlp.add_pipe("deid_presidio_patterns", config=config)


def test_the_language_comes_from_the_tokenizer_and_a_plain_xx_pipeline_must_set_it():
    assert blank("pl").add_pipe("deid_presidio_patterns").lang == "pl"
    with pytest.raises(ValueError, match="'lang' is required in a 'xx' pipeline"):
        spacy.blank("xx").add_pipe("deid_presidio_patterns")


def test_pipeline_round_trips_through_disk(tmp_path):
    nlp = pipeline("pl", merge_policy="longest")
    nlp.to_disk(tmp_path / "p")
    loaded = spacy.load(tmp_path / "p")
    assert loaded.get_pipe("deid_presidio_patterns").merge_policy == "longest"
    assert ents(loaded("tel. 52 585 42 23")) == [("52 585 42 23", "CONTACT_PHONE")]


@pytest.mark.parametrize("lang", ["pl", "en"])
def test_precision_on_a_real_corpus_letter(lang):
    """On a replica letter, pattern detections of pattern labels are mostly gold spans."""
    path = CORPUS / lang / "Baastrup.txt"
    text, spans = parse_inline_tags(path.read_text(encoding="utf-8"), str(path))
    gold = {(s.start, s.end, s.label) for s in spans if s.label in PATTERN_LABELS}
    doc = pipeline(lang)(text)
    found = {(e.start_char, e.end_char, e.label_) for e in doc.ents}
    assert found, "no detections"
    assert len(found & gold) / len(found) >= 0.8
    assert len(found & gold) / len(gold) >= 0.6
