"""Tests for scripts/pipelines/check_packages.py: samples, pipeline selection, the overlay of the
running environment, the check output and the bookkeeping of a failing package. The whole
path (package, install, load by name, de-identify) is tested in test_package.py."""

from __future__ import annotations

from pathlib import Path

import pytest
import srsly

import scripts.pipelines.check_packages as check_packages_module
from scripts.pipelines.check_packages import (
    CheckError,
    check_packages,
    is_overlay_excluded,
    load_samples,
    parse_check_output,
    select_pipelines,
)
from spacy_deid.lang import LANGUAGES


def test_samples_cover_every_language() -> None:
    samples = load_samples()
    assert sorted(samples) == sorted(LANGUAGES)
    assert all("@" in text for text in samples.values())


def test_select_pipelines_needs_a_sample(tmp_path: Path) -> None:
    built = {"pipelines": [{"lang": "de", "package": "xx_deid_de", "wheel": "a.whl"},
                           {"lang": "en", "package": "xx_deid_en", "wheel": "b.whl"}]}
    assert [p["lang"] for p in select_pipelines(built, ["en"], {"en": "x"})] == ["en"]
    with pytest.raises(CheckError, match="xx_deid_de"):
        select_pipelines(built, None, {"en": "x"})
    with pytest.raises(CheckError, match="no pipeline"):
        select_pipelines(built, ["fa"], {"fa": "x"})


def test_overlay_leaves_out_the_package_under_test() -> None:
    for name in ("spacy_deid", "spacy_deid-0.1.0.dist-info", "__editable__.spacy_deid-0.1.0.pth",
                 "xx_deid_de", "pip", "pip-26.0.dist-info", "distutils-precedence.pth"):
        assert is_overlay_excluded(name), name
    for name in ("spacy", "spacy-3.8.18.dist-info", "torch", "pipdeptree", "presidio_analyzer"):
        assert not is_overlay_excluded(name), name


def test_parse_check_output() -> None:
    out = 'noise\nCHECK_RESULT {"package": "xx_deid_de", "ok": true}\n'
    assert parse_check_output(out, "xx_deid_de") == {"package": "xx_deid_de", "ok": True}
    with pytest.raises(CheckError, match="xx_deid_de"):
        parse_check_output("Traceback ...", "xx_deid_de")


def test_a_failing_package_fails_loudly_and_is_recorded(tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    srsly.write_json(tmp_path / "built.json", {"pipelines": [
        {"lang": "de", "package": "xx_deid_de", "wheel": "xx_deid_de-0.1.0-py3-none-any.whl"},
        {"lang": "en", "package": "xx_deid_en", "wheel": "xx_deid_en-0.1.0-py3-none-any.whl"},
    ]})
    monkeypatch.setattr(check_packages_module, "create_venv", lambda venv: None)
    monkeypatch.setattr(check_packages_module, "install_wheels", lambda *args: None)

    def fake_check(venv, package, sample, workdir):
        ok = package == "xx_deid_de"
        return {"package": package, "ok": ok, "seconds": 0.0,
                "problems": [] if ok else ["doc.ents is empty"]}

    monkeypatch.setattr(check_packages_module, "check_pipeline", fake_check)
    with pytest.raises(CheckError, match="xx_deid_en: doc.ents is empty") as err:
        check_packages(tmp_path, log=lambda message: None)
    assert "xx_deid_de" not in str(err.value)
    checked = srsly.read_json(tmp_path / "checked.json")
    assert [r["ok"] for r in checked["results"]] == [True, False]
