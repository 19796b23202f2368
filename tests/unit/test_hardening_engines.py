"""An exception from an engine library is recognised by where it was raised and becomes one line
naming the table; one raised in gluecat's own code is a bug, and is not hidden."""

from __future__ import annotations

import pyarrow as pa
import pytest
from botocore.exceptions import ClientError
from pyiceberg.utils.datetime import date_str_to_days

from gluecat.apply.failures import engine_failure


def _raised(action: object) -> Exception:
    with pytest.raises(Exception) as caught:
        action()  # type: ignore[operator]
    assert isinstance(caught.value, Exception)
    return caught.value


def test_a_pyarrow_error_names_the_table_and_the_library() -> None:
    failure = engine_failure(_raised(lambda: pa.array([1, "x"])), "lake.events")
    assert failure is not None
    assert str(failure).startswith("lake.events: pyarrow failed (ArrowInvalid): Could not convert")


def test_a_plain_value_error_raised_inside_pyiceberg_is_pyicebergs() -> None:
    failure = engine_failure(_raised(lambda: date_str_to_days("x")), "lake.events")
    assert failure is not None and "pyiceberg failed (ValueError): Invalid isoformat string" in str(failure)


def test_a_botocore_error_is_one_line_with_secrets_scrubbed() -> None:
    error = ClientError(
        {"Error": {"Code": "InternalFailure", "Message": "boom\nat https://bob:hunter22@glue.local/"}}, "UpdateTable"
    )
    failure = engine_failure(error, "sales.orders")
    assert failure is not None
    text = str(failure)
    assert "\n" not in text and "hunter22" not in text
    assert text.startswith("sales.orders: botocore failed (ClientError): An error occurred (InternalFailure)")


def test_gluecats_own_errors_are_not_taken_for_an_engines() -> None:
    def ours() -> None:
        raise KeyError("desired")

    assert engine_failure(_raised(ours), "sales.orders") is None
