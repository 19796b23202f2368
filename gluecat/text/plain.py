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
    """`tables created` counted: `1 table created`, `1,200 tables created` (the first word is the plural noun)."""
    noun, _, rest = phrase.partition(" ")
    singular = noun.removesuffix("es") if noun.endswith("xes") else noun.removesuffix("s")  # indexes -> index
    words = counted(count, singular, noun)
    return f"{words} {rest}" if rest else words
