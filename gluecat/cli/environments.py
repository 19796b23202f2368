"""`gluecat environments`: the catalogs and environments of a repository, e.g. as a CI matrix."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from gluecat.cli.output import stdout
from gluecat.environments import matrix


def environments_command(root: Path, as_json: bool) -> int:
    rows = matrix(root)
    if as_json:
        # One line, so that a workflow step can write it to $GITHUB_OUTPUT as it is.
        sys.stdout.write(json.dumps({"include": rows}) + "\n")
        return 0
    for row in rows:
        where = f"{row['catalog']} --env {row['env']}" if row["env"] else row["catalog"]
        stdout.print(where, markup=False)
    return 0
