"""Assemble the shippable pipeline of every language: NER + rules + Presidio + anonymizer.

`training/<lang>/model-best` (tok2vec + ner) becomes `training/<lang>/pipeline` with
`deid_entity_bounds` (entities cut at paragraph breaks), `deid_name_cues` (names next to
cue words), `deid_name_forms` (known first names, names with an initial) and
`deid_id_cues` (ward, room and clinic codes next to cue words), all three learned from
`SPLITS_DIR/<lang>/train.spacy` and `dev.spacy` (the dev letters only pick the NER's
checkpoint; the rules have none to pick, and learn more from more letters),
`deid_mention_propagation` (further mentions of detected names, places and IDs),
`deid_presidio_patterns` (merged into `doc.ents` under its merge policy) and
`deid_anonymizer` added, and the meta name `deid_<lang>`, so `spacy package` names it
`xx_deid_<lang>`.

With `--multilingual-model training/xx/model-best` (as `spacy project run assemble` does),
the NER trained on every language's documents runs after the language's own as
`ner_multilingual` and fills the gaps it left: the recall-first pipelines that ship. Only
its NER and tok2vec are taken; the tokenizer stays the language's own. Without it
(`spacy project run single`, written to `--output-dir`), each language's NER runs alone,
for comparison.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from pathlib import Path

import spacy
import spacy_deid
import srsly
import typer
from spacy.language import Language
from spacy.tokens import DocBin
from spacy.training import Example
from spacy_deid.labels import parse_language_codes


def training_examples(nlp: Language, gold_paths: Sequence[Path]) -> list[Example]:
    """The gold documents of every DocBin in `gold_paths` as examples for a component's
    `initialize`."""
    gold = [doc for path in gold_paths for doc in DocBin().from_disk(path).get_docs(nlp.vocab)]
    return [Example(nlp.make_doc(doc.text), doc) for doc in gold]


def rule_learning_paths(splits_dir: Path, lang: str) -> list[Path]:
    """The splits the rule components learn from: train, and dev where there is one."""
    dev = splits_dir / lang / "dev.spacy"
    return [splits_dir / lang / "train.spacy", *([dev] if dev.exists() else [])]


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
    return fingerprint(Path(spacy_deid.__file__).parent, (".py", ".json"))


# Components whose output a trained NER may listen to (CPU and transformer configs).
EMBEDDERS: tuple[str, ...] = ("tok2vec", "transformer")


def add_second_ner(nlp: Language, model_dir: Path, name: str) -> None:
    """Add the NER of another trained pipeline after `ner`, with its own copy of the
    tok2vec or transformer it listens to (never the first pipeline's encoder, which has
    the same name).

    spaCy's NER keeps the entities already set, so the second model only fills gaps."""
    source = spacy.load(model_dir)
    for embedder in EMBEDDERS:
        if embedder in source.pipe_names:
            source.replace_listeners(embedder, "ner", ["model.tok2vec"])
    nlp.add_pipe("ner", name=name, source=source, after="ner")


def assemble_pipeline(model_dir: Path, lang: str, gold_paths: Sequence[Path],
                      multilingual_model: Path | None = None) -> Language:
    """Load a trained NER pipeline and add the rule-based detectors and the anonymizer;
    `deid_name_cues`, `deid_name_forms` and `deid_id_cues` learn from the gold documents
    in `gold_paths`.
    With `multilingual_model`, its NER runs second (`ner_multilingual`)."""
    nlp = spacy.load(model_dir)
    if multilingual_model is not None:
        add_second_ner(nlp, multilingual_model, "ner_multilingual")
    nlp.add_pipe("deid_entity_bounds")
    cues = nlp.add_pipe("deid_name_cues", config={"lang": lang})
    examples = training_examples(nlp, gold_paths)
    cues.initialize(lambda: examples, nlp=nlp)
    forms = nlp.add_pipe("deid_name_forms", config={"lang": lang})
    forms.initialize(lambda: examples, nlp=nlp)
    codes = nlp.add_pipe("deid_id_cues", config={"lang": lang})
    codes.initialize(lambda: examples, nlp=nlp)
    nlp.add_pipe("deid_mention_propagation", config={"lang": lang})
    nlp.add_pipe("deid_presidio_patterns", config={"lang": lang})
    nlp.add_pipe("deid_anonymizer", config={"lang": lang})
    nlp.meta["name"] = f"deid_{lang}"
    return nlp


def main(
    training_dir: Path = typer.Argument(..., help="Folder with <lang>/model-best"),
    splits_dir: Path = typer.Argument(..., help="Folder with <lang>/train.spacy"),
    langs: str = typer.Option(..., help="Space- or comma-separated language codes"),
    multilingual_model: Path | None = typer.Option(
        None, help="The multilingual NER pipeline (e.g. training/xx/model-best), run second"),
    output_dir: Path | None = typer.Option(None, help="Where <lang>/pipeline goes "
                                                      "(default: TRAINING_DIR)"),
) -> None:
    """Write `<lang>/pipeline` for every language and a summary `assembled.json`."""
    output_dir = output_dir or training_dir
    if multilingual_model is not None and not multilingual_model.exists():
        raise typer.BadParameter(f"no multilingual pipeline at {multilingual_model}; run the "
                                 f"train step with the xx model")
    summary = {}
    for lang in parse_language_codes(langs):
        model_dir = training_dir / lang / "model-best"
        if not model_dir.exists():
            raise typer.BadParameter(f"no trained pipeline at {model_dir}; run the train step")
        gold_paths = rule_learning_paths(splits_dir, lang)
        if not gold_paths[0].exists():
            raise typer.BadParameter(f"no training split at {gold_paths[0]}; run the split step")
        nlp = assemble_pipeline(model_dir, lang, gold_paths, multilingual_model)
        (output_dir / lang).mkdir(parents=True, exist_ok=True)
        nlp.to_disk(output_dir / lang / "pipeline")
        summary[lang] = {"pipeline": str(output_dir / lang / "pipeline"),
                         "components": nlp.pipe_names,
                         "sha256": fingerprint(output_dir / lang / "pipeline")}
        typer.echo(f"{lang}: {' -> '.join(nlp.pipe_names)}")
    output_dir.mkdir(parents=True, exist_ok=True)
    srsly.write_json(output_dir / "assembled.json",
                     {"runtime_sha256": runtime_fingerprint(), "pipelines": summary})


if __name__ == "__main__":
    typer.run(main)
