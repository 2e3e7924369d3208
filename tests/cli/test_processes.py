"""`spacy-deid run --n-process 2`: worker processes give the outputs, manifest entries and
reversible mapping of one process, in input order, with bad inputs reported the same way."""

from __future__ import annotations

import json

from tests.cli.helpers import KEY, manifest, write

COMPARED = ("document", "status", "error", "labels", "replaced", "characters", "output_index")


def make_folder(root):
    for number in range(7):
        write(root / f"note_{number}.txt", f"Anna Berg kam am {number + 1:02d}.03.2021 zur "
                                           f"Kontrolle {number}.")
    write(root / "empty.txt", "")
    write(root / "binary.txt", b"\x00\x01\x02\xff" * 40)
    rows = [{"text": f"Max Huber, Brief {n} vom 0{n + 1}.04.2020."} for n in range(5)]
    write(root / "notes.jsonl", "".join(json.dumps(row) + "\n" for row in rows))


def test_two_processes_match_one(cli, tmp_path):
    make_folder(tmp_path / "in")
    write(tmp_path / "key", KEY)
    runs = {}
    for processes in ("1", "2"):
        out = tmp_path / f"out{processes}"
        result = cli("run", tmp_path / "in", out, "--key-file", tmp_path / "key",
                     "--n-process", processes, "--batch-size", "2", "--reversible",
                     "--mapping-dir", tmp_path / f"mapping{processes}")
        assert result.exit_code == 1, result.output  # the binary file is an error
        texts = {path.name: path.read_text("utf-8") for path in sorted(out.glob("*.*"))}
        entries = [{key: entry.get(key) for key in COMPARED}
                   for entry in manifest(out)["documents"]]
        runs[processes] = (texts, entries)
    assert runs["1"] == runs["2"]
    texts, entries = runs["2"]
    assert not any("Anna Berg" in text or "Max Huber" in text for text in texts.values())
    assert [e["status"] for e in entries].count("error") == 1
    assert sum(e["replaced"] or 0 for e in entries) >= 24
