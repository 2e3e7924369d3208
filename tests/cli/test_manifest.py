"""The run manifest: language-check results kept to short values, mismatches counted."""

import json

from spacy_deid.cli.manifest import Manifest, safe_language_check


def test_language_checks_keep_short_values_only():
    check = {"lang": "en", "confidence": 0.9, "mismatch": True, "text": "Anna Berg " * 10,
             "nested": {"a": 1}}
    assert safe_language_check(check) == {"lang": "en", "confidence": 0.9, "mismatch": True}
    assert safe_language_check("Anna Berg kam am 12.03.2021 in die Klinik, sagte sie.") is None


def test_totals_count_language_mismatches(tmp_path):
    manifest = Manifest(tmp_path, {}, {}, {})
    manifest.add({"status": "ok", "labels": {"DATE": 2},
                  "language_check": {"lang": "en", "expected": "de", "mismatch": True}})
    manifest.add({"status": "ok", "labels": {"DATE": 1},
                  "language_check": {"lang": "de", "expected": "de", "mismatch": False}})
    manifest.add({"status": "error", "error": "not valid JSON (column 1)"})
    totals = json.loads(manifest.finish("complete", 2.0).read_text("utf-8"))["totals"]
    assert totals["language_mismatches"] == 1
    assert (totals["processed"], totals["errors"], totals["labels"]) == (2, 1, {"DATE": 3})
