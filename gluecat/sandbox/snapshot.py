"""The sandbox's state on disk, saved atomically.

Layout under `.gluecat/sandbox/`:
- `state.json`: the Glue catalog and, per bucket, each object key -> the SHA-256 of its body;
- `objects/ab/abcdef...`: object bodies by content, written once and never changed.

Every file is written inside the state directory only (never through a link that leaves it), 0600 in
0700 directories: the state holds parameter values such as passwords. A save writes the bodies it
lacks, then a new `state.json` beside the old one (fsync), then renames it over the old one: a
reader or a crash sees the old state or the new one, never a mix. Bodies the new state no longer
names are removed afterwards. The layout of earlier versions (`glue.json` + `s3/<bucket>/<key>`
files) is still read.
"""

from __future__ import annotations

import hashlib
import json
import shutil
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from gluecat.sandbox import fastjson
from gluecat.secrets.files import write_inside

STATE_FILE = "state.json"
OBJECTS = "objects"
FORMAT = 3  # 3: the parts partitions share, once (`shared`)
LEGACY_GLUE, LEGACY_S3 = "glue.json", "s3"


@dataclass
class Bucket:
    account: str
    name: str
    region: str
    objects: dict[str, str] = field(default_factory=dict)  # key -> body digest
    legacy_dir: Path | None = None  # an earlier layout's bucket directory, read as files

    def as_json(self) -> dict[str, Any]:
        return {"account": self.account, "name": self.name, "region": self.region, "objects": self.objects}


@dataclass
class Snapshot:
    glue: list[dict[str, Any]]
    buckets: list[Bucket]
    partition_indexes: list[dict[str, Any]] = field(default_factory=list)  # kept by the strict layer
    shared: list[Any] = field(default_factory=list)  # parts partitions share (gluecat/sandbox/compact.py)


def body_path(state: Path, digest: str) -> Path:
    return state / OBJECTS / digest[:2] / digest


def store_body(state: Path, body: bytes) -> str:
    """Keep one object body by its digest (once); return the digest."""
    digest = hashlib.sha256(body).hexdigest()
    target = body_path(state, digest)
    if not target.exists():
        write_inside(state, target, body, private=True)
    return digest


def write_snapshot(state: Path, snapshot: Snapshot) -> None:
    """Replace `state.json` in one rename, then drop bodies and earlier layouts nothing names."""
    document = {
        "format": FORMAT,
        "glue": snapshot.glue,
        "buckets": [bucket.as_json() for bucket in snapshot.buckets],
        "partition_indexes": snapshot.partition_indexes,
        "shared": snapshot.shared,
    }
    write_inside(state, state / STATE_FILE, fastjson.dumps(document), private=True)
    _remove_unreferenced(state, {d for bucket in snapshot.buckets for d in bucket.objects.values()})
    (state / LEGACY_GLUE).unlink(missing_ok=True)
    shutil.rmtree(state / LEGACY_S3, ignore_errors=True)


def _remove_unreferenced(state: Path, keep: set[str]) -> None:
    objects = state / OBJECTS
    if not objects.is_dir():
        return
    for path in objects.glob("*/*"):
        if path.name not in keep:
            path.unlink(missing_ok=True)


def read_snapshot(state: Path, legacy_region: str, legacy_account: str) -> Snapshot | None:
    """The saved state, or None when there is none yet."""
    document_path = state / STATE_FILE
    if document_path.is_file():
        document = json.loads(document_path.read_text(encoding="utf-8"))
        buckets = [Bucket(**bucket) for bucket in document["buckets"]]
        return Snapshot(document["glue"], buckets, document.get("partition_indexes", []), document.get("shared", []))
    if (state / LEGACY_GLUE).is_file() or (state / LEGACY_S3).is_dir():
        return _read_legacy(state, legacy_region, legacy_account)
    return None


def read_bodies(state: Path, bucket: Bucket) -> Iterator[tuple[str, bytes]]:
    if bucket.legacy_dir is not None:
        for path in sorted(p for p in bucket.legacy_dir.rglob("*") if p.is_file()):
            yield path.relative_to(bucket.legacy_dir).as_posix(), path.read_bytes()
        return
    for key, digest in bucket.objects.items():
        yield key, body_path(state, digest).read_bytes()


def _read_legacy(state: Path, region: str, account: str) -> Snapshot:
    """The layout before `state.json`: Glue inputs in `glue.json`, objects as plain files."""
    glue: list[dict[str, Any]] = []
    catalog_file = state / LEGACY_GLUE
    if catalog_file.is_file():
        catalog = json.loads(catalog_file.read_text(encoding="utf-8"))
        databases = {
            database["Name"]: {"name": database["Name"], "input": database, "tables": []}
            for database in catalog["databases"]
        }
        for table in catalog["tables"]:
            version = str(table["version"])
            databases[table["database"]]["tables"].append(
                {
                    "name": table["input"]["Name"],
                    "versions": {version: table["input"]},
                    "current": version,
                    "partitions": table["partitions"],
                }
            )
        glue.append({"account": account, "region": region, "databases": list(databases.values())})
    directories = sorted(p for p in (state / LEGACY_S3).glob("*") if p.is_dir())
    return Snapshot(glue, [Bucket(account, d.name, region, legacy_dir=d) for d in directories])
