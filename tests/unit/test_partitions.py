from __future__ import annotations

import textwrap
from collections import deque
from datetime import datetime, timedelta
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from gluecat.model import HiveTable, PartitionGenerator, Range
from gluecat.model.partitions import expand_partitions, partition_count
from gluecat.project.load import load_project


def test_date_range_crossed_with_values() -> None:
    generator = PartitionGenerator(expand={"dt": Range(start="2024-02-27", end="2024-03-01"), "region": ["eu", "us"]})
    expanded = list(expand_partitions([generator], ["dt", "region"]))
    assert [values for values, _ in expanded] == [
        ("2024-02-27", "eu"),
        ("2024-02-27", "us"),
        ("2024-02-28", "eu"),
        ("2024-02-28", "us"),
        ("2024-02-29", "eu"),
        ("2024-02-29", "us"),
        ("2024-03-01", "eu"),
        ("2024-03-01", "us"),
    ]


def test_month_hour_and_integer_ranges() -> None:
    months = Range(start="2024-11-01", end="2025-02-01", every="month")
    assert list(months.values()) == ["2024-11", "2024-12", "2025-01", "2025-02"]
    hours = Range(start="2024-01-01T22:00:00", end="2024-01-02T01:00:00", every="hour")
    assert list(hours.values()) == [
        "2024-01-01-22",
        "2024-01-01-23",
        "2024-01-02-00",
        "2024-01-02-01",
    ]
    formatted = Range(start="2024-01-01", end="2024-01-02", format="%Y/%m/%d")
    assert list(formatted.values()) == ["2024/01/01", "2024/01/02"]
    numbers = Range(start=1, end=10, step=3, width=2)
    assert list(numbers.values()) == ["01", "04", "07", "10"]


def test_a_million_partitions_from_a_few_lines(tmp_path: Path) -> None:
    (tmp_path / "catalog.yaml").write_text("region: eu-west-1\n")
    tables = tmp_path / "logs" / "tables"
    tables.mkdir(parents=True)
    (tmp_path / "logs" / "database.yaml").write_text("location: s3://lake/logs/\n")
    (tables / "hits.yaml").write_text(
        textwrap.dedent(
            """\
            storage: parquet
            partition_keys:
              - {name: hour, type: string}
              - {name: shard, type: string}
            partitions:
              - expand:
                  hour: {from: 2020-01-01T00:00:00, to: 2022-11-07T15:00:00, every: hour}
                  shard: {from: 0, to: 39}
            """
        )
    )
    project = load_project(tmp_path)
    table = project.databases[0].tables[0].model
    assert isinstance(table, HiveTable) and table.partitions is not None
    assert partition_count(table.partitions) == 25_000 * 40
    expanded = expand_partitions(table.partitions, ["hour", "shard"])
    assert next(expanded) == (("2020-01-01-00", "0"), None)
    assert deque(expanded, maxlen=1).pop() == (("2022-11-07-15", "39"), None)


def test_explicit_entries_keep_their_location() -> None:
    table = HiveTable.model_validate(
        {
            "name": "t",
            "storage": "parquet",
            "partition_keys": [{"name": "dt", "type": "string"}],
            "partitions": [{"values": {"dt": "2024-01-01"}, "location": "s3://b/x/"}],
        }
    )
    assert table.partitions is not None
    assert list(expand_partitions(table.partitions, ["dt"])) == [(("2024-01-01",), "s3://b/x/")]


def test_every_date_spelling_parses_as_strptime_reads_it() -> None:
    spellings = {
        "2024-03-05": "2024-03-05T00:00:00",
        "2024-03": "2024-03-01T00:00:00",
        "2024-03-05T07": "2024-03-05T07:00:00",
        "2024-03-05T07:08:09": "2024-03-05T07:08:09",
        "2024-03-05 07:08:09": "2024-03-05T07:08:09",
        "2024-3-5": "2024-03-05T00:00:00",  # single digits: the strptime path
    }
    for text, moment in spellings.items():
        assert Range(start=text, end=text).model_dump()["start"] == text
        assert list(Range(start=text, end=text, every="hour", format="%Y-%m-%dT%H:%M:%S").values()) == [moment]


def test_impossible_dates_are_refused_with_the_format_to_use() -> None:
    for text in ("2024-02-30", "2024-13", "2024-03-05T25", "2024-03-05 07"):
        with pytest.raises(ValidationError, match="is not a date: write it as YYYY-MM-DD"):
            Range(start=text, end="2025-01-01")


@settings(max_examples=400, deadline=None)
@given(
    unit=st.sampled_from(["int", "hour", "day", "month", "year"]),
    start=st.datetimes(min_value=datetime(2019, 1, 1), max_value=datetime(2026, 12, 31)),
    span_hours=st.integers(min_value=0, max_value=24 * 800),
    step=st.integers(min_value=1, max_value=9),
)
def test_a_range_counts_exactly_the_values_it_yields(unit: str, start: datetime, span_hours: int, step: int) -> None:
    """A plan that found every declared partition in place skips expanding the generators on the
    strength of this count, so it must never be below what the range yields."""
    end = start + timedelta(hours=span_hours)
    if unit == "int":
        bounds: dict[str, object] = {"from": start.hour * 7, "to": start.hour * 7 + span_hours // 24}
    elif unit == "hour":
        bounds = {"from": start.strftime("%Y-%m-%dT%H"), "to": end.strftime("%Y-%m-%dT%H"), "every": "hour"}
    else:
        bounds = {"from": start.date().isoformat(), "to": end.date().isoformat()}
        if unit != "day":
            bounds["every"] = unit
    values = Range.model_validate({**bounds, "step": step})
    assert values.count() == len(list(values.values()))
