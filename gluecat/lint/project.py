"""`gluecat validate`'s findings: a project's schema errors, its unset secrets and its lint findings,
in file order."""

from __future__ import annotations

from pathlib import Path

from gluecat.lint.rules import ENV_UNSET_RULE, SCHEMA_RULE, Finding, lint
from gluecat.project.load import load_partial


def findings_for(root: Path, env: str | None = None) -> tuple[list[Finding], tuple[int, int]]:
    """Every finding for a project (lint runs on the files that loaded), and its counts.

    Secrets (`${env.NAME}`) need not be set: validate says which were not, and checks the rest."""
    project, errors = load_partial(root, env, secrets_required=False)
    findings = [Finding(e.position, "error", SCHEMA_RULE, e.message) for e in errors]
    if project is None:
        return findings, (0, 0)
    findings += [Finding(e.position, "warning", ENV_UNSET_RULE, e.message) for e in project.unset_secrets]
    findings += lint(project)
    findings.sort(key=lambda f: (str(f.position.path), f.position.line, f.position.column))
    return findings, (len(project.databases), project.table_count())
