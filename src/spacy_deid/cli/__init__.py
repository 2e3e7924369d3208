"""The `spacy-deid` command line: de-identify a hospital's documents in bulk.

    spacy-deid run --pipeline xx_deid_de INPUT OUTPUT   de-identify files, folders, JSONL, CSV
    spacy-deid review OUTPUT REPORT                     HTML report of a sample, for audit
    spacy-deid reidentify OUTPUT RESTORED --mapping-dir  put originals back (reversible runs)
    spacy-deid keygen KEY_FILE                          a new secret key
    spacy-deid add-patterns PIPELINE PATTERNS OUTPUT    a pipeline with a site's names and codes
    spacy-deid spark --pipeline xx_deid_de INPUT OUTPUT  the same on Spark, into Parquet

See docs/command_line.md for options, the manifest and the threat model.
"""

from __future__ import annotations

import typer

from spacy_deid.cli.add_patterns import add_patterns
from spacy_deid.cli.keygen import keygen
from spacy_deid.cli.reidentify import reidentify
from spacy_deid.cli.review import review
from spacy_deid.cli.run import run
from spacy_deid.cli.spark import spark

app = typer.Typer(
    name="spacy-deid",
    help="De-identify clinical documents in bulk with a spacy-deid pipeline.",
    no_args_is_help=True,
    add_completion=False,
)
app.command("run")(run)
app.command("review")(review)
app.command("reidentify")(reidentify)
app.command("keygen")(keygen)
app.command("spark")(spark)
app.command("add-patterns")(add_patterns)

__all__ = ["app"]
