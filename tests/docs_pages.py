"""The code blocks of the documentation pages, with the marker comment that says what each one is.

A marker is an HTML comment on the line before a fence (invisible on the site), `key: value` pairs
separated by `;`:

- `<!-- validate: table over hive; fails: unknown type -->`: what a ```yaml snippet is (`catalog`,
  `database` or `table`; a table fragment is laid `over` a base table of that format) and, for a
  snippet shown as a mistake, the message validate must answer with;
- `<!-- write: shop/sales/tables/orders.yaml -->` and `<!-- file: PATH -->`: in a page that runs
  (the tutorial), write the snippet to PATH, or check that PATH holds exactly it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

DOCS = Path(__file__).resolve().parents[1] / "docs"
README = DOCS.parent / "README.md"
FENCE = re.compile(r"^(?P<indent>\s*)```(?P<lang>[\w-]*)\s*$")
MARKER = re.compile(r"^\s*<!--\s*(?P<body>.*?)\s*-->\s*$")


@dataclass(frozen=True)
class Block:
    page: Path
    line: int  # of the opening fence, 1-based
    lang: str
    text: str
    marker: dict[str, str] = field(default_factory=dict)

    @property
    def where(self) -> str:
        return f"{self.page.relative_to(DOCS.parent)}:{self.line}"


def _marker(line: str) -> dict[str, str]:
    match = MARKER.match(line)
    if not match:
        return {}
    pairs = [part.partition(":") for part in match.group("body").split(";")]
    return {key.strip(): value.strip() for key, _, value in pairs if key.strip()}


def blocks(page: Path) -> list[Block]:
    """Every fenced block of a page, dedented to its fence, with the marker before it."""
    lines = page.read_text(encoding="utf-8").splitlines()
    found: list[Block] = []
    index = 0
    while index < len(lines):
        match = FENCE.match(lines[index])
        if not match or not match.group("lang"):
            index += 1
            continue
        indent, start = match.group("indent"), index
        body: list[str] = []
        index += 1
        while index < len(lines) and lines[index].rstrip() != indent + "```":
            body.append(lines[index][len(indent) :] if lines[index].startswith(indent) else lines[index].lstrip())
            index += 1
        previous = next((lines[i] for i in range(start - 1, -1, -1) if lines[i].strip()), "")
        found.append(Block(page, start + 1, match.group("lang"), "\n".join(body) + "\n", _marker(previous)))
        index += 1
    return found


def pages() -> list[Path]:
    return sorted(DOCS.rglob("*.md"))


def yaml_blocks() -> list[Block]:
    return [block for page in [*pages(), README] for block in blocks(page) if block.lang == "yaml"]
