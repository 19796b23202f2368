"""`gluecat docs`: the catalog as a static site, or its document (with the lineage graph) as JSON."""

from __future__ import annotations

from pathlib import Path

from gluecat.cli.output import print_json, stderr
from gluecat.errors import ExitCode, GluecatError
from gluecat.site.build import project_document
from gluecat.site.write import write_json, write_site


def docs_command(root: Path, out: Path | None, output_format: str, live: bool, env: str | None) -> int:
    document = project_document(root, env, live)
    if output_format == "json":
        if out is None:
            print_json(document)
        else:
            write_json(document, out)
            stderr.print(f"Wrote {out}.", markup=False)
        return ExitCode.OK
    site = out or Path("site")
    if site.exists() and not site.is_dir():
        raise GluecatError(f"{site} is a file: --out names the folder the site is written to")
    pages = write_site(document, site)
    stderr.print(
        f"Wrote {pages} table and view pages to {site}/; open {site / 'index.html'} in a browser.", markup=False
    )
    return ExitCode.OK
