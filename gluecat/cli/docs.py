"""`gluecat docs`: the catalog as a static site, or its document (with the lineage graph) as JSON."""

from __future__ import annotations

from pathlib import Path

from gluecat.cli.output import print_json, stderr
from gluecat.errors import ExitCode, GluecatError
from gluecat.site.build import document_of, load
from gluecat.site.write import write_site


def docs_command(root: Path, out: Path | None, output_format: str, live: bool, env: str | None) -> int:
    project = load(root, env)
    facts, views = None, None
    if live:
        from gluecat.backends.connect import connect
        from gluecat.site.live import read_facts

        with connect(project) as connection:
            facts, views = read_facts(project, connection)
    document = document_of(project, facts, views)
    if output_format == "json":
        if out is None:
            print_json(document)
        else:
            write_json(document, out)
        return ExitCode.OK
    site = out or Path("site")
    if site.exists() and not site.is_dir():
        raise GluecatError(f"{site} is a file: --out names the folder the site is written to")
    pages = write_site(document, site)
    stderr.print(
        f"Wrote {pages} table and view pages to {site}/; open {site / 'index.html'} in a browser.", markup=False
    )
    return ExitCode.OK


def write_json(document: dict[str, object], out: Path) -> None:
    import json

    out.write_text(json.dumps(document, indent=2, ensure_ascii=False, default=str) + "\n", encoding="utf-8")
    stderr.print(f"Wrote {out}.", markup=False)
