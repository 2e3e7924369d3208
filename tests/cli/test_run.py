"""`spacy-deid run`: folders, JSONL and CSV, resuming, refusals, dry runs, bad input and
the manifest."""

import csv
import io
import json

from tests.cli.helpers import KEY, entries, manifest, write
from tests.cli_output import plain_output

LETTER = "Patientin Anna Berg kam am 12.03.2021 in die Klinik.\n"
ORIGINALS = ("Anna Berg", "Max Huber", "12.03.2021", "20.03.2021")


def test_a_folder_is_mirrored(cli, tmp_path):
    source, output = tmp_path / "in", tmp_path / "out"
    write(source / "ward" / "a.txt", LETTER)
    write(source / "b.txt", "Max Huber, Kontrolle am 20.03.2021.")
    write(source / ".hidden" / "c.txt", LETTER)
    result = cli("run", source, output)
    assert result.exit_code == 0, result.output
    assert sorted(p.relative_to(output).as_posix() for p in output.rglob("*.txt")) == [
        "b.txt", "ward/a.txt"]
    anonymized = (output / "ward" / "a.txt").read_text(encoding="utf-8")
    assert anonymized.startswith("Patientin ") and anonymized.endswith(" in die Klinik.\n")
    assert not any(original in anonymized for original in ORIGINALS)
    assert entries(output)["ward/a.txt"]["labels"] == {"DATE": 1, "NAME_PATIENT": 1}
    assert sorted(p.relative_to(source).as_posix() for p in source.rglob("*") if p.is_file()) \
        == [".hidden/c.txt", "b.txt", "ward/a.txt"]


def test_jsonl_passes_other_fields_through(cli, tmp_path):
    lines = [{"id": 1, "text": LETTER, "ward": "B2", "patient": "P1"},
             {"id": 2, "text": "", "ward": "C1", "patient": "P2"}]
    source = write(tmp_path / "notes.jsonl", "".join(json.dumps(x) + "\n" for x in lines))
    output = tmp_path / "out"
    result = cli("run", source, output, "--drop-field", "patient")
    assert result.exit_code == 0, result.output
    out = [json.loads(x) for x in (output / "notes.jsonl").read_text("utf-8").splitlines()]
    assert [(x["id"], x["ward"], "patient" in x) for x in out] == [(1, "B2", False),
                                                                   (2, "C1", False)]
    assert "Anna Berg" not in out[0]["text"] and out[0]["text"].startswith("Patientin ")
    assert out[1]["text"] == ""
    assert entries(output)["notes.jsonl:1"]["output_index"] == 1


def test_csv_and_tsv_keep_header_and_columns(cli, tmp_path):
    rows = [["id", "note", "ward"], ["7", LETTER, "B2"], ["8", "Max Huber", "C1"]]
    buffer = io.StringIO()
    csv.writer(buffer).writerows(rows)
    source = tmp_path / "in"
    write(source / "notes.csv", buffer.getvalue())
    write(source / "notes.tsv", "id\tnote\n9\tAnna Berg\n")
    output = tmp_path / "out"
    result = cli("run", source, output, "--text-column", "note")
    assert result.exit_code == 0, result.output
    out = list(csv.reader(io.StringIO((output / "notes.csv").read_text("utf-8"), newline="")))
    assert out[0] == ["id", "note", "ward"]
    assert [(r[0], r[2]) for r in out[1:]] == [("7", "B2"), ("8", "C1")]
    assert "Anna Berg" not in out[1][1] and "Max Huber" not in out[2][1]
    tsv = (output / "notes.tsv").read_text("utf-8").splitlines()
    assert tsv[0] == "id\tnote" and tsv[1].startswith("9\t") and "Anna" not in tsv[1]


def test_a_rerun_skips_complete_outputs(cli, tmp_path):
    source, output = tmp_path / "in", tmp_path / "out"
    write(source / "a.txt", LETTER)
    write(source / "b.txt", LETTER)
    assert cli("run", source, output).exit_code == 0
    write(output / "a.txt", "kept")
    (output / "b.txt").unlink()
    write(output / ".b.txt.partial", "left by an interrupted run")
    result = cli("run", source, output)
    assert result.exit_code == 0, result.output
    assert (output / "a.txt").read_text("utf-8") == "kept"
    assert "Anna Berg" not in (output / "b.txt").read_text("utf-8")
    assert not (output / ".b.txt.partial").exists()
    status = {name: e["status"] for name, e in entries(output).items()}
    assert status == {"a.txt": "skipped", "b.txt": "ok"}
    assert cli("run", source, output, "--overwrite").exit_code == 0
    assert (output / "a.txt").read_text("utf-8") != "kept"


def test_output_inside_or_equal_to_input_is_refused(cli, tmp_path):
    source = tmp_path / "in"
    write(source / "a.txt", LETTER)
    for output in (source / "out", source):
        result = cli("run", source, output)
        assert result.exit_code == 2
        assert "inside it" in plain_output(result)
    result = cli("run", source / "a.txt", source)
    assert result.exit_code == 2 and "overwritten" in plain_output(result)
    assert sorted(p.name for p in source.rglob("*")) == ["a.txt"]
    assert (source / "a.txt").read_text("utf-8") == LETTER


def test_dry_run_writes_nothing(cli, tmp_path):
    source, output = tmp_path / "in", tmp_path / "out"
    write(source / "a.txt", LETTER)
    write(source / "bad.txt", b"\x00\x01binary")
    result = cli("run", source, output, "--dry-run")
    assert result.exit_code == 0, result.output
    text = plain_output(result)
    assert "write a.txt" in text and "error bad.txt" in text
    assert "Would de-identify 1 documents" in text
    assert not output.exists()


def test_bad_input_is_reported_and_the_run_goes_on(cli, tmp_path):
    source, output = tmp_path / "in", tmp_path / "out"
    write(source / "a.txt", LETTER)
    write(source / "latin.txt", "Anna Berg aus Köln".encode("cp1252"))
    write(source / "binary.dat", b"\x89PNG\x00\x00")
    write(source / "empty.txt", "")
    result = cli("run", source, output, "--encoding", "utf-8")
    assert result.exit_code == 1
    found = entries(output)
    assert found["latin.txt"]["status"] == "error"
    assert "not valid utf-8" in found["latin.txt"]["error"]
    assert found["binary.dat"]["status"] == "error"
    assert found["a.txt"]["status"] == found["empty.txt"]["status"] == "ok"
    assert (output / "empty.txt").read_text("utf-8") == ""
    assert not (output / "latin.txt").exists() and (output / "a.txt").exists()
    assert "latin.txt" in plain_output(result)


def test_encodings_are_detected(cli, tmp_path):
    source, output = tmp_path / "in", tmp_path / "out"
    write(source / "cp1252.txt", "Anna Berg aus Köln".encode("cp1252"))
    write(source / "utf16.txt", "Anna Berg aus Köln".encode("utf-16"))
    write(source / "bom.txt", "Anna Berg aus Köln".encode("utf-8-sig"))
    assert cli("run", source, output).exit_code == 0
    found = entries(output)
    assert [found[n]["encoding"] for n in ("bom.txt", "cp1252.txt", "utf16.txt")] == [
        "utf-8-sig", "cp1252", "utf-16"]
    for name in ("bom.txt", "cp1252.txt", "utf16.txt"):
        text = (output / name).read_text("utf-8")
        assert text.endswith(" aus Köln") and "Anna" not in text


def test_strategies_and_long_texts(cli, tmp_path):
    source, output = tmp_path / "in", tmp_path / "out"
    write(source / "long.txt", LETTER * 40)
    result = cli("run", source, output, "--strategy", "NAME_PATIENT=tag",
                 "--strategy", "DATE=mask", "--max-chars", "300", "--context-chars", "40")
    assert result.exit_code == 0, result.output
    expected = LETTER.replace("Anna Berg", "[NAME_PATIENT]").replace("12.03.2021", "**********")
    assert (output / "long.txt").read_text("utf-8") == expected * 40
    entry = entries(output)["long.txt"]
    assert entry["long"] is True and entry["labels"] == {"DATE": 40, "NAME_PATIENT": 40}
    assert manifest(output)["settings"]["strategies"]["DATE"] == "mask"
    bad = cli("run", source, tmp_path / "out2", "--strategy", "DATE=blur")
    assert bad.exit_code == 2 and "blur" in plain_output(bad)


def test_the_manifest_holds_no_text_and_no_key(cli, tmp_path):
    source, output = tmp_path / "in", tmp_path / "out"
    write(source / "a.txt", LETTER)
    rows = [{"text": "Max Huber am 20.03.2021", "patient": "MRN-4711"}]
    write(source / "b.jsonl", "".join(json.dumps(r) + "\n" for r in rows))
    write(tmp_path / "key", KEY)
    result = cli("run", source, output, "--patient-field", "patient", "--format", "jsonl")
    assert result.exit_code == 1  # a.txt is no JSONL: reported, the run goes on
    result = cli("run", source, tmp_path / "out2", "--glob", "*.jsonl",
                 "--patient-field", "patient", "--key-file", tmp_path / "key")
    assert result.exit_code == 0, result.output
    raw = next((tmp_path / "out2" / "_spacy_deid").glob("run-*.json")).read_text("utf-8")
    anonymized = json.loads((tmp_path / "out2" / "b.jsonl").read_text("utf-8"))["text"]
    surrogate_name = anonymized.split(" am ")[0]
    for secret in (*ORIGINALS, "MRN-4711", KEY, surrogate_name, anonymized):
        assert secret not in raw
    data = json.loads(raw)
    assert data["pipeline"]["name"] == "pipeline" and data["pipeline"]["version"]
    assert data["settings"]["key"]["source"] == "file"
    assert data["totals"]["labels"] == {"DATE": 1, "NAME_PATIENT": 1}
    entry = data["documents"][0]
    assert entry["patient_ref"] and set(entry) >= {"labels", "seconds", "status", "encoding"}
