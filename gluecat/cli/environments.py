"""`gluecat environments`: the catalogs and environments of a repository, e.g. as a CI matrix."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from gluecat.cli.output import error, stdout
from gluecat.errors import ExitCode
from gluecat.project.environments import matrix


def environments_command(root: Path, as_json: bool) -> int:
    rows, errors = matrix(root)
    for message in errors:
        error(message)
    if as_json:
        # One line, so that a workflow step can write it to $GITHUB_OUTPUT as it is. A catalog that
        # does not load is still listed (exit 0): its plan job fails, and the pull request says why.
        sys.stdout.write(json.dumps({"include": rows}) + "\n")
        return ExitCode.OK
    for row in rows:
        where = f"{row['catalog']} --env {row['env']}" if row["env"] else row["catalog"]
        stdout.print(where, markup=False)
    return ExitCode.ERROR if errors else ExitCode.OK
