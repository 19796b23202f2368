"""Copy the emulator's Glue and S3 contents to and from plain data, inside the server process.

Going through moto's objects directly, not its HTTP API, keeps a restart cheap: moto
serialises a partition in about half a millisecond, so restoring and saving 10,000
partitions over HTTP took seconds where this takes a fraction of one. moto is pinned
below 6; the sandbox tests exercise every attribute used here.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from moto.glue.models import glue_backends
from moto.s3.models import FakeKey, s3_backends

from gluecat.sandbox.compact import SavedParts

GlueState = list[dict[str, Any]]
S3Object = tuple[str, str, bytes]  # bucket, key, body


def _every(backend_dict: Any) -> Iterator[tuple[str, str, Any]]:
    """(account, region, backend) for every backend moto has created so far."""
    return backend_dict.iter_backends()  # type: ignore[no-any-return]


def export_glue(parts: SavedParts) -> GlueState:
    """Every database, table (all its versions) and partition, per account and region; the parts
    partitions share, once each in `parts`."""
    catalogs = []
    for account, region, backend in _every(glue_backends):
        databases = [_export_database(database, parts) for database in list(backend.databases.values())]
        if databases:
            catalogs.append({"account": account, "region": region, "databases": databases})
    return catalogs


def _export_database(database: Any, parts: SavedParts) -> dict[str, Any]:
    tables = [
        {
            "name": table.name,
            "versions": dict(table.versions),
            "current": table._current_version,
            "partitions": [parts.out(partition.partition_input) for partition in list(table.partitions.values())],
        }
        for table in list(database.tables.values())
    ]
    return {"name": database.name, "input": database.input, "tables": tables}


def import_glue(catalogs: GlueState, parts: SavedParts) -> None:
    for catalog in catalogs:
        backend = glue_backends[catalog["account"]][catalog["region"]]
        for database in catalog["databases"]:
            backend.create_database(database["name"], database["input"])
            for table in database["tables"]:
                _import_table(backend, database["name"], table, parts)


def _import_table(backend: Any, database: str, table: dict[str, Any], parts: SavedParts) -> None:
    versions: dict[str, Any] = table["versions"]
    current = str(table["current"])
    created = backend.create_table(database, table["name"], versions[current])
    # Every version comes back under its own id, so a saved plan's VersionId still matches.
    created.versions = dict(versions)
    created._current_version = int(current)
    for partition_input in table["partitions"]:
        created.create_partition(parts.back(partition_input))


def export_buckets() -> list[dict[str, Any]]:
    """Every bucket: its account, name and region (objects come from `export_objects`)."""
    return [
        {"account": account, "name": bucket.name, "region": bucket.region_name}
        for account, _, backend in _every(s3_backends)
        for bucket in list(backend.buckets.values())
    ]


def export_objects(account: str, bucket_name: str) -> Iterator[tuple[str, bytes]]:
    backend = s3_backends[account]["aws"]
    for key, item in list(backend.buckets[bucket_name].keys.items()):
        if isinstance(item, FakeKey):
            yield key, item.value


def import_bucket(account: str, name: str, region: str, objects: Iterator[tuple[str, bytes]]) -> None:
    backend = s3_backends[account]["aws"]
    backend.create_bucket(name, region)
    for key, body in objects:
        backend.put_object(name, key, body)
