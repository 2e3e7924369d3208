"""`spacy-deid reidentify`: put the originals back into a reversible run's output.

For every encrypted mapping under `--mapping-dir` (see `spacy_deid.cli.mapping`), the
matching output file under OUTPUT is read, each document's surrogates are replaced by
their originals at the recorded places, and the file is written under RESTORED (mirrored,
never inside OUTPUT, since it holds identifying text again). Needs the run's secret key.
"""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Annotated

import typer

from spacy_deid.cli.keys import KEY_ENV, load_key, mapping_cipher
from spacy_deid.cli.mapping import MappingError, mapping_files, read_mapping, restore
from spacy_deid.cli.paths import refuse_inside
from spacy_deid.cli.readers import DELIMITERS, JSONL, TEXT
from spacy_deid.cli.writers import write_text_atomic


def restore_file(output_text: str, header: dict, documents) -> str:
    """The output file's text with every document restored (`documents`: (index, records)
    from `read_mapping`)."""
    fmt = header["format"]
    if fmt == TEXT:
        return restore(output_text, [r for _, records in documents for r in records])
    by_index = dict(documents)
    if fmt == JSONL:
        lines = output_text.split("\n")
        for index, records in by_index.items():
            value = json.loads(lines[index - 1])
            value[header["text_field"]] = restore(value[header["text_field"]], records)
            lines[index - 1] = json.dumps(value, ensure_ascii=False)
        return "\n".join(lines)
    delimiter = DELIMITERS[fmt]
    rows = list(csv.reader(io.StringIO(output_text, newline=""), delimiter=delimiter))
    column = rows[0].index(header["text_column"])
    for index, records in by_index.items():
        rows[index][column] = restore(rows[index][column], records)
    buffer = io.StringIO(newline="")
    csv.writer(buffer, delimiter=delimiter).writerows(rows)
    return buffer.getvalue()


def reidentify(
    output: Annotated[Path, typer.Argument(
        metavar="OUTPUT", exists=True, file_okay=False, help="The output folder of a run")],
    restored: Annotated[Path, typer.Argument(
        metavar="RESTORED", help="Folder for the restored files (outside OUTPUT)")],
    mapping_dir: Annotated[Path, typer.Option(
        exists=True, file_okay=False, help="The run's --mapping-dir")],
    key_file: Annotated[Path | None, typer.Option(help="File holding the run's secret key")
                        ] = None,
    key_env: Annotated[str, typer.Option(help="Environment variable with the secret key")
                       ] = KEY_ENV,
) -> None:
    """Restore the original text of a reversible run's outputs into RESTORED."""
    refuse_inside(restored, output, "RESTORED", "the output folder",
                  "restored files hold identifying text; keep them apart from the output")
    refuse_inside(restored, mapping_dir, "RESTORED", "the mapping folder",
                  "write the restored files elsewhere")
    key = load_key(key_file, key_env, required=True)
    cipher = mapping_cipher(key)
    from cryptography.fernet import InvalidToken

    files = mapping_files(mapping_dir)
    failed = 0
    for path in files:
        name = path.relative_to(mapping_dir).as_posix()
        try:
            header, documents = read_mapping(path, cipher)
            if header.get("key_fingerprint") not in (None, key.fingerprint):
                raise typer.BadParameter("this is not the key of the run that wrote the "
                                         "mappings", param_hint="--key-file")
            source = output / header["output"]
            text = restore_file(source.read_bytes().decode("utf-8"), header, documents)
        except InvalidToken:
            raise typer.BadParameter("the key does not open the mappings",
                                     param_hint="--key-file") from None
        except (OSError, MappingError, IndexError, KeyError, ValueError) as error:
            failed += 1
            typer.echo(f"  error  {name}: {error}", err=True)
            continue
        write_text_atomic(restored / header["output"], text)
    typer.echo(f"Restored {len(files) - failed} of {len(files)} files into {restored}.")
    if failed:
        raise typer.Exit(1)
