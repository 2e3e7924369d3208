"""The annotated-translation spacy-llm task: unit checks and end-to-end runs through spacy-llm
against a scripted OpenAI-compatible server on 127.0.0.1."""

from __future__ import annotations

import json
from collections import Counter
from importlib.metadata import entry_points

import pytest
import spacy
from spacy.tokens import Doc, DocBin
from spacy_llm.registry import registry

from spacy_deid.translate.alignment import make_doc
from spacy_deid.translate.inline_tags import parse_inline_tags
from spacy_deid.translate.openai_compatible import ModelRequestError, make_openai_compatible
from spacy_deid.translate.task import (
    EXTENSION,
    AnnotatedTranslationTask,
    TranslationAnswerError,
    blank_for_language,
    check_answer,
    extract_translation,
    make_annotated_translation_task,
    target_doc,
)
from tests.scripted_llm_server import Stall, scripted_llm_server

SOURCE = ("Patientin <NAME_PATIENT>Beate {name}</NAME_PATIENT>, geb. <DATE>4.4.1997</DATE>, "
          "wohnhaft in <LOCATION_CITY>Leipzig</LOCATION_CITY>, Aufnahme am "
          "<DATE>19.3.2029</DATE>.\nDiagnose: Verbrennung.")
ENGLISH = ("Patient <NAME_PATIENT>Ashley Crawford</NAME_PATIENT>, born <DATE>4/4/1997</DATE>, "
           "living in <LOCATION_CITY>Denver</LOCATION_CITY>, admitted on "
           "<DATE>3/19/2029</DATE>.\nDiagnosis: burn.")


def wrap(tagged: str) -> str:
    """A well-behaved answer: the translation in its <translation> element."""
    return f"<translation>\n{tagged}\n</translation>"


def model_block(base_url: str) -> dict:
    return {"@llm_models": "spacy_deid.OpenAICompatible.v1", "base_url": base_url,
            "name": "scripted", "timeout": 0.3, "max_tries": 2, "backoff": 0.01,
            "max_backoff": 0.01}


def make_nlp(base_url: str, cache_dir=None, max_retries: int = 3, target_lang: str = "en"):
    """A German-tokenized pipeline with the `llm` component running our task and model."""
    nlp = spacy.blank("xx", config={"nlp": {"tokenizer": {
        "@tokenizers": "spacy_deid.Tokenizer.v1", "lang": "de"}}})
    nlp.add_pipe("llm", config={
        "task": {"@llm_tasks": "spacy_deid.AnnotatedTranslation.v1", "source_lang": "de",
                 "target_lang": target_lang, "max_retries": max_retries,
                 "retry_model": model_block(base_url)},
        "model": model_block(base_url),
        "cache": {"@llm_misc": "spacy.BatchCache.v1", "path": str(cache_dir) if cache_dir else None,
                  "batch_size": 1, "max_batches_in_mem": 4},
    })
    return nlp


def source_doc(nlp, name: str = "Albrecht") -> Doc:
    text, spans = parse_inline_tags(SOURCE.format(name=name))
    doc, report = make_doc(nlp.tokenizer, text, spans)
    assert report.lost == 0
    doc.user_data["doc_id"] = name
    return doc


def as_json(record: dict) -> dict:
    """The record as JSON would give it back (msgpack in DocBins turns lists into tuples)."""
    return json.loads(json.dumps(record))


def task_of(nlp) -> AnnotatedTranslationTask:
    return nlp.get_pipe("llm").task


# --- answer checks, no model -------------------------------------------------------------

COUNTS = Counter({"NAME_PATIENT": 1, "DATE": 2, "LOCATION_CITY": 1})


def test_check_answer_returns_plain_text_and_spans_at_new_offsets():
    text, spans = check_answer(wrap(ENGLISH), COUNTS, ["NAME_PATIENT", "DATE", "LOCATION_CITY"])
    assert text.startswith("Patient Ashley Crawford, born 4/4/1997")
    assert [text[s.start:s.end] for s in spans] == ["Ashley Crawford", "4/4/1997", "Denver",
                                                      "3/19/2029"]


@pytest.mark.parametrize(("answer", "reason"), [
    (ENGLISH, "not enclosed in <translation>"),
    ("Here is the translation:\n" + wrap(ENGLISH), "characters of text before <translation>"),
    (wrap(ENGLISH) + "\nI hope this helps!", "characters of text after </translation>"),
    (wrap(ENGLISH) + wrap(ENGLISH), "more than one <translation>"),
    (wrap(ENGLISH.replace("<DATE>4/4/1997</DATE>", "4/4/1997")),
     "<DATE> occurs 2 times in the source but 1 times"),
    (wrap(ENGLISH.replace("<LOCATION_CITY>Denver</LOCATION_CITY>",
                          "<LOCATION_CITY>Denver <DATE>now</DATE></LOCATION_CITY>")), "nested"),
    (wrap(ENGLISH.replace("LOCATION_CITY", "CITY")), "unknown label <CITY>"),
    (wrap(ENGLISH.replace("<NAME_PATIENT>", "")), "without an opening tag"),
])
def test_bad_answers_are_rejected_with_a_reason(answer, reason):
    with pytest.raises(TranslationAnswerError, match=reason):
        check_answer(answer, COUNTS, ["NAME_PATIENT", "DATE", "LOCATION_CITY"], source="Albrecht")


def test_people_and_places_left_in_their_source_form_are_counted():
    task = make_annotated_translation_task(max_retries=0)
    doc = source_doc(blank_for_language("de"))
    kept_city = ENGLISH.replace("Denver", "Leipzig").replace("4/4/1997", "4.4.1997")
    outcome = task.translate(doc, wrap(kept_city))
    assert outcome.status == "ok"
    assert outcome.unchanged_entities == 1  # the city; an unchanged date is not counted


def test_extract_translation_keeps_inner_layout():
    assert extract_translation("  <translation>\n\nA\n  B\n\n</translation>\n") == "\nA\n  B\n"


def test_prompt_carries_the_rules_the_languages_the_country_and_the_tagged_source():
    nlp = make_nlp("http://127.0.0.1:9/v1", target_lang="fr")
    prompt = task_of(nlp).build_prompt(source_doc(nlp), feedback="<DATE> occurs 2 times")
    assert "from German into French" in prompt
    assert "France" in prompt
    assert "<NAME_PATIENT>Beate Albrecht</NAME_PATIENT>" in prompt
    for rule in ("Keep every tag", "Translate everything", "postal codes",
                 "medical terminology", "<translation>", "Write nothing before or after"):
        assert rule in prompt
    assert "rejected: <DATE> occurs 2 times" in prompt


# --- configuration ------------------------------------------------------------------------

def test_country_defaults_per_target_language():
    for lang, country in (("en", "USA"), ("tr", "Türkiye"), ("ar", "Syria"), ("fa", "Iran")):
        task = make_annotated_translation_task(source_lang="de", target_lang=lang,
                                               max_retries=0)
        assert task.target_country == country
        assert country in task.prompt_template


def test_a_language_outside_the_ten_needs_a_country_and_uses_spacys_tokenizer():
    with pytest.raises(ValueError, match="target_country"):
        make_annotated_translation_task(target_lang="es", max_retries=0)
    task = make_annotated_translation_task(target_lang="es", target_country="Spain",
                                           max_retries=0)
    assert "into Spanish" in task.instructions
    assert [t.text for t in task.target_tokenizer("Hola, Juan.")] == ["Hola", ",", "Juan", "."]


@pytest.mark.parametrize(("settings", "named"), [
    ({"max_retries": 2}, "retry_model"),
    ({"max_retries": -1}, "max_retries"),
    ({"target_lang": "de", "max_retries": 0}, "source_lang"),
    ({"target_lang": "EN", "max_retries": 0}, "target_lang"),
    ({"labels": ["NAME_PATIENT", "PERSON"], "max_retries": 0}, "labels"),
])
def test_bad_settings_fail_at_creation_naming_the_setting(settings, named):
    with pytest.raises(ValueError, match=f"`{named}`"):
        make_annotated_translation_task(**settings)


def test_registered_for_spacy_llm_configs():
    config = {"task": {"@llm_tasks": "spacy_deid.AnnotatedTranslation.v1", "source_lang": "de",
                       "target_lang": "uk", "max_retries": 0}}
    task = registry.resolve(config)["task"]
    assert isinstance(task, AnnotatedTranslationTask)
    assert task.target_country == "Ukraine"


@pytest.mark.parametrize(("group", "name", "function"), [
    ("thinc_llm_tasks", "spacy_deid.AnnotatedTranslation.v1", make_annotated_translation_task),
    ("thinc_llm_models", "spacy_deid.OpenAICompatible.v1", make_openai_compatible),
])
def test_installed_entry_points_let_configs_resolve_without_an_import(group, name, function):
    """spacy-llm's registries are catalogue registries named thinc/llm_*: after `pip install`,
    catalogue finds our names in these entry-point groups."""
    points = {point.name: point for point in entry_points(group=group)}
    assert points[name].load() is function
    assert getattr(registry, group.removeprefix("thinc_")).get_entry_point(name) is function


def test_source_entity_with_a_label_outside_labels_is_refused():
    task = make_annotated_translation_task(max_retries=0, labels=["DATE"])
    nlp = blank_for_language("de")
    with pytest.raises(ValueError, match="not in the task's `labels`"):
        list(task.generate_prompts([source_doc(nlp)]))


# --- end to end through spacy-llm and HTTP --------------------------------------------------

def test_correct_translation_gives_a_target_doc_with_spans_at_new_offsets():
    with scripted_llm_server({"Albrecht": [wrap(ENGLISH)]}) as server:
        nlp = make_nlp(server.base_url)
        doc = nlp(source_doc(nlp))
    record = doc._.get(EXTENSION)
    assert record["status"] == "ok"
    assert (record["attempts"], record["retries"], record["errors"]) == (1, 0, [])
    assert record["alignment"] == {"kept": 4, "adjusted": 0, "lost": 0}
    assert record["unchanged_entities"] == 0
    assert [(e.text, e.label_) for e in doc.ents][0] == ("Beate Albrecht", "NAME_PATIENT")
    target = task_of(nlp).target_doc(doc)
    assert [(e.text, e.label_) for e in target.ents] == [
        ("Ashley Crawford", "NAME_PATIENT"), ("4/4/1997", "DATE"), ("Denver", "LOCATION_CITY"),
        ("3/19/2029", "DATE")]
    assert target.user_data == {"lang": "en", "doc_id": "Albrecht"}
    assert len(server.requests) == 1


def test_a_dropped_tag_is_asked_again_with_the_reason_and_then_accepted():
    dropped = wrap(ENGLISH.replace("<DATE>3/19/2029</DATE>", "3/19/2029"))
    with scripted_llm_server({"Albrecht": [dropped, wrap(ENGLISH)]}) as server:
        nlp = make_nlp(server.base_url)
        doc = nlp(source_doc(nlp))
    record = doc._.get(EXTENSION)
    assert (record["status"], record["attempts"], record["retries"]) == ("ok", 2, 1)
    assert record["errors"] == ["<DATE> occurs 2 times in the source but 1 times in the "
                                "translation"]
    prompts = server.prompts_for("Albrecht")
    assert len(prompts) == 2
    assert "rejected" not in prompts[0]
    assert "rejected: <DATE> occurs 2 times" in prompts[1]
    assert len(task_of(nlp).target_doc(doc).ents) == 4


def test_an_answer_that_never_validates_is_reported_failed_after_max_retries():
    nested = wrap(ENGLISH.replace("<LOCATION_CITY>Denver</LOCATION_CITY>",
                                  "<LOCATION_CITY>Denver <DATE>x</DATE></LOCATION_CITY>"))
    with scripted_llm_server({"Albrecht": [nested]}) as server:
        nlp = make_nlp(server.base_url, max_retries=3)
        doc = nlp(source_doc(nlp))
    record = doc._.get(EXTENSION)
    assert (record["status"], record["attempts"], record["retries"]) == ("failed", 4, 3)
    assert len(record["errors"]) == 4 and all("nested" in e for e in record["errors"])
    assert record["text"] is None and record["spans"] == []
    assert record["source_counts"] == {"NAME_PATIENT": 1, "DATE": 2, "LOCATION_CITY": 1}
    assert len(server.requests) == 4
    with pytest.raises(ValueError, match="no accepted translation"):
        task_of(nlp).target_doc(doc)


def test_chatter_around_the_translation_is_rejected_then_the_clean_answer_accepted():
    chatty = "Sure! Here is the translation:\n" + wrap(ENGLISH) + "\nLet me know."
    with scripted_llm_server({"Albrecht": [chatty, wrap(ENGLISH)]}) as server:
        nlp = make_nlp(server.base_url)
        doc = nlp(source_doc(nlp))
    record = doc._.get(EXTENSION)
    assert (record["status"], record["attempts"]) == ("ok", 2)
    assert "before <translation>" in record["errors"][0]
    assert task_of(nlp).target_doc(doc).text.startswith("Patient Ashley Crawford")


def test_a_timeout_is_retried_by_the_model_and_the_document_still_translated():
    with scripted_llm_server({"Albrecht": [Stall(1.0), wrap(ENGLISH)]}) as server:
        nlp = make_nlp(server.base_url)
        doc = nlp(source_doc(nlp))
    assert doc._.get(EXTENSION)["status"] == "ok"
    assert doc._.get(EXTENSION)["attempts"] == 1
    assert len(server.requests) == 2


def test_a_persistent_timeout_raises_and_nothing_is_cached(tmp_path):
    with scripted_llm_server({"Albrecht": [Stall(1.0)]}) as server:
        nlp = make_nlp(server.base_url, cache_dir=tmp_path)
        doc = source_doc(nlp)
        with pytest.raises(ModelRequestError, match="no answer after 2 tries"):
            nlp(doc)
    assert doc._.get(EXTENSION) is None
    assert not list(tmp_path.glob("*.spacy"))


def test_a_rerun_is_served_from_spacy_llms_disk_cache_without_the_server(tmp_path):
    scripts = {"Albrecht": [wrap(ENGLISH)], "Meier": [wrap(ENGLISH.replace("Crawford", "Smith"))]}
    with scripted_llm_server(scripts) as server:
        nlp = make_nlp(server.base_url, cache_dir=tmp_path)
        first = list(nlp.pipe([source_doc(nlp, "Albrecht"), source_doc(nlp, "Meier")]))
        base_url = server.base_url
    assert [d._.get(EXTENSION)["status"] for d in first] == ["ok", "ok"]
    offline = make_nlp(base_url, cache_dir=tmp_path)  # the server is gone now
    again = list(offline.pipe([source_doc(offline, "Albrecht"), source_doc(offline, "Meier")]))
    assert [as_json(d._.get(EXTENSION)) for d in again] == [d._.get(EXTENSION) for d in first]
    assert "Ashley Smith" in task_of(offline).target_doc(again[1]).text


def test_the_record_survives_a_docbin_round_trip():
    with scripted_llm_server({"Albrecht": [wrap(ENGLISH)]}) as server:
        nlp = make_nlp(server.base_url)
        doc = nlp(source_doc(nlp))
    restored = next(DocBin(docs=[doc], store_user_data=True).get_docs(nlp.vocab))
    assert as_json(restored._.get(EXTENSION)) == doc._.get(EXTENSION)


# --- token alignment of the new spans in three scripts ---------------------------------------

@pytest.mark.parametrize(("lang", "tagged", "expected"), [
    ("fr", "Patiente <NAME_PATIENT>Claire Dubois</NAME_PATIENT>, née le <DATE>04/04/1997"
           "</DATE> à <LOCATION_CITY>Lyon</LOCATION_CITY>, l'hôpital <LOCATION_HOSPITAL>"
           "Saint-Joseph</LOCATION_HOSPITAL>.",
     [("Claire Dubois", "NAME_PATIENT"), ("04/04/1997", "DATE"), ("Lyon", "LOCATION_CITY"),
      ("Saint-Joseph", "LOCATION_HOSPITAL")]),
    ("ru", "Пациентка <NAME_PATIENT>Анна Смирнова</NAME_PATIENT>, дата рождения "
           "<DATE>04.04.1997</DATE>г., проживает в <LOCATION_CITY>Казани</LOCATION_CITY>, "
           "ул. <LOCATION_STREET>Баумана</LOCATION_STREET>, д. 5.",
     [("Анна Смирнова", "NAME_PATIENT"), ("04.04.1997", "DATE"), ("Казани", "LOCATION_CITY"),
      ("Баумана", "LOCATION_STREET")]),
    ("uk", "Пацієнтка <NAME_PATIENT>Олена Коваленко</NAME_PATIENT> з <LOCATION_CITY>Львова"
           "</LOCATION_CITY>, тел. <CONTACT_PHONE>+380 32 123 4567</CONTACT_PHONE>.",
     [("Олена Коваленко", "NAME_PATIENT"), ("Львова", "LOCATION_CITY"),
      ("+380 32 123 4567", "CONTACT_PHONE")]),
    ("ar", "المريضة <NAME_PATIENT>ليلى الحسن</NAME_PATIENT> من <LOCATION_CITY>حلب</LOCATION_CITY>"
           "، دخلت المستشفى بتاريخ <DATE>19/03/2029</DATE> و<DATE>2020</DATE>.",
     [("ليلى الحسن", "NAME_PATIENT"), ("حلب", "LOCATION_CITY"), ("19/03/2029", "DATE"),
      ("2020", "DATE")]),
    ("fa", "بیمار <NAME_PATIENT>مریم احمدی</NAME_PATIENT> اهل <LOCATION_CITY>تهران</LOCATION_CITY>"
           " در تاریخ <DATE>۱۴۰۲/۰۱/۱۵</DATE> پذیرش شد.",
     [("مریم احمدی", "NAME_PATIENT"), ("تهران", "LOCATION_CITY"), ("۱۴۰۲/۰۱/۱۵", "DATE")]),
])
def test_translated_spans_align_to_target_tokens(lang, tagged, expected):
    task = make_annotated_translation_task(source_lang="de", target_lang=lang, max_retries=0)
    counts = Counter(label for _, label in expected)
    doc = Doc(blank_for_language("de").vocab, words=["x"])
    doc.ents = []
    outcome = task.translate(_doc_with_counts(counts), wrap(tagged))
    assert outcome.status == "ok", outcome.errors
    assert outcome.alignment["lost"] == 0
    target = target_doc(outcome.to_dict(), task.target_tokenizer, name="t")
    assert [(e.text, e.label_) for e in target.ents] == expected
    for ent in target.ents:  # every entity edge is a token edge of the target tokenizer
        assert ent.start_char == ent[0].idx and ent.end_char == ent[-1].idx + len(ent[-1])


def _doc_with_counts(counts: Counter) -> Doc:
    """A German source Doc with the given number of entities per label."""
    nlp = blank_for_language("de")
    words, ents = [], []
    for label, n in counts.items():
        for _ in range(n):
            words += ["Wort", "X"]
            ents.append((label, len(words) - 1))
    doc = Doc(nlp.vocab, words=words)
    doc.ents = [doc.char_span(doc[i].idx, doc[i].idx + 1, label=label) for label, i in ents]
    return doc
