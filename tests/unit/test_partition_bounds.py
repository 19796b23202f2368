"""A range's first and last values, computed without yielding those between, are the ones it yields."""

from __future__ import annotations

from datetime import datetime, timedelta

from hypothesis import given, settings
from hypothesis import strategies as st

from gluecat.model.partitions import Range

moments = st.datetimes(min_value=datetime(1990, 1, 1), max_value=datetime(2040, 12, 31))


@settings(max_examples=300, deadline=None)
@given(
    start=moments,
    span_hours=st.integers(min_value=0, max_value=24 * 900),
    every=st.sampled_from(["hour", "day", "month", "year"]),
    step=st.integers(min_value=1, max_value=40),
    format=st.sampled_from([None, "%Y/%m/%d %H", "%Y%m"]),
)
def test_date_range_bounds_are_its_first_and_last_values(
    start: datetime, span_hours: int, every: str, step: int, format: str | None
) -> None:
    end = start + timedelta(hours=span_hours)
    spelled = {"from": start.strftime("%Y-%m-%d %H:%M:%S"), "to": end.strftime("%Y-%m-%d %H:%M:%S")}
    axis = Range.model_validate({**spelled, "every": every, "step": step, "format": format})
    values = list(axis.values())
    assert axis.bounds() == (values[0], values[-1])


@settings(max_examples=200, deadline=None)
@given(
    start=st.integers(min_value=-1000, max_value=1000),
    length=st.integers(min_value=0, max_value=3000),
    step=st.integers(min_value=1, max_value=50),
    width=st.one_of(st.none(), st.integers(min_value=1, max_value=6)),
)
def test_integer_range_bounds_are_its_first_and_last_values(
    start: int, length: int, step: int, width: int | None
) -> None:
    axis = Range.model_validate({"from": start, "to": start + length, "step": step, "width": width})
    values = list(axis.values())
    assert axis.bounds() == (values[0], values[-1])


def test_a_month_range_whose_last_step_lands_past_its_end_stops_before_it() -> None:
    axis = Range.model_validate({"from": "2000-01-12 05:00:00", "to": "2000-03-01 00:00:00", "every": "month"})
    assert list(axis.values()) == ["2000-01", "2000-02"]
    assert axis.count() == 2 and axis.bounds() == ("2000-01", "2000-02")
