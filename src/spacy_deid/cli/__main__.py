"""`python -m spacy_deid.cli`, the same as the `spacy-deid` command."""

from spacy_deid.cli import app

app(prog_name="spacy-deid")
