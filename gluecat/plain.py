"""Messages from libraries as plain text: deltalake embeds ANSI colour codes and indented causes."""

from __future__ import annotations

import re

ANSI_ESCAPE = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]")


def strip_ansi(text: str) -> str:
    return ANSI_ESCAPE.sub("", text)


def one_line(text: str) -> str:
    """Colour codes dropped, lines joined: `Generic S3 error ↳ Error performing ...`."""
    return " ".join(line.strip() for line in strip_ansi(text).splitlines() if line.strip())
