"""`spacy-deid add-patterns`: a pipeline folder with a site's own names and codes, used by
`run`; refusals of bad patterns and of outputs that exist or lie inside the pipeline."""

import json

from typer.testing import CliRunner

from spacy_deid.cli import app
from tests.cli.helpers import entries, manifest, write

NOTE = "Verlegung von Anna Berg auf Station k7 west, Visite durch Oriel Danvers.\n"
SITE = [{"label": "ID", "pattern": "K7 West"},
        {"label": "NAME_DOCTOR", "pattern": "Oriel Danvers"}]


def patterns_file(path, entries_=SITE):
    return write(path, "".join(json.dumps(entry) + "\n" for entry in entries_))


def test_the_site_pipeline_replaces_the_listed_names_and_codes(cli, pipeline_dir, tmp_path):
    site = tmp_path / "site_pipeline"
    result = cli("add-patterns", pipeline_dir, patterns_file(tmp_path / "site.jsonl"), site)
    assert result.exit_code == 0, result.output
    assert "2 site pattern(s)" in result.output
    source, output = write(tmp_path / "in" / "note.txt", NOTE), tmp_path / "out"
    run = CliRunner().invoke(app, ["run", "--pipeline", str(site), "--quiet", str(source),
                                   str(output)])
    assert run.exit_code == 0, run.output
    anonymized = (output / "note.txt").read_text(encoding="utf-8")
    assert not any(text in anonymized for text in ("Anna Berg", "k7", "west", "Oriel", "Danvers"))
    assert entries(output)["note.txt"]["labels"] == {"ID": 1, "NAME_DOCTOR": 1,
                                                     "NAME_PATIENT": 1}
    assert "deid_site_patterns" in manifest(output)["pipeline"]["components"]


def test_the_pipeline_without_the_patterns_leaves_them(cli, tmp_path):
    source, output = write(tmp_path / "in" / "note.txt", NOTE), tmp_path / "out"
    assert cli("run", source, output).exit_code == 0
    anonymized = (output / "note.txt").read_text(encoding="utf-8")
    assert "Station k7 west" in anonymized and "Oriel Danvers" in anonymized


def test_a_malformed_pattern_is_refused_and_nothing_is_written(cli, pipeline_dir, tmp_path):
    bad = patterns_file(tmp_path / "site.jsonl", [SITE[0], {"label": "WARD", "pattern": "K7"}])
    result = cli("add-patterns", pipeline_dir, bad, tmp_path / "site_pipeline")
    assert result.exit_code == 2
    assert "line 2: Unknown PHI label 'WARD'" in result.output
    assert not (tmp_path / "site_pipeline").exists()


def test_an_existing_output_or_one_inside_the_pipeline_is_refused(cli, pipeline_dir, tmp_path):
    patterns = patterns_file(tmp_path / "site.jsonl")
    (tmp_path / "taken").mkdir()
    existing = cli("add-patterns", pipeline_dir, patterns, tmp_path / "taken")
    inside = cli("add-patterns", pipeline_dir, patterns, pipeline_dir / "site")
    assert existing.exit_code == 2 and "exists" in existing.output
    assert inside.exit_code == 2 and not (pipeline_dir / "site").exists()
