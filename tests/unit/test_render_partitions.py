"""The terminal plan shows the first partitions of a table and counts the rest, whatever their kinds."""

from __future__ import annotations

from rich.console import Console

from gluecat.changes.model import PartitionChanges, PartitionWrite, Plan
from gluecat.render import human
from gluecat.render.text import PARTITIONS_SHOWN


def _shown(group: PartitionChanges) -> str:
    console = Console(record=True, width=200, color_system=None)
    human.render(Plan(catalog="c", partitions=(group,)), console)
    return console.export_text()


def test_the_first_partitions_are_listed_and_the_rest_counted_by_kind() -> None:
    creates = tuple(PartitionWrite((f"{n:02d}",), f"s3://b/t/n={n:02d}/") for n in range(PARTITIONS_SHOWN - 2))
    updates = tuple(PartitionWrite((f"u{n}",), f"s3://b/t/n=u{n}/", before=f"s3://old/u{n}/") for n in range(3))
    group = PartitionChanges("db", "t", ("n",), {}, creates, updates, deletes=(("d1",), ("d2",)), follows=(("f",),))
    text = _shown(group)
    assert "n=07/" in text and "s3://old/u0/ -> s3://b/t/n=u0/" in text and "s3://old/u1/" in text
    assert "u2" not in text and "d1" not in text  # beyond the first PARTITIONS_SHOWN
    assert "… and 4 more partitions of db.t (8 create, 4 update, 2 delete)" in text


def test_a_table_within_the_limit_has_no_count_line() -> None:
    group = PartitionChanges("db", "t", ("n",), {}, deletes=tuple((f"{n}",) for n in range(PARTITIONS_SHOWN)))
    text = _shown(group)
    assert "more partition" not in text and text.count("delete partition") == PARTITIONS_SHOWN
