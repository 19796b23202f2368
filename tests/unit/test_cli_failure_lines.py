"""Apply's failure report: one line per failure, but not ten thousand lines of one error."""

from __future__ import annotations

from gluecat.apply.run import Failure
from gluecat.cli.planning import failure_lines

UNREACHABLE = "BatchFailed: cannot reach Glue: Could not connect to the endpoint URL"


def test_a_shared_error_names_a_few_addresses_and_counts_the_rest() -> None:
    failures = [Failure(f"sales.orders[dt={day}]", UNREACHABLE) for day in range(10_717)]
    failures.insert(3, Failure("sales.refunds", "ConcurrentModificationException: changed meanwhile"))

    lines = failure_lines(failures)

    assert lines == [
        *(f"failed sales.orders[dt={day}]: {UNREACHABLE}" for day in range(5)),
        f"failed 10,712 more with the same error: {UNREACHABLE}",
        "failed sales.refunds: ConcurrentModificationException: changed meanwhile",
    ]


def test_a_few_failures_are_each_a_line() -> None:
    failures = [Failure(f"sales.orders[dt={day}]", UNREACHABLE) for day in range(5)]
    assert failure_lines(failures) == [f"failed sales.orders[dt={day}]: {UNREACHABLE}" for day in range(5)]
