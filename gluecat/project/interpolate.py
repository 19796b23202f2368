"""`${var.NAME}` and `${env.NAME}` in the string values of database and table files.

`${var.NAME}` comes from catalog.yaml's `vars` and the chosen environment's; `${env.NAME}`
from the process environment, and is a secret (registered, so that it is never printed).
`$${` is a literal `${`. Any other `${...}` (Athena's `${dt}` in a location template) is
left exactly as written.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from gluecat.errors import SourcePosition, SpecError
from gluecat.model.rest import ENV_REFERENCE, SECRET_KEYS
from gluecat.model.words import a
from gluecat.project.source import SourceFile
from gluecat.project.yamlparse import Loc
from gluecat.secrets import values as secret_values

REFERENCE = re.compile(r"\$\$\{|\$\{(var|env)\.([^}]*)(\})?")
NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


@dataclass(frozen=True)
class Context:
    """What references resolve to: the vars in force, the environment, and whether it must hold every secret."""

    variables: Mapping[str, str]
    environ: Mapping[str, str]
    secrets_required: bool = True


@dataclass
class Result:
    source: SourceFile
    errors: list[SpecError]
    unset: list[SpecError]  # ${env.X} without X, when secrets are not required (validate)


def interpolate(source: SourceFile, context: Context) -> Result:
    """The file with every reference replaced; errors at the reference's file:line:column."""
    walker = _Walker(source, context)
    data = walker.value(source.data, ())
    return Result(replace(source, data=data), walker.errors, walker.unset)


def uninterpolated(source: SourceFile) -> list[SpecError]:
    """Each reference in a file that is read as written (catalog.yaml): there it would reach AWS
    as literal text, e.g. an external_id of `${env.EXTERNAL_ID}`."""
    walker = _Walker(source, Context({}, {}))
    found: list[SpecError] = []

    def visit(value: Any, loc: Loc) -> None:
        if is_named_secret(loc, value):
            return
        if isinstance(value, str) and "${" in value:
            for match in REFERENCE.finditer(value):
                if match.group(0) != "$${":
                    message = (
                        f"'{match.group(0)}': catalog.yaml is read as written (references work in database and"
                        " table files); write the value, or give each environment its own under environments"
                    )
                    found.append(SpecError(walker.position(loc, match.group(0)), message))
        elif isinstance(value, dict):
            for key, item in value.items():
                visit(item, (*loc, key))
        elif isinstance(value, list):
            for index, item in enumerate(value):
                visit(item, (*loc, index))

    visit(source.data, ())
    return found


def is_named_secret(loc: Loc, value: Any) -> bool:
    """A REST catalog's secret in catalog.yaml (`rest_auth: {token: ${env.NAME}}`): named there, read
    from the environment when gluecat connects, never written in the file."""
    return (
        len(loc) >= 2
        and loc[-2] == "rest_auth"
        and loc[-1] in SECRET_KEYS
        and isinstance(value, str)
        and ENV_REFERENCE.fullmatch(value) is not None
    )


def has_reference(text: str) -> bool:
    return "${" in text


class _Walker:
    def __init__(self, source: SourceFile, context: Context) -> None:
        self.source = source
        self.context = context
        self.errors: list[SpecError] = []
        self.unset: list[SpecError] = []

    def value(self, value: Any, loc: Loc) -> Any:
        if isinstance(value, str):
            return self.text(value, loc) if "${" in value else value
        if isinstance(value, dict):
            return {key: self.value(item, (*loc, key)) for key, item in value.items()}
        if isinstance(value, list):
            return [self.value(item, (*loc, index)) for index, item in enumerate(value)]
        return value

    def text(self, text: str, loc: Loc) -> str:
        return REFERENCE.sub(lambda match: self.resolve(match, loc), text)

    def resolve(self, match: re.Match[str], loc: Loc) -> str:
        whole = match.group(0)
        if whole == "$${":
            return "${"
        kind, name, closed = match.group(1), match.group(2), match.group(3)
        if not closed:
            return self.fail(loc, whole, f"'{whole}' is not closed: write ${{{kind}.NAME}} (or $${{ for a literal ${{)")
        if not NAME.match(name):
            return self.fail(loc, whole, f"'{whole}': {a(kind)} name is letters, digits and '_', e.g. ${{{kind}.lake}}")
        if kind == "var":
            return self.variable(name, loc, whole)
        return self.secret(name, loc, whole)

    def variable(self, name: str, loc: Loc, whole: str) -> str:
        variables = self.context.variables
        if name in variables:
            return variables[name]
        known = ", ".join(sorted(variables)) or "none"
        return self.fail(loc, whole, f"undefined var '{name}': add it to vars in catalog.yaml (defined: {known})")

    def secret(self, name: str, loc: Loc, whole: str) -> str:
        environ = self.context.environ
        if name in environ:
            secret_values.register(name, environ[name])
            return environ[name]
        message = f"environment variable {name} is not set ({whole}); set {name} before plan or apply"
        if self.context.secrets_required:
            return self.fail(loc, whole, message)
        self.unset.append(SpecError(self.position(loc, whole), f"{message}: validated without its value"))
        return f"(sensitive:{name})"

    def fail(self, loc: Loc, whole: str, message: str) -> str:
        self.errors.append(SpecError(self.position(loc, whole), message))
        return whole

    def position(self, loc: Loc, needle: str) -> SourcePosition:
        """Where `needle` is in the file: searched from the start of the value (which may be quoted)."""
        start = self.source.position(loc)
        try:
            text = self.source.path.read_text(encoding="utf-8-sig")
        except (OSError, UnicodeDecodeError):
            return start
        lines = text.split("\n")
        offset = sum(len(line) + 1 for line in lines[: start.line - 1]) + start.column - 1
        found = text.find(needle, offset)
        if found < 0:
            return start
        before = text[:found]
        line = before.count("\n") + 1
        return SourcePosition(start.path, line, found - (before.rfind("\n") + 1) + 1)
