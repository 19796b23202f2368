"""Hive type strings: parse into a tree, print canonically, compare normalised.

Glue stores column types as Hive type strings. Engines and crawlers write the
same type in different spellings (``DECIMAL(10, 2)``, ``decimal(10,2)``,
``integer``), so gluecat compares parsed trees, never raw text.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from gluecat.model.suggest import closest, either

PRIMITIVES = (
    "tinyint",
    "smallint",
    "int",
    "bigint",
    "float",
    "double",
    "boolean",
    "string",
    "binary",
    "timestamp",
    "date",
)
# Iceberg types that Hive type strings have no word for (Iceberg columns only).
ICEBERG_ONLY = ("timestamptz", "uuid")
ALIASES = {"integer": "int", "double precision": "double", "bool": "boolean"}
PARAMETERISED = ("decimal", "char", "varchar")
NESTED = ("array", "map", "struct")
KNOWN_TYPE_NAMES = PRIMITIVES + PARAMETERISED + NESTED

MAX_DECIMAL_PRECISION = 38
MAX_CHAR_LENGTH = 255
MAX_VARCHAR_LENGTH = 65535
# Nesting of array/map/struct. Real schemas stay under a dozen levels; the bound
# keeps the recursive parser (and everything that walks its tree) off Python's
# recursion limit whatever a file holds.
MAX_TYPE_DEPTH = 100
_SHOWN_CHARS = 80
_PLAIN_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_NUMBER = re.compile(r"\d+")


class HiveTypeError(ValueError):
    """A type string that is not a valid Hive type; the message says what would be."""


@dataclass(frozen=True)
class Primitive:
    name: str


@dataclass(frozen=True)
class Decimal:
    precision: int = 10
    scale: int = 0


@dataclass(frozen=True)
class Char:
    length: int


@dataclass(frozen=True)
class Varchar:
    length: int


@dataclass(frozen=True)
class Array:
    element: HiveType


@dataclass(frozen=True)
class Map:
    key: HiveType
    value: HiveType


@dataclass(frozen=True)
class StructField:
    name: str
    type: HiveType


@dataclass(frozen=True)
class Struct:
    fields: tuple[StructField, ...]


HiveType = Primitive | Decimal | Char | Varchar | Array | Map | Struct


def suggest_type(word: str) -> str:
    """A ' — did you mean ...?' hint for an unknown type word, or ''."""
    matches = closest(word.lower(), KNOWN_TYPE_NAMES)
    return f" — did you mean {either(matches)}?" if matches else ""


class _Parser:
    """Recursive descent over the type string; positions are for messages only."""

    def __init__(self, text: str, extra_primitives: tuple[str, ...] = ()) -> None:
        self.text = text
        self.pos = 0
        self.primitives = PRIMITIVES + extra_primitives
        self.depth = 0

    def fail(self, message: str) -> HiveTypeError:
        shown = self.text if len(self.text) <= _SHOWN_CHARS else self.text[: _SHOWN_CHARS - 1] + "…"
        return HiveTypeError(f"invalid type '{shown}': {message}")

    def skip_spaces(self) -> None:
        while self.pos < len(self.text) and self.text[self.pos].isspace():
            self.pos += 1

    def peek(self) -> str:
        self.skip_spaces()
        return self.text[self.pos] if self.pos < len(self.text) else ""

    def expect(self, char: str) -> None:
        if self.peek() != char:
            found = repr(self.peek()) if self.peek() else "the end"
            raise self.fail(f"expected '{char}' at position {self.pos + 1}, found {found}")
        self.pos += 1

    def word(self) -> str:
        self.skip_spaces()
        match = _WORD.match(self.text, self.pos)
        if not match:
            found = repr(self.peek()) if self.peek() else "the end"
            raise self.fail(f"expected a type name at position {self.pos + 1}, found {found}")
        self.pos = match.end()
        return match.group(0).lower()

    def number(self) -> int:
        self.skip_spaces()
        match = _NUMBER.match(self.text, self.pos)
        if not match:
            raise self.fail(f"expected a number at position {self.pos + 1}")
        self.pos = match.end()
        return int(match.group(0))

    def parse(self) -> HiveType:
        result = self.type()
        if self.peek():
            raise self.fail(f"unexpected {self.peek()!r} at position {self.pos + 1}")
        return result

    def type(self) -> HiveType:
        self.depth += 1
        if self.depth > MAX_TYPE_DEPTH:
            raise self.fail(f"nested more than {MAX_TYPE_DEPTH} levels deep")
        try:
            return self.one_type()
        finally:
            self.depth -= 1

    def one_type(self) -> HiveType:
        name = self.word()
        if name == "double" and self.text[self.pos :].lstrip().lower().startswith("precision"):
            self.word()
            return Primitive("double")
        name = ALIASES.get(name, name)
        if name in self.primitives:
            return Primitive(name)
        if name == "decimal":
            return self.decimal()
        if name in ("char", "varchar"):
            return self.sized(name)
        if name == "array":
            self.expect("<")
            element = self.type()
            self.expect(">")
            return Array(element)
        if name == "map":
            return self.map()
        if name == "struct":
            return self.struct()
        if name in ICEBERG_ONLY:
            raise HiveTypeError(f"type '{name}' exists only for format: iceberg tables")
        raise HiveTypeError(f"unknown type '{name}'{suggest_type(name)}")

    def decimal(self) -> Decimal:
        if self.peek() != "(":
            return Decimal()
        self.expect("(")
        precision = self.number()
        scale = 0
        if self.peek() == ",":
            self.expect(",")
            scale = self.number()
        self.expect(")")
        if not 1 <= precision <= MAX_DECIMAL_PRECISION:
            raise self.fail(f"decimal precision must be 1..{MAX_DECIMAL_PRECISION}, not {precision}")
        if scale > precision:
            raise self.fail(f"decimal scale {scale} exceeds precision {precision}")
        return Decimal(precision, scale)

    def sized(self, name: str) -> Char | Varchar:
        self.expect("(")
        length = self.number()
        self.expect(")")
        limit = MAX_CHAR_LENGTH if name == "char" else MAX_VARCHAR_LENGTH
        if not 1 <= length <= limit:
            raise self.fail(f"{name} length must be 1..{limit}, not {length}")
        return Char(length) if name == "char" else Varchar(length)

    def map(self) -> Map:
        self.expect("<")
        key = self.type()
        self.expect(",")
        value = self.type()
        self.expect(">")
        if not isinstance(key, Primitive | Decimal | Char | Varchar):
            raise self.fail("map keys must be a primitive type")
        return Map(key, value)

    def struct(self) -> Struct:
        self.expect("<")
        fields: list[StructField] = []
        while True:
            name = self.field_name()
            self.expect(":")
            fields.append(StructField(name, self.type()))
            if self.peek() != ",":
                break
            self.expect(",")
        self.expect(">")
        return Struct(tuple(fields))

    def field_name(self) -> str:
        self.skip_spaces()
        if self.peek() == "`":
            return self.backticked()
        end = self.pos
        while end < len(self.text) and self.text[end] not in ":<>,":
            end += 1
        name = self.text[self.pos : end].strip()
        if not name:
            raise self.fail(f"expected a struct field name at position {self.pos + 1}")
        self.pos = end
        return name

    def backticked(self) -> str:
        self.pos += 1
        chars: list[str] = []
        while self.pos < len(self.text):
            char = self.text[self.pos]
            self.pos += 1
            if char != "`":
                chars.append(char)
            elif self.text[self.pos : self.pos + 1] == "`":
                chars.append("`")
                self.pos += 1
            else:
                return "".join(chars)
        raise self.fail("unterminated backtick in a struct field name")


def parse(text: str, iceberg: bool = False) -> HiveType:
    """Parse a Hive type string (with `timestamptz` and `uuid` when `iceberg`)."""
    if not isinstance(text, str) or not text.strip():
        raise HiveTypeError("a type is required, e.g. 'string' or 'bigint'")
    return _Parser(text, ICEBERG_ONLY if iceberg else ()).parse()


def _field_name(name: str) -> str:
    return name if _PLAIN_NAME.match(name) else "`" + name.replace("`", "``") + "`"


def render(hive_type: HiveType) -> str:
    """The canonical spelling: lowercase, no spaces, odd field names backticked."""
    match hive_type:
        case Primitive(name):
            return name
        case Decimal(precision, scale):
            return f"decimal({precision},{scale})"
        case Char(length):
            return f"char({length})"
        case Varchar(length):
            return f"varchar({length})"
        case Array(element):
            return f"array<{render(element)}>"
        case Map(key, value):
            return f"map<{render(key)},{render(value)}>"
        case Struct(fields):
            inner = ",".join(f"{_field_name(f.name)}:{render(f.type)}" for f in fields)
            return f"struct<{inner}>"
    raise AssertionError(hive_type)


def normalise(hive_type: HiveType) -> HiveType:
    """The form used for comparison: struct field names lowercased, as engines treat them."""
    match hive_type:
        case Array(element):
            return Array(normalise(element))
        case Map(key, value):
            return Map(normalise(key), normalise(value))
        case Struct(fields):
            return Struct(tuple(StructField(f.name.lower(), normalise(f.type)) for f in fields))
    return hive_type


@functools.lru_cache(maxsize=4096)  # a catalog spells the same few hundred types again and again
def canonical(text: str, iceberg: bool = False) -> str:
    """Parse and print: the spelling gluecat writes to Glue."""
    return render(parse(text, iceberg))


def same_type(left: str, right: str) -> bool:
    """True when two type strings mean the same type to Glue's engines."""
    return left == right or _same_parsed_type(left, right)


@functools.lru_cache(maxsize=4096)  # a plan compares every column: parsing each pair anew cost a 10,000-table plan 1 s
def _same_parsed_type(left: str, right: str) -> bool:
    try:
        return normalise(parse(left)) == normalise(parse(right))
    except HiveTypeError:
        return left.strip().lower() == right.strip().lower()
