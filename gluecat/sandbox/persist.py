"""Restore the emulator from the project's saved state, and save it back (server side)."""

from __future__ import annotations

from pathlib import Path

from moto.core.models import DEFAULT_ACCOUNT_ID

from gluecat.sandbox import backends
from gluecat.sandbox.compact import SavedParts
from gluecat.sandbox.partition_indexes import PartitionIndexStore
from gluecat.sandbox.snapshot import Bucket, Snapshot, read_bodies, read_snapshot, store_body, write_snapshot


def restore(state: Path, region: str, indexes: PartitionIndexStore) -> None:
    snapshot = read_snapshot(state, legacy_region=region, legacy_account=DEFAULT_ACCOUNT_ID)
    if snapshot is None:
        return
    indexes.load(snapshot.partition_indexes)
    backends.import_glue(snapshot.glue, SavedParts(snapshot.shared))
    for bucket in snapshot.buckets:
        backends.import_bucket(bucket.account, bucket.name, bucket.region, read_bodies(state, bucket))


def save(state: Path, indexes: PartitionIndexStore) -> None:
    buckets = []
    for found in backends.export_buckets():
        bucket = Bucket(found["account"], found["name"], found["region"])
        for key, body in backends.export_objects(bucket.account, bucket.name):
            bucket.objects[key] = store_body(state, body)
        buckets.append(bucket)
    parts = SavedParts()
    glue = backends.export_glue(parts)
    write_snapshot(state, Snapshot(glue, buckets, indexes.export(), parts.held))
