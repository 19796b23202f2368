"""Real-world Glue table definitions, each recorded as the TableInput Glue holds, with its source."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

CORPUS_DIR = Path(__file__).parent


def load_corpus() -> list[dict[str, Any]]:
    """Every entry, sorted by file name; each carries its file name under `file`."""
    entries = []
    for path in sorted(CORPUS_DIR.glob("*.json")):
        entry = json.loads(path.read_text(encoding="utf-8"))
        entry["file"] = path.name
        entries.append(entry)
    return entries
