"""scripts/corpus/translate.py end to end: the shipped config, spacy-llm, and a scripted
OpenAI-compatible server on 127.0.0.1 (no other network)."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
import spacy
import srsly
import typer
from spacy.tokens import DocBin
from spacy_llm.registry import registry
from typer.testing import CliRunner

from scripts.corpus.translate import build_pipeline, main
from spacy_deid.translate.inline_tags import parse_inline_tags
from tests.cli_output import plain_output
from tests.scripted_llm_server import Stall, scripted_llm_server

REPO = Path(__file__).resolve().parents[3]
CONFIG = REPO / "configs" / "translate.cfg"
REAL_FILE = REPO / "corpus" / "multigrascco_replica" / "en" / "Sudeck.txt"

SOURCES = {
    "Albrecht": "Patient <NAME_PATIENT>Beate Albrecht</NAME_PATIENT>, born <DATE>4/4/1997</DATE>.",
    "Meier": "Seen by <NAME_DOCTOR>Dr. Meier</NAME_DOCTOR> in <LOCATION_CITY>Boston"
             "</LOCATION_CITY> on <DATE>3/19/2029</DATE>.",
    "Kurz": "Call <CONTACT_PHONE>555 0100</CONTACT_PHONE> about <NAME_PATIENT>Kurz"
            "</NAME_PATIENT>.",
    "Stall": "Patient <NAME_PATIENT>Otto Stall</NAME_PATIENT>.",
}
FRENCH = {
    "Albrecht": "Patiente <NAME_PATIENT>Claire Dubois</NAME_PATIENT>, née le <DATE>04/04/1997"
              "</DATE>.",
    "Meier": "Vue par le <NAME_DOCTOR>Dr Martin</NAME_DOCTOR> à <LOCATION_CITY>Lyon"
             "</LOCATION_CITY> le <DATE>19/03/2029</DATE>.",
}


def wrap(tagged: str) -> str:
    return f"<translation>\n{tagged}\n</translation>"


def echo(prompt: str) -> str:
    """A 'translation' that returns the tagged source unchanged (valid by construction)."""
    return wrap(re.search(r"<document>\n(.*)\n</document>", prompt, re.S).group(1))


SCRIPTS = {
    "Albrecht": [wrap(FRENCH["Albrecht"])],
    "Meier": [wrap(FRENCH["Meier"].replace("<DATE>19/03/2029</DATE>", "19/03/2029")),
              wrap(FRENCH["Meier"])],
    "Kurz": ["Voici la traduction : " + wrap("Appelez le 555 0100 pour Kurz.")],
    "Otto Stall": [Stall(1.0)],
    "horse-riding": [echo],  # a phrase of the real corpus file Sudeck.txt
}


@pytest.fixture()
def fast_config(tmp_path: Path) -> Path:
    """The shipped config with a fast retry policy for the local backend."""
    config = spacy.util.load_config(CONFIG)
    config["backends"]["local"].update(timeout=0.3, max_tries=2, backoff=0.01, max_backoff=0.01)
    path = tmp_path / "translate.cfg"
    config.to_disk(path)
    return path


@pytest.fixture()
def source_dir(tmp_path: Path) -> Path:
    folder = tmp_path / "en"
    folder.mkdir()
    for name, tagged in SOURCES.items():
        (folder / f"{name}.txt").write_text(tagged, encoding="utf-8")
    shutil.copy(REAL_FILE, folder / "Sudeck.txt")
    return folder


def run_cli(args: list[str]):
    app = typer.Typer()
    app.command()(main)
    return CliRunner().invoke(app, args)


def cli_args(source: Path, out: Path, config: Path, base_url: str, *extra: str) -> list[str]:
    return [str(source), str(out), "--source-lang", "en", "--target-lang", "fr",
            "--backend", "local", "--config", str(config), "--base-url", base_url,
            "--max-retries", "2", *extra]


def test_translate_a_folder_writes_texts_docbin_and_report_then_reruns_from_cache(
        tmp_path, source_dir, fast_config):
    out = tmp_path / "translated"
    with scripted_llm_server(SCRIPTS) as server:
        result = run_cli(cli_args(source_dir, out, fast_config, server.base_url))
        base_url = server.base_url
    assert result.exit_code == 0, result.output
    report = srsly.read_json(out / "en-fr.report.json")
    assert (report["documents"], report["done"], report["failed"]) == (5, 3, 2)
    assert report["target_country"] == "France"
    assert report["unchanged_entities"] == 5  # the echoed Sudeck.txt: 2 patient, 3 doctor names
    assert report["retries_used"] == 1 + 2  # Meier once, Kurz up to max_retries
    failures = {failure["doc_id"]: failure for failure in report["failures"]}
    assert failures["Kurz"]["attempts"] == 3
    assert all("before <translation>" in error for error in failures["Kurz"]["errors"])
    assert failures["Stall"]["attempts"] == 0
    assert "ModelRequestError" in failures["Stall"]["errors"][0]
    assert "Otto" not in str(failures)  # reasons name positions and labels, never the text

    rates = report["preservation"]["per_label"]
    assert rates["NAME_DOCTOR"] == {"source": 4, "kept": 4, "rate": 1.0}  # 1 + 3 in Sudeck
    assert rates["CONTACT_PHONE"] == {"source": 1, "kept": 0, "rate": 0.0}
    assert rates["NAME_PATIENT"]["source"] == rates["NAME_PATIENT"]["kept"] + 2

    written = sorted(path.name for path in (out / "fr").glob("*.txt"))
    assert written == ["Albrecht.txt", "Meier.txt", "Sudeck.txt"]
    assert (out / "fr" / "Albrecht.txt").read_text(encoding="utf-8") == FRENCH["Albrecht"]
    assert (out / "fr" / "Sudeck.txt").read_text(encoding="utf-8") == \
        REAL_FILE.read_text(encoding="utf-8")
    nlp = spacy.blank("xx")
    docs = {doc.user_data["doc_id"]: doc
            for doc in DocBin().from_disk(out / "fr.spacy").get_docs(nlp.vocab)}
    assert sorted(docs) == ["Albrecht", "Meier", "Sudeck"]
    assert docs["Meier"].user_data["lang"] == "fr"
    assert [(e.text, e.label_) for e in docs["Meier"].ents] == [
        ("Dr Martin", "NAME_DOCTOR"), ("Lyon", "LOCATION_CITY"), ("19/03/2029", "DATE")]
    _, gold = parse_inline_tags(REAL_FILE.read_text(encoding="utf-8"))
    assert len(docs["Sudeck"].ents) == len(gold)

    # The server is gone: accepted and failed-by-validation documents come from the cache;
    # the document whose model call failed was not cached and fails again, without a hang.
    rerun = run_cli(cli_args(source_dir, tmp_path / "again", fast_config, base_url,
                             "--cache-dir", str(out / ".cache" / "en-fr-local")))
    assert rerun.exit_code == 0, rerun.output
    again = srsly.read_json(tmp_path / "again" / "en-fr.report.json")
    assert (again["done"], again["failed"], again["retries_used"]) == (3, 2, 3)
    assert again["preservation"] == report["preservation"]

    # Same text, other annotations: the cache (keyed by tokens) must not hand back the old
    # translation as if it covered the new spans.
    (source_dir / "Albrecht.txt").write_text(SOURCES["Albrecht"].replace("<DATE>", "").replace(
        "</DATE>", ""), encoding="utf-8")
    stale = run_cli(cli_args(source_dir, tmp_path / "stale", fast_config, base_url,
                             "--cache-dir", str(out / ".cache" / "en-fr-local")))
    assert stale.exit_code == 0, stale.output
    failures = srsly.read_json(tmp_path / "stale" / "en-fr.report.json")["failures"]
    assert "other annotations" in {f["doc_id"]: f for f in failures}["Albrecht"]["errors"][0]


def test_a_docbin_input_and_a_limit(tmp_path, source_dir, fast_config):
    nlp = spacy.blank("xx", config={"nlp": {"tokenizer": {
        "@tokenizers": "spacy_deid.Tokenizer.v1", "lang": "en"}}})
    docbin = DocBin(store_user_data=True)
    for name in ("Albrecht", "Meier"):
        text, spans = parse_inline_tags(SOURCES[name])
        doc = nlp.make_doc(text)
        doc.ents = [doc.char_span(s.start, s.end, label=s.label) for s in spans]
        doc.user_data["doc_id"] = name
        docbin.add(doc)
    docbin.to_disk(tmp_path / "test.spacy")
    out = tmp_path / "out"
    with scripted_llm_server(SCRIPTS) as server:
        result = run_cli(cli_args(tmp_path / "test.spacy", out, fast_config, server.base_url,
                                  "--limit", "1", "--report", str(tmp_path / "r.json")))
    assert result.exit_code == 0, result.output
    report = srsly.read_json(tmp_path / "r.json")
    assert (report["documents"], report["done"]) == (1, 1)
    assert report["documents_detail"] == [{"doc_id": "Albrecht", "status": "ok", "attempts": 1,
                                           "retries": 0}]


def test_an_unknown_backend_is_refused_naming_the_choices(tmp_path, source_dir):
    result = run_cli([str(source_dir), str(tmp_path / "o"), "--backend", "gpt5",
                      "--config", str(CONFIG)])
    assert result.exit_code != 0
    assert "anthropic, local, openai" in plain_output(result)


def test_every_backend_block_names_a_registered_model_with_keys_from_the_environment():
    config = spacy.util.load_config(CONFIG)
    for block in config["backends"].values():
        assert registry.llm_models.get(block["@llm_models"])
        assert not any("key" in name and name != "api_key_env" for name in block)
    assert config["backends"]["anthropic"]["api_key_env"] == "ANTHROPIC_API_KEY"


def test_build_pipeline_resolves_the_local_backend_with_task_and_cache(tmp_path):
    nlp = build_pipeline(CONFIG, "de", "uk", "local", tmp_path / "cache",
                         base_url="http://127.0.0.1:9/v1", model_name="qwen")
    llm = nlp.get_pipe("llm")
    assert nlp.pipe_names == ["llm"]
    assert (llm.task.source_lang, llm.task.target_lang) == ("de", "uk")
    assert llm.task.target_country == "Ukraine"
    assert llm.task.max_retries == 10
    assert llm.task.retry_model.url == "http://127.0.0.1:9/v1/chat/completions"
    assert llm.task.retry_model.name == "qwen"
    assert (tmp_path / "cache" / "prompt_template.txt").exists()
