"""What import writes instead of values: `${var.NAME}` for an environment's values, and
`${env.NAME}` for secret-looking parameters, so that neither lands in the repository."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from gluecat.secrets.redact import is_secret_key, scrub, secret_spans

# Mappings whose values are parameters (a database's, table's or partition's, SerDe's, Iceberg/Delta
# properties), wherever they sit: a table, a partition entry, a registration's TableInput.
PARAMETER_KEYS = frozenset(("parameters", "properties", "storage_parameters", "Parameters"))
# Free text that may quote a secret (`Password=...` in a description, a URL's password in a
# location): only its secret part becomes a reference. Types, names and SQL are never free text.
FREE_TEXT = frozenset(("description", "owner", "comment", "location", "Description", "Owner", "Comment", "Location"))
# A `${` that interpolation would read (a reference, or an escape): written with one more `$`.
_READ_AS_REFERENCE = re.compile(r"(?<=\$)\$\{|\$\{(?=(?:var|env)\.)")


@dataclass(frozen=True)
class Secret:
    variable: str  # the environment variable the file now names
    where: str  # `sales.orders parameters.jdbc.password`


@dataclass
class References:
    """Turns live values into references; remembers the environment variables it named."""

    variables: Mapping[str, str]
    secrets: list[Secret] = field(default_factory=list)
    _named: dict[tuple[str, str, str], str] = field(default_factory=dict, repr=False)  # one variable per value

    def __post_init__(self) -> None:
        named = sorted(((v, k) for k, v in self.variables.items() if v), key=lambda pair: -len(pair[0]))
        self._names = dict(named)
        self._pattern = re.compile("|".join(re.escape(value) for value, _ in named)) if named else None

    def apply(self, data: dict[str, Any], address: str) -> dict[str, Any]:
        """`data` (a file's content) with references in place of values."""
        result: dict[str, Any] = self._value(data, address, ())
        return result

    def _value(self, value: Any, address: str, path: tuple[str, ...]) -> Any:
        if isinstance(value, str):
            return self._text_with_secrets(value, address, path)
        if isinstance(value, list):
            return [self._value(item, address, path) for item in value]
        if not isinstance(value, dict):
            return value
        in_parameters = bool(path) and path[-1] in PARAMETER_KEYS
        return {
            key: self._secret(address, (*path, str(key)), item)
            if in_parameters and isinstance(item, str) and is_secret(str(key), item)
            else self._value(item, address, (*path, str(key)))
            for key, item in value.items()
        }

    def text(self, text: str) -> str:
        """Live text as a file must hold it to read back the same: escapes, then var references."""
        escaped = _READ_AS_REFERENCE.sub("$${", text) if "${" in text else text
        if self._pattern is None:
            return escaped
        return self._pattern.sub(lambda match: f"${{var.{self._names[match.group(0)]}}}", escaped)

    def _text_with_secrets(self, text: str, address: str, path: tuple[str, ...]) -> str:
        """Live text (a description, an Owner, a column comment, a location) with each secret its
        shape gives away (a URL's password, `Password=...`) replaced by an `${env.NAME}` reference,
        the rest written as it reads."""
        spans = secret_spans(text) if path and path[-1] in FREE_TEXT else []
        if not spans:
            return self.text(text)
        pieces, done = [], 0
        for start, end in spans:
            pieces += [self.text(text[done:start]), self._secret(address, path or ("value",), text[start:end])]
            done = end
        return "".join([*pieces, self.text(text[done:])])

    def _secret(self, address: str, path: tuple[str, ...], value: str) -> str:
        """`${env.NAME}` for a secret value; the same value under the same key of one table (each of
        its partitions, say) is one variable."""
        known = self._named.get((address, path[-1], value))
        if known is not None:
            return f"${{env.{known}}}"
        base = re.sub(r"[^A-Z0-9]+", "_", f"{address}_{path[-1]}".upper()).strip("_")
        name = base if base[:1].isalpha() else f"GLUECAT_{base}"
        taken = {secret.variable for secret in self.secrets}
        candidate, number = name, 2
        while candidate in taken:
            candidate, number = f"{name}_{number}", number + 1
        self.secrets.append(Secret(candidate, f"{address} {'.'.join(path)}"))
        self._named[(address, path[-1], value)] = candidate
        return f"${{env.{candidate}}}"


def is_secret(key: str, value: str) -> bool:
    """A parameter import must not write: its key looks secret, or its value holds something that
    does (a URL's password, `password=` in a connection string, a signature)."""
    return is_secret_key(key) or (bool(value) and scrub(value) != value)
