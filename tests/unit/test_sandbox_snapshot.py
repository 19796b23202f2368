"""The sandbox state on disk: atomic replacement, bodies kept by content, the earlier layout still read."""

from __future__ import annotations

import json
import threading
from pathlib import Path

from gluecat.sandbox.snapshot import (
    STATE_FILE,
    Bucket,
    Snapshot,
    body_path,
    read_bodies,
    read_snapshot,
    store_body,
    write_snapshot,
)

GLUE = [{"account": "123456789012", "region": "us-east-1", "databases": [{"name": "sales", "input": {}, "tables": []}]}]


def _save(state: Path, objects: dict[str, bytes], glue: list[dict[str, object]] | None = None) -> None:
    bucket = Bucket("123456789012", "lake", "us-east-1")
    for key, body in objects.items():
        bucket.objects[key] = store_body(state, body)
    write_snapshot(state, Snapshot(glue if glue is not None else GLUE, [bucket]))


def test_a_saved_state_reads_back(tmp_path: Path) -> None:
    _save(tmp_path, {"a/1.json": b"one", "b/2.parquet": b"\x00two"})

    snapshot = read_snapshot(tmp_path, legacy_region="eu-west-1", legacy_account="1")
    assert snapshot is not None
    assert snapshot.glue == GLUE
    (bucket,) = snapshot.buckets
    assert (bucket.name, bucket.region) == ("lake", "us-east-1")
    assert dict(read_bodies(tmp_path, bucket)) == {"a/1.json": b"one", "b/2.parquet": b"\x00two"}


def test_no_state_yet_is_none(tmp_path: Path) -> None:
    assert read_snapshot(tmp_path / "missing", legacy_region="us-east-1", legacy_account="1") is None


def test_equal_bodies_are_stored_once_and_unreferenced_ones_are_dropped(tmp_path: Path) -> None:
    _save(tmp_path, {"x": b"same", "y": b"same", "z": b"gone soon"})
    assert len(list((tmp_path / "objects").glob("*/*"))) == 2

    _save(tmp_path, {"x": b"same"})
    remaining = list((tmp_path / "objects").glob("*/*"))
    assert [p.read_bytes() for p in remaining] == [b"same"]


def test_readers_never_see_a_missing_or_partial_state_while_it_is_saved(tmp_path: Path) -> None:
    _save(tmp_path, {"k": b"0"})
    state_file = tmp_path / STATE_FILE
    problems: list[str] = []
    saving = threading.Event()

    def read_continuously() -> None:
        while not saving.is_set():
            try:
                document = json.loads(state_file.read_bytes())
            except (OSError, ValueError) as exc:
                problems.append(repr(exc))
                return
            if document["glue"][0]["databases"][0]["name"] != "sales":
                problems.append("unexpected content")

    reader = threading.Thread(target=read_continuously)
    reader.start()
    big_glue = [dict(GLUE[0], padding="x" * 200_000)]
    for round_number in range(60):
        _save(tmp_path, {"k": str(round_number).encode()}, big_glue)
    saving.set()
    reader.join()

    assert problems == []
    assert not list(tmp_path.glob(".*.tmp")), "no temporary file is left behind"


def test_a_failed_save_leaves_the_previous_state(tmp_path: Path) -> None:
    _save(tmp_path, {"k": b"kept"})
    before = (tmp_path / STATE_FILE).read_bytes()

    circular: dict[str, object] = {}
    circular["self"] = circular
    try:
        _save(tmp_path, {"k": b"new"}, [circular])
    except ValueError:
        pass
    else:
        raise AssertionError("saving an unserialisable catalog must fail")

    assert (tmp_path / STATE_FILE).read_bytes() == before
    snapshot = read_snapshot(tmp_path, legacy_region="us-east-1", legacy_account="1")
    assert snapshot is not None
    assert dict(read_bodies(tmp_path, snapshot.buckets[0])) == {"k": b"kept"}


def test_the_earlier_layout_is_read_and_replaced_by_the_next_save(tmp_path: Path) -> None:
    legacy = {
        "databases": [{"Name": "sales", "LocationUri": "s3://lake/sales/"}],
        "tables": [{"database": "sales", "version": 3, "input": {"Name": "orders"}, "partitions": [{"Values": ["1"]}]}],
    }
    (tmp_path / "glue.json").write_text(json.dumps(legacy))
    (tmp_path / "s3" / "lake" / "warehouse").mkdir(parents=True)
    (tmp_path / "s3" / "lake" / "warehouse" / "f.json").write_bytes(b"{}")

    snapshot = read_snapshot(tmp_path, legacy_region="eu-west-1", legacy_account="123456789012")
    assert snapshot is not None
    (catalog,) = snapshot.glue
    assert catalog["region"] == "eu-west-1"
    (database,) = catalog["databases"]
    (table,) = database["tables"]
    assert table["current"] == "3"
    assert table["versions"]["3"] == {"Name": "orders"}
    assert table["partitions"] == [{"Values": ["1"]}]
    (bucket,) = snapshot.buckets
    assert dict(read_bodies(tmp_path, bucket)) == {"warehouse/f.json": b"{}"}

    _save(tmp_path, {"warehouse/f.json": b"{}"})
    assert not (tmp_path / "glue.json").exists()
    assert not (tmp_path / "s3").exists()


def test_bodies_live_under_their_digest(tmp_path: Path) -> None:
    digest = store_body(tmp_path, b"hello")
    assert body_path(tmp_path, digest).read_bytes() == b"hello"
    assert body_path(tmp_path, digest).parent.name == digest[:2]
