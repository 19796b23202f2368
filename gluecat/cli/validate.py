"""`gluecat validate`: offline parse, type-check and lint."""

from __future__ import annotations

from pathlib import Path

from gluecat.cli.output import print_json, stdout
from gluecat.errors import ExitCode
from gluecat.lint.rules import ENV_UNSET_RULE, SCHEMA_RULE, Finding, lint
from gluecat.project.load import load_partial
from gluecat.text.plain import counted


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


def validate(root: Path, output_format: str, env: str | None = None) -> int:
    findings, (databases, tables) = findings_for(root, env)
    errors = [f for f in findings if f.severity == "error"]
    if output_format == "json":
        print_json(
            {
                "ok": not errors,
                "databases": databases,
                "tables": tables,
                "findings": [
                    {
                        "path": str(f.position.path),
                        "line": f.position.line or None,  # None: the file as a whole (a missing one)
                        "column": f.position.column or None,
                        "severity": f.severity,
                        "rule": f.rule,
                        "message": f.message,
                    }
                    for f in findings
                ],
            }
        )
        return ExitCode.ERROR if errors else ExitCode.OK
    for finding in findings:
        stdout.print(str(finding), markup=False)
    warnings = len(findings) - len(errors)
    if errors:
        stdout.print(f"{root}: {counted(len(errors), 'error')}, {counted(warnings, 'warning')}", markup=False)
        return ExitCode.ERROR
    suffix = f", {counted(warnings, 'warning')}" if warnings else ""
    stdout.print(f"{root}: {counted(databases, 'database')}, {counted(tables, 'table')}, ok{suffix}", markup=False)
    return ExitCode.OK
