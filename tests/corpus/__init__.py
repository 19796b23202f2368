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


def create_corpus(glue: Any) -> list[dict[str, Any]]:
    """Every corpus database, table and partition created in `glue` (a boto3 client); the entries."""
    corpus = load_corpus()
    for database in sorted({entry["database"] for entry in corpus}):
        glue.create_database(DatabaseInput={"Name": database})
    for entry in corpus:
        glue.create_table(DatabaseName=entry["database"], TableInput=entry["table_input"])
        if entry.get("partitions"):
            glue.batch_create_partition(DatabaseName=entry["database"], TableName=entry["table_input"]["Name"],
                                        PartitionInputList=entry["partitions"])  # fmt: skip
    return corpus
