"""Install the built pipeline wheels into a fresh virtual environment and use them there.

Reads PACKAGES_DIR/built.json (written by `scripts/pipelines/package.py`), creates one new virtual
environment, installs `torch` first (the CPU build that lies on local disk; without this
pin pip would pull a multi-GB CUDA build), then the pipeline wheels with `--find-links
PACKAGES_DIR`, so `spacy-deid` comes from its wheel there, as a user's `pip install` would
get it. For every language it then runs, in that environment and in a scratch folder
(the repository is not on the path), a small script that does
`spacy.load("xx_deid_<lang>")` and de-identifies the language's sample letter from
`scripts/pipelines/samples.json`; the script checks that `doc.ents` holds entities, that
`doc._.deid_text` is a changed text, that `spacy_deid` and the pipeline were imported from
the environment's own site-packages, and that nothing tried to open a network connection
(sockets are disabled in the check; Hugging Face libraries are set offline).

Any failure exits non-zero with a message naming the package; PACKAGES_DIR/checked.json
records the outcome per package.

`--deps-from SITE_PACKAGES` (used by the test suite) skips installing the third-party
dependencies: the new environment sees that folder's packages through a folder of links,
with `spacy-deid`, editable installs, `xx_deid_*` and pip left out, so `spacy-deid` and the
pipelines are still installed from the wheels by a plain `pip install`.

Usage::

    python -m scripts.pipelines.check_packages packages --langs "de en fr"
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Annotated, Any

import srsly
import typer

from scripts.evaluation.evaluate import timestamp
from spacy_deid.lang import parse_language_codes

SAMPLES_FILE = Path(__file__).resolve().parent / "samples.json"
DEFAULT_TORCH = "torch==2.13.0"
INSTALL_TIMEOUT_S = 1800
CHECK_TIMEOUT_S = 600

# Entries of a site-packages folder that the dependency overlay never links: the package
# under test, editable-install hooks, pipeline packages and the environment's own pip.
OVERLAY_EXCLUDED_PREFIXES: tuple[str, ...] = (
    "spacy_deid", "spacy-deid", "__editable__", "xx_deid_", "pip-", "_distutils_hack",
    "__pycache__",
)
OVERLAY_EXCLUDED_NAMES: frozenset[str] = frozenset({"pip"})

# Runs inside the new environment: argv = package name, sample text. Prints one JSON line.
CHECK_SCRIPT = r'''
import json, socket, sys
from pathlib import Path

attempts = []
_connect, _connect_ex = socket.socket.connect, socket.socket.connect_ex

def _record(target):
    attempts.append(repr(target)[:200])
    raise OSError(101, "network disabled by check_packages")

def _refuse_connect(self, address):
    if self.family == getattr(socket, "AF_UNIX", None):
        return _connect(self, address)
    _record(address)

def _refuse_connect_ex(self, address):
    if self.family == getattr(socket, "AF_UNIX", None):
        return _connect_ex(self, address)
    _record(address)

def _refuse_call(target, *args, **kwargs):
    _record(target)

socket.socket.connect = _refuse_connect
socket.socket.connect_ex = _refuse_connect_ex
socket.getaddrinfo = _refuse_call
socket.create_connection = _refuse_call

package, sample = sys.argv[1], sys.argv[2]
prefix = Path(sys.prefix).resolve()
result = {"package": package, "ok": False}
try:
    import spacy
    import spacy_deid
    nlp = spacy.load(package)
    doc = nlp(sample)
    module = sys.modules[package]
    result.update({
        "pipeline": list(nlp.pipe_names),
        "meta_name": nlp.meta.get("lang", "") + "_" + nlp.meta.get("name", ""),
        "version": nlp.meta.get("version"),
        "entities": [[ent.start_char, ent.end_char, ent.label_] for ent in doc.ents],
        "deid_text": doc._.deid_text,
        "n_replacements": len(doc._.deid_replacements or []),
        "spacy_deid_in_env": prefix in Path(spacy_deid.__file__).resolve().parents,
        "package_in_env": prefix in Path(module.__file__).resolve().parents,
    })
    problems = []
    if not doc.ents:
        problems.append("doc.ents is empty")
    if not isinstance(doc._.deid_text, str):
        problems.append("doc._.deid_text is not set")
    elif doc._.deid_text == sample:
        problems.append("doc._.deid_text equals the input text")
    if not result["spacy_deid_in_env"]:
        problems.append("spacy_deid was imported from outside the environment: "
                        + str(spacy_deid.__file__))
    if not result["package_in_env"]:
        problems.append(package + " was imported from outside the environment")
    result["problems"] = problems
    result["ok"] = not problems
except Exception as err:
    import traceback
    result["problems"] = [type(err).__name__ + ": " + str(err)]
    result["traceback"] = traceback.format_exc()[-3000:]
result["network_attempts"] = attempts
if attempts:
    result["ok"] = False
    result.setdefault("problems", []).append("tried to open a network connection: "
                                             + ", ".join(attempts[:5]))
print("CHECK_RESULT " + json.dumps(result, ensure_ascii=False))
'''


class CheckError(RuntimeError):
    """A package that failed to install or to work; the message names it."""


def load_samples(path: Path = SAMPLES_FILE) -> dict[str, str]:
    """The sample letter per language code from a samples JSON file."""
    if not path.is_file():
        raise CheckError(f"samples file not found: {path}")
    data = srsly.read_json(path)
    samples = data.get("samples") if isinstance(data, Mapping) else None
    if not isinstance(samples, Mapping) or not all(
            isinstance(text, str) and text.strip() for text in samples.values()):
        raise CheckError(f"{path} must hold {{'samples': {{lang: non-empty text}}}}")
    return dict(samples)


def read_built(packages_dir: Path) -> dict[str, Any]:
    """PACKAGES_DIR/built.json, with a clear error if packaging has not run."""
    path = packages_dir / "built.json"
    if not path.is_file():
        raise CheckError(f"{path} not found: run `python -m scripts.pipelines.package` first")
    return dict(srsly.read_json(path))


def select_pipelines(built: Mapping[str, Any], langs: Sequence[str] | None,
                     samples: Mapping[str, str]) -> list[dict[str, Any]]:
    """The built pipelines to check (all, or those of `langs`), each with a sample text."""
    pipelines = [dict(p) for p in built.get("pipelines", [])
                 if langs is None or p["lang"] in langs]
    if not pipelines:
        raise CheckError("built.json lists no pipeline for the requested languages "
                         f"({', '.join(langs or [])})")
    missing = [p["package"] for p in pipelines if p["lang"] not in samples]
    if missing:
        raise CheckError(f"no sample text for {', '.join(missing)} in the samples file")
    return pipelines


def venv_python(venv_dir: Path) -> Path:
    """The interpreter of a virtual environment."""
    return venv_dir / "bin" / "python"


def venv_site_packages(venv_dir: Path) -> Path:
    """The site-packages folder of a virtual environment made by this interpreter."""
    version = f"python{sys.version_info.major}.{sys.version_info.minor}"
    return venv_dir / "lib" / version / "site-packages"


def clean_env() -> dict[str, str]:
    """Environment for commands in the new venv: offline Hugging Face, no user site, no
    PYTHONPATH or outer virtualenv leaking in."""
    env = {k: v for k, v in os.environ.items()
           if k not in {"PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME", "PYTHONSTARTUP"}}
    env.update({"HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1", "PYTHONNOUSERSITE": "1",
                "PIP_DISABLE_PIP_VERSION_CHECK": "1"})
    return env


def run(command: Sequence[str | Path], what: str, timeout: int, cwd: Path | None = None,
        ) -> subprocess.CompletedProcess:
    """Run a command in the clean environment; raise CheckError naming `what` on failure."""
    parts = [str(part) for part in command]
    try:
        result = subprocess.run(parts, cwd=cwd, env=clean_env(), capture_output=True,
                                text=True, timeout=timeout)
    except subprocess.TimeoutExpired as err:
        raise CheckError(f"{what}: timed out after {timeout} s: {shlex.join(parts)}") from err
    if result.returncode != 0:
        output = (result.stdout + result.stderr).strip()[-4000:]
        raise CheckError(f"{what} failed (exit {result.returncode}): {shlex.join(parts)}\n"
                         f"{output}")
    return result


def is_overlay_excluded(name: str) -> bool:
    """Whether a site-packages entry stays out of the dependency overlay."""
    return (name in OVERLAY_EXCLUDED_NAMES or name.endswith(".pth")
            or any(name.startswith(prefix) for prefix in OVERLAY_EXCLUDED_PREFIXES))


def link_dependencies(source_site: Path, venv_dir: Path) -> Path:
    """Make `source_site`'s packages (minus the excluded ones) visible in the venv through
    a folder of links added to its path by a .pth file; return that folder."""
    if not source_site.is_dir():
        raise CheckError(f"--deps-from: {source_site} is not a folder")
    overlay = venv_dir / "deps-overlay"
    overlay.mkdir()
    for entry in sorted(source_site.iterdir()):
        if not is_overlay_excluded(entry.name):
            (overlay / entry.name).symlink_to(entry.resolve())
    (venv_site_packages(venv_dir) / "zz_deps_overlay.pth").write_text(f"{overlay}\n")
    return overlay


def create_venv(venv_dir: Path) -> None:
    """A new virtual environment with pip, from this interpreter's base Python."""
    if venv_dir.exists():
        if not (venv_dir / "pyvenv.cfg").is_file() and any(venv_dir.iterdir()):
            raise CheckError(f"--venv {venv_dir} exists and is not a virtual environment; "
                             "refusing to replace it")
        shutil.rmtree(venv_dir)
    run([sys.executable, "-m", "venv", venv_dir], "creating the virtual environment",
        timeout=300)


def install_wheels(venv_dir: Path, packages_dir: Path, wheels: Sequence[str],
                   torch: str | None) -> None:
    """Install torch (if given) and then the pipeline wheels with a plain pip install that
    finds `spacy-deid` in PACKAGES_DIR."""
    python = venv_python(venv_dir)
    if torch:
        run([python, "-m", "pip", "install", "--quiet", torch], f"installing {torch}",
            timeout=INSTALL_TIMEOUT_S)
    paths = [str((packages_dir / wheel).resolve()) for wheel in wheels]
    run([python, "-m", "pip", "install", "--quiet", "--find-links",
         str(packages_dir.resolve()), *paths],
        f"installing {', '.join(wheels)}", timeout=INSTALL_TIMEOUT_S)


def parse_check_output(stdout: str, package: str) -> dict[str, Any]:
    """The JSON result line that CHECK_SCRIPT prints."""
    for line in reversed(stdout.splitlines()):
        if line.startswith("CHECK_RESULT "):
            return json.loads(line[len("CHECK_RESULT "):])
    raise CheckError(f"{package}: the check script printed no result")


def check_pipeline(venv_dir: Path, package: str, sample: str, workdir: Path) -> dict[str, Any]:
    """Load `package` by name in the venv and de-identify `sample`; return the result."""
    started = time.perf_counter()
    completed = subprocess.run(
        [str(venv_python(venv_dir)), "-c", CHECK_SCRIPT, package, sample], cwd=workdir,
        env=clean_env(), capture_output=True, text=True, timeout=CHECK_TIMEOUT_S)
    try:
        result = parse_check_output(completed.stdout, package)
    except CheckError:
        result = {"package": package, "ok": False,
                  "problems": [f"exit {completed.returncode}: "
                               f"{(completed.stdout + completed.stderr).strip()[-2000:]}"]}
    result["seconds"] = round(time.perf_counter() - started, 1)
    return result


def check_packages(packages_dir: Path, langs: Sequence[str] | None = None,
                   samples_file: Path = SAMPLES_FILE, venv_dir: Path | None = None,
                   torch: str | None = DEFAULT_TORCH, deps_from: Path | None = None,
                   log: Any = print, jobs: int = 2) -> dict[str, Any]:
    """Install the built wheels into a fresh venv and check each pipeline there, `jobs` at
    a time; write and return PACKAGES_DIR/checked.json's record. Raises CheckError if any
    package fails."""
    built = read_built(packages_dir)
    samples = load_samples(samples_file)
    pipelines = select_pipelines(built, langs, samples)
    not_built = [lang for lang in langs or [] if lang not in {p["lang"] for p in pipelines}]
    if not_built:
        log(f"not built, not checked: {', '.join(not_built)}")
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="spacy-deid-check-") as tmp:
        venv = venv_dir or Path(tmp) / "venv"
        log(f"creating a fresh virtual environment in {venv} ...")
        create_venv(venv)
        if deps_from is not None:
            link_dependencies(deps_from, venv)
            torch = None
            log(f"dependencies linked from {deps_from} (spacy-deid and pipelines excluded)")
        log(f"installing {len(pipelines)} pipeline wheel(s)"
            + (f" after {torch}" if torch else "") + " ...")
        install_wheels(venv, packages_dir, [p["wheel"] for p in pipelines], torch)
        install_seconds = round(time.perf_counter() - started, 1)
        log(f"installed in {install_seconds} s")

        def check(number: int, pipeline: Mapping[str, Any]) -> dict[str, Any]:
            result = check_pipeline(venv, pipeline["package"], samples[pipeline["lang"]],
                                    Path(tmp))
            result["lang"] = pipeline["lang"]
            status = "ok" if result["ok"] else "FAILED: " + "; ".join(result["problems"])
            log(f"[{number}/{len(pipelines)}] {pipeline['package']}: "
                f"{len(result.get('entities', []))} entities, {status} ({result['seconds']} s)")
            return result

        # Each check is its own Python process in the venv.
        with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
            results = list(pool.map(check, range(1, len(pipelines) + 1), pipelines))
    record = {
        "created": timestamp(),
        "python": sys.version.split()[0],
        "torch": torch,
        "deps_from": str(deps_from) if deps_from else None,
        "install_seconds": install_seconds,
        "total_seconds": round(time.perf_counter() - started, 1),
        "results": results,
    }
    srsly.write_json(packages_dir / "checked.json", record)
    failed = [r for r in results if not r["ok"]]
    if failed:
        raise CheckError("package check failed for " + "; ".join(
            f"{r['package']}: {'; '.join(r['problems'])}" for r in failed))
    return record


def main(
    packages_dir: Annotated[Path, typer.Argument(help="Folder with the wheels and built.json")],
    langs: Annotated[str | None, typer.Option(
        "--langs", help="Space- or comma-separated codes (default: every built pipeline)")
    ] = None,
    samples: Annotated[Path, typer.Option("--samples", help="Sample texts JSON")
                       ] = SAMPLES_FILE,
    venv: Annotated[Path | None, typer.Option(
        "--venv", help="Create the environment here and keep it (default: a temporary one)")
    ] = None,
    torch: Annotated[str, typer.Option(
        "--torch", help="torch requirement installed first; '' to skip")] = DEFAULT_TORCH,
    deps_from: Annotated[Path | None, typer.Option(
        "--deps-from", help="Link third-party dependencies from this site-packages instead "
                            "of installing them (spacy-deid still comes from its wheel)")
    ] = None,
    jobs: Annotated[int, typer.Option("--jobs", min=1, help="Pipelines checked side by side")
                    ] = 2,
) -> None:
    """Install every built pipeline wheel into a fresh venv and de-identify a sample."""
    def log(message: str) -> None:
        typer.echo(message, err=True)

    codes = parse_language_codes(langs) if langs else None
    try:
        record = check_packages(packages_dir, codes, samples, venv, torch or None, deps_from,
                                log=log, jobs=jobs)
    except CheckError as err:
        typer.echo(f"Error: {err}", err=True)
        raise typer.Exit(code=1) from err
    typer.echo(f"{len(record['results'])} package(s) installed and working in a fresh "
               f"environment ({record['total_seconds']} s) -> {packages_dir / 'checked.json'}")


if __name__ == "__main__":
    typer.run(main)
