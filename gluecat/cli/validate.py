"""`gluecat validate`: offline parse, type-check and lint."""

from __future__ import annotations

from pathlib import Path

from gluecat.cli.output import print_json, stdout
from gluecat.errors import ExitCode
from gluecat.lint.project import findings_for
from gluecat.text.plain import counted


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
