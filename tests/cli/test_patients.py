"""Per-patient consistency (one key per patient: same surrogates and date shift for one
patient's documents, independent ones for another) and the reversible round trip."""

import datetime as dt
import json
import re

from tests.cli.helpers import KEY, write
from tests.cli_output import plain_output

NOTE = re.compile(r"^(?P<name>.+) kam am (?P<date>\d\d\.\d\d\.\d{4})\.$")


def name_and_shift(text: str, original_date: str) -> tuple[str, int]:
    """The surrogate name and the date shift in days of an anonymized note."""
    match = NOTE.match(text)
    assert match, text
    day = dt.datetime.strptime(match["date"], "%d.%m.%Y")
    return match["name"], (day - dt.datetime.strptime(original_date, "%d.%m.%Y")).days


def test_one_patient_one_surrogate_and_date_shift_jsonl(cli, tmp_path):
    notes = [("P1", "12.03.2021"), ("P1", "20.04.2021"), ("P2", "12.03.2021")]
    lines = [{"patient": p, "text": f"Anna Berg kam am {d}."} for p, d in notes]
    source = write(tmp_path / "notes.jsonl", "".join(json.dumps(x) + "\n" for x in lines))
    write(tmp_path / "key", KEY)
    outputs = []
    for run, processes in (("a", "1"), ("b", "2")):
        result = cli("run", source, tmp_path / run, "--patient-field", "patient",
                     "--key-file", tmp_path / "key", "--n-process", processes,
                     "--batch-size", "1")
        assert result.exit_code == 0, result.output
        outputs.append([json.loads(x)["text"]
                        for x in (tmp_path / run / "notes.jsonl").read_text("utf-8").split("\n")
                        if x])
    first, second, other = (name_and_shift(text, date)
                            for text, (_, date) in zip(outputs[0], notes, strict=True))
    assert first == second
    assert first[0] != "Anna Berg" and first[1] != 0
    assert other[0] != first[0] and other[1] != first[1]
    # the same key: the same surrogates in every run, with one process or more
    assert outputs[0] == outputs[1]


def test_patient_from_file_names_and_csv(cli, tmp_path, monkeypatch):
    source = tmp_path / "in"
    write(source / "P1_a.txt", "Anna Berg kam am 12.03.2021.")
    write(source / "P1_b.txt", "Anna Berg kam am 01.02.2020.")
    write(source / "P2_a.txt", "Anna Berg kam am 12.03.2021.")
    monkeypatch.setenv("SPACY_DEID_KEY", KEY)
    result = cli("run", source, tmp_path / "out", "--patient-regex", r"^(P\d+)_")
    assert result.exit_code == 0, result.output
    read = [(tmp_path / "out" / n).read_text("utf-8") for n in ("P1_a.txt", "P1_b.txt",
                                                                 "P2_a.txt")]
    p1a, p1b, p2 = (name_and_shift(t, d) for t, d in
                    zip(read, ("12.03.2021", "01.02.2020", "12.03.2021"), strict=True))
    assert p1a == p1b and p2 != p1a
    table = write(tmp_path / "t.csv", "mrn,text\nP1,Anna Berg kam am 12.03.2021.\n"
                  "P1,Anna Berg kam am 01.02.2020.\nP2,Anna Berg kam am 12.03.2021.\n")
    result = cli("run", table, tmp_path / "csv", "--patient-column", "mrn")
    assert result.exit_code == 0, result.output
    rows = (tmp_path / "csv" / "t.csv").read_text("utf-8").splitlines()[1:]
    assert [row.split(",", 1)[1] for row in rows] == read  # the same key, the same patients


def test_reversible_round_trip(cli, tmp_path):
    source = tmp_path / "in"
    texts = {"a.txt": "Patientin Anna Berg kam am 12.03.2021.\r\nAnna Berg erholte sich.",
             "b/c.txt": "Max Huber, 20.03.2021"}
    for name, text in texts.items():
        write(source / name, text)
    lines = [{"id": 1, "text": "Anna Berg am 12.03.2021"}, {"id": 2, "text": "nichts"}]
    write(source / "n.jsonl", "".join(json.dumps(x) + "\n" for x in lines))
    assert cli("keygen", tmp_path / "key").exit_code == 0
    assert (tmp_path / "key").stat().st_mode & 0o777 == 0o600
    assert cli("keygen", tmp_path / "key").exit_code == 2  # a key is never overwritten
    output, mappings, restored = tmp_path / "out", tmp_path / "maps", tmp_path / "restored"
    result = cli("run", source, output, "--reversible", "--mapping-dir", mappings,
                 "--key-file", tmp_path / "key", "--strategy", "DATE=redact")
    assert result.exit_code == 0, result.output
    assert "Anna Berg" not in (output / "a.txt").read_text("utf-8")
    stored = "".join(p.read_text("utf-8") for p in mappings.rglob("*.deid-map"))
    assert len(list(mappings.rglob("*.deid-map"))) == 3 and "Anna Berg" not in stored
    result = cli("reidentify", output, restored, "--mapping-dir", mappings,
                 "--key-file", tmp_path / "key")
    assert result.exit_code == 0, result.output
    for name, text in texts.items():
        assert (restored / name).read_bytes() == text.encode("utf-8")
    assert [json.loads(x) for x in (restored / "n.jsonl").read_text("utf-8").split("\n")
            if x] == lines
    write(tmp_path / "other", "another-key-of-enough-length-9876543210")
    wrong = cli("reidentify", output, tmp_path / "r2", "--mapping-dir", mappings,
                "--key-file", tmp_path / "other")
    assert wrong.exit_code == 2 and "not the key" in plain_output(wrong)
    inside = cli("reidentify", output, output / "restored", "--mapping-dir", mappings,
                 "--key-file", tmp_path / "key")
    assert inside.exit_code == 2


def test_patient_options_must_fit_the_input(cli, tmp_path):
    source = write(tmp_path / "n.jsonl", '{"text": "Anna Berg"}\n')
    result = cli("run", source, tmp_path / "out", "--patient-regex", "^(P\\d+)")
    assert result.exit_code == 2 and "--patient-field" in plain_output(result)
    result = cli("run", source, tmp_path / "out", "--patient-field", "mrn")
    assert result.exit_code == 1  # the record has no patient id: reported, not written
    assert (tmp_path / "out" / "n.jsonl").read_text("utf-8") == ""


def test_reversible_needs_a_key_and_a_mapping_folder_outside_output(cli, tmp_path):
    source = write(tmp_path / "a.txt", "Anna Berg")
    result = cli("run", source, tmp_path / "out", "--reversible", "--mapping-dir",
                 tmp_path / "maps")
    assert result.exit_code == 2 and "secret key" in plain_output(result)
    write(tmp_path / "key", KEY)
    result = cli("run", source, tmp_path / "out", "--reversible", "--key-file",
                 tmp_path / "key", "--mapping-dir", tmp_path / "out" / "maps")
    assert result.exit_code == 2 and "apart from the output" in plain_output(result)
    assert not (tmp_path / "out").exists()
