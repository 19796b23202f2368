"""Messages from libraries as plain text: deltalake embeds ANSI colour codes and indented causes."""

from __future__ import annotations

import re

ANSI_ESCAPE = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]")


def strip_ansi(text: str) -> str:
    return ANSI_ESCAPE.sub("", text)


def one_line(text: str) -> str:
    """Colour codes dropped, lines joined: `Generic S3 error ↳ Error performing ...`."""
    return " ".join(line.strip() for line in strip_ansi(text).splitlines() if line.strip())


def counted(count: int, noun: str, plural: str | None = None) -> str:
    """`1 table`, `2 tables`, `1,200 partitions`."""
    return f"{count:,} {noun if count == 1 else plural or noun + 's'}"


def counted_phrase(count: int, phrase: str) -> str:
    """A plural noun phrase, then maybe a past participle, counted: `1 table created`, `1,200 tables
    created`, `1 LF-tag assignment created`, `1 list of data lake administrators updated`. The noun
    made singular is the phrase's head: the word before `of`, else the last word before the verb."""
    words = phrase.split(" ")
    verb = words.pop() if len(words) > 1 and words[-1].endswith("ed") else None
    head = words.index("of") - 1 if "of" in words[1:] else len(words) - 1
    if count == 1:
        words[head] = singular(words[head])
    return " ".join([f"{count:,}", *words, *([verb] if verb else [])])


def singular(noun: str) -> str:
    """`tables` -> `table`, `indexes` -> `index`, `policies` -> `policy`."""
    if noun.endswith(("xes", "sses", "ches", "shes")):
        return noun[:-2]
    if noun.endswith("ies"):
        return noun[:-3] + "y"
    return noun.removesuffix("s")


# pydantic's framing of a message ("Value error, ...", "..., unable to interpret input"), which says
# nothing to someone editing a YAML file or typing a command.
_PYDANTIC_FRAMING = re.compile(r"^(?:Value|Assertion) error, |, unable to (?:interpret input|parse string as an? \w+)")


def pydantic_plain(message: str) -> str:
    """A pydantic error message as gluecat says it: `true or false`, no framing."""
    return _PYDANTIC_FRAMING.sub("", message).replace("a valid boolean", "true or false")
