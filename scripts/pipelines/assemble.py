"""Assemble the shippable pipeline of every language: NER + rules + Presidio + anonymizer.

`training/<lang>/model-best` (tok2vec + ner) becomes `training/<lang>/pipeline` with
`deid_language_check` first (a warning when a text is clearly in another language),
`deid_date_shapes` (long numbers and codes the NERs took for dates become IDs),
`deid_entity_bounds` (entities cut at paragraph breaks), `deid_name_cues` (names next to
cue words), `deid_name_forms` (known first names, names with an initial),
`deid_name_extent` (names found in part completed) and `deid_id_cues` (ward, room, record
and lot codes next to cue words), all four learned from
`SPLITS_DIR/<lang>/train.spacy` and `dev.spacy` (the dev documents only pick the NER's
checkpoint; the rules have none to pick, and learn more from more documents), the ID cues
from every language's (`SPLITS_DIR/xx`),
`deid_mention_propagation` (further mentions of detected names, places and IDs, and
surnames in lower case, with the ordinary words learned from the same documents),
`deid_user_names` (logins made from detected names), `deid_presidio_patterns` (merged
into `doc.ents` under its merge policy) and `deid_anonymizer` added, and the meta name
`deid_<lang>`, so `spacy package` names it `xx_deid_<lang>`.

With `--multilingual-model training/xx/model-best` (as `spacy project run assemble` does),
the NER trained on every language's documents runs after the language's own as
`ner_multilingual` and fills the gaps it left: the recall-first pipelines that ship. Only
its NER and tok2vec are taken; the tokenizer stays the language's own. Without it
(`spacy project run single`, written to `--output-dir`), each language's NER runs alone,
for comparison.

With `--ner-model training_trf/xx/model-best --suffix _trf` (`spacy project run
assemble-trf`), that one trained pipeline (the multilingual transformer and its NER) is the
only NER of every language, with the language's tokenizer and the same rule components,
patterns and anonymizer; the meta name is `deid_<lang>_trf`.
"""

from __future__ import annotations

import hashlib
import multiprocessing
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from functools import partial
from pathlib import Path

import srsly
import typer
from spacy import util
from spacy.language import Language
from thinc.api import Config

import spacy_deid
from spacy_deid.lang import parse_language_codes
from spacy_deid.lang.tokenizer import MULTILINGUAL


def rule_learning_paths(splits_dir: Path, lang: str) -> list[Path]:
    """The splits the rule components learn from: train, and dev where there is one."""
    dev = splits_dir / lang / "dev.spacy"
    return [splits_dir / lang / "train.spacy", *([dev] if dev.exists() else [])]


def id_cue_learning_paths(splits_dir: Path, lang: str) -> list[Path]:
    """The splits `deid_id_cues` learns from: every language's (`<splits>/xx`), as the words
    before a code are shared across languages, where they exist; else the language's own."""
    every_language = rule_learning_paths(splits_dir, MULTILINGUAL)
    return every_language if every_language[0].exists() else rule_learning_paths(splits_dir, lang)


def fingerprint(directory: Path, suffixes: tuple[str, ...] | None = None) -> str:
    """SHA-256 over every file of `directory` (paths and bytes; only those ending in one of
    `suffixes` when given), so that steps which depend on `assembled.json` rerun whenever
    an assembled pipeline or the runtime code changes."""
    digest = hashlib.sha256()
    for path in sorted(p for p in directory.rglob("*") if p.is_file()):
        if suffixes is not None and not path.name.endswith(suffixes):
            continue
        digest.update(path.relative_to(directory).as_posix().encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


def runtime_fingerprint() -> str:
    """The fingerprint of the installed `spacy_deid` sources and resources: the code that
    runs inside every assembled pipeline."""
    return fingerprint(Path(spacy_deid.__file__).parent, (".py", ".json", ".yaml"))


PIPELINE_CONFIG = Path(__file__).resolve().parents[2] / "configs" / "pipeline.cfg"
# Components whose output a trained NER may listen to (CPU and transformer configs).
EMBEDDERS: tuple[str, ...] = ("tok2vec", "transformer")


def trained_components(model_dir: Path) -> list[str]:
    """The components of a trained pipeline, from its config (without loading it)."""
    return list(util.load_config(model_dir / "config.cfg", interpolate=False)["nlp"]["pipeline"])


def pipeline_config(model_dir: Path, lang: str, gold_paths: Sequence[Path],
                    multilingual_model: Path | None = None,
                    config_path: Path = PIPELINE_CONFIG,
                    id_gold_paths: Sequence[Path] = ()) -> Config:
    """`configs/pipeline.cfg` for one language: the trained pipeline's own components
    (tok2vec and ner, or transformer and ner) sourced in place of the config's, the
    multilingual NER with its own copy of its encoder, or none, the tokenizer of `lang`,
    and the gold documents the rule components learn from (`id_gold_paths` those of
    `deid_id_cues`, where other than `gold_paths`)."""
    config = util.load_config(config_path, interpolate=False)
    config["nlp"]["tokenizer"]["lang"] = lang
    config["paths"]["ner"] = str(model_dir)
    config["paths"]["ner_multilingual"] = str(multilingual_model) if multilingual_model else None
    config["paths"]["train"] = str(gold_paths[0])
    config["paths"]["dev"] = str(gold_paths[1]) if len(gold_paths) > 1 else None
    id_gold_paths = id_gold_paths or gold_paths
    config["paths"]["id_cues_train"] = str(id_gold_paths[0])
    config["paths"]["id_cues_dev"] = str(id_gold_paths[1]) if len(id_gold_paths) > 1 else None
    deid = [name for name in config["nlp"]["pipeline"] if name.startswith("deid_")]
    for name in config["nlp"]["pipeline"]:
        if name not in deid:
            del config["components"][name]
    sourced = trained_components(model_dir)
    for name in sourced:
        config["components"][name] = {"source": "${paths.ner}"}
    if multilingual_model is not None:
        second = {"source": "${paths.ner_multilingual}", "component": "ner"}
        if set(EMBEDDERS) & set(trained_components(multilingual_model)):
            second["replace_listeners"] = ["model.tok2vec"]
        config["components"]["ner_multilingual"] = second
        sourced.insert(sourced.index("ner") + 1, "ner_multilingual")
    # deid components listed before the NER in the config (the language check) stay first
    leading = deid[:next((i for i, name in enumerate(config["nlp"]["pipeline"])
                          if name not in deid), len(deid))]
    config["nlp"]["pipeline"] = [*leading, *sourced, *[n for n in deid if n not in leading]]
    return config


def assemble_pipeline(model_dir: Path, lang: str, gold_paths: Sequence[Path],
                      multilingual_model: Path | None = None, suffix: str = "",
                      id_gold_paths: Sequence[Path] = ()) -> Language:
    """The pipeline of `pipeline_config`, built as `spacy assemble` builds it: the sourced
    components as trained, the rule components initialized from the gold documents; meta
    name `deid_<lang><suffix>`."""
    config = pipeline_config(model_dir, lang, gold_paths, multilingual_model,
                             id_gold_paths=id_gold_paths)
    nlp = util.load_model_from_config(config, auto_fill=True)
    sourced = util.get_sourced_components(config.interpolate())
    with nlp.select_pipes(disable=[*sourced]):
        nlp.initialize()
    nlp.meta["name"] = f"deid_{lang}{suffix}"
    return nlp


def ner_model_dir(training_dir: Path, lang: str, ner_model: Path | None) -> Path:
    """The trained pipeline whose NER `lang` gets: `ner_model` where given (one for every
    language), else the language's own `TRAINING_DIR/<lang>/model-best`."""
    return ner_model or training_dir / lang / "model-best"


def assemble_language(lang: str, training_dir: Path, splits_dir: Path, output_dir: Path,
                      multilingual_model: Path | None, ner_model: Path | None,
                      suffix: str) -> dict:
    """Assemble and save one language's pipeline; return its entry of `assembled.json`."""
    model_dir = ner_model_dir(training_dir, lang, ner_model)
    nlp = assemble_pipeline(model_dir, lang, rule_learning_paths(splits_dir, lang),
                            multilingual_model, suffix, id_cue_learning_paths(splits_dir, lang))
    (output_dir / lang).mkdir(parents=True, exist_ok=True)
    nlp.to_disk(output_dir / lang / "pipeline")
    return {"pipeline": str(output_dir / lang / "pipeline"), "ner": str(model_dir),
            "components": list(nlp.pipe_names),
            "sha256": fingerprint(output_dir / lang / "pipeline")}


def main(
    training_dir: Path = typer.Argument(..., help="Folder with <lang>/model-best"),
    splits_dir: Path = typer.Argument(..., help="Folder with <lang>/train.spacy"),
    langs: str = typer.Option(..., help="Space- or comma-separated language codes"),
    multilingual_model: Path | None = typer.Option(
        None, help="The multilingual NER pipeline (e.g. training/xx/model-best), run second"),
    output_dir: Path | None = typer.Option(None, help="Where <lang>/pipeline goes "
                                                      "(default: TRAINING_DIR)"),
    ner_model: Path | None = typer.Option(
        None, help="One trained pipeline used as the only NER of every language (e.g. "
                   "training_trf/xx/model-best) instead of TRAINING_DIR/<lang>/model-best"),
    suffix: str = typer.Option("", help="Appended to the meta name deid_<lang>, e.g. _trf"),
    jobs: int = typer.Option(1, help="Languages assembled side by side (separate processes), "
                                     "into the same pipelines, byte for byte, as one at a time"),
) -> None:
    """Write `<lang>/pipeline` for every language and a summary `assembled.json`."""
    output_dir = output_dir or training_dir
    if multilingual_model is not None and not multilingual_model.exists():
        raise typer.BadParameter(f"no multilingual pipeline at {multilingual_model}; run the "
                                 f"train step with the xx model")
    if ner_model is not None and not ner_model.exists():
        raise typer.BadParameter(f"no trained pipeline at {ner_model}; run the train step")
    codes = parse_language_codes(langs)
    for lang in codes:
        model_dir = ner_model_dir(training_dir, lang, ner_model)
        if not model_dir.exists():
            raise typer.BadParameter(f"no trained pipeline at {model_dir}; run the train step")
        train_split = rule_learning_paths(splits_dir, lang)[0]
        if not train_split.exists():
            raise typer.BadParameter(f"no training split at {train_split}; run the split step")
    assemble_one = partial(assemble_language, training_dir=training_dir, splits_dir=splits_dir,
                           output_dir=output_dir, multilingual_model=multilingual_model,
                           ner_model=ner_model, suffix=suffix)
    if jobs > 1:
        with ProcessPoolExecutor(max_workers=jobs,
                                 mp_context=multiprocessing.get_context("spawn")) as pool:
            entries = list(pool.map(assemble_one, codes))
    else:
        entries = [assemble_one(lang) for lang in codes]
    summary = dict(zip(codes, entries, strict=True))
    for lang, entry in summary.items():
        typer.echo(f"{lang}: {' -> '.join(entry['components'])}")
    output_dir.mkdir(parents=True, exist_ok=True)
    srsly.write_json(output_dir / "assembled.json",
                     {"runtime_sha256": runtime_fingerprint(), "pipelines": summary})


if __name__ == "__main__":
    typer.run(main)
