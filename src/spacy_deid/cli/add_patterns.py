"""`spacy-deid add-patterns`: a pipeline folder with a site's own names and codes added.

The folder it writes is an ordinary spaCy pipeline, so `run --pipeline`, `spark --pipeline`,
`spacy.load` and the Presidio analyzer all take it; `spacy_deid.detect.site_patterns` says
what the patterns are and where they act.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from spacy_deid.cli.paths import refuse_inside
from spacy_deid.cli.processing import load_pipeline
from spacy_deid.detect.site_patterns import SITE_PATTERNS, SitePatternError, add_site_patterns


def add_patterns(
    pipeline: Annotated[str, typer.Argument(
        metavar="PIPELINE", help="Installed pipeline (e.g. xx_deid_de) or pipeline folder")],
    patterns: Annotated[Path, typer.Argument(
        metavar="PATTERNS", help="JSONL file of spaCy entity-ruler patterns with PHI labels")],
    output: Annotated[Path, typer.Argument(
        metavar="OUTPUT", help="Folder for the new pipeline (must not exist)")],
) -> None:
    """Write PIPELINE with the patterns of PATTERNS added to OUTPUT."""
    if output.exists():
        raise typer.BadParameter(f"{output} exists; give a new folder", param_hint="OUTPUT")
    source = Path(pipeline)
    if source.is_dir():
        refuse_inside(output, source, "OUTPUT", f"the pipeline folder {source}",
                      "choose a folder outside it")
    nlp, _ = load_pipeline(pipeline)
    try:
        add_site_patterns(nlp, patterns)
    except SitePatternError as error:
        raise typer.BadParameter(str(error), param_hint="PATTERNS") from None
    nlp.meta["name"] = f"{nlp.meta.get('name', 'pipeline')}_site"
    nlp.to_disk(output)
    count = len(nlp.get_pipe(SITE_PATTERNS).patterns)
    typer.echo(f"Wrote {output}: {nlp.meta['name']} with {count} site pattern(s) in "
               f"{SITE_PATTERNS}.")
