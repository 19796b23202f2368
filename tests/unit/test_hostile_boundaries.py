"""Failures from below gluecat become GluecatErrors at the boundary, whatever they derive from."""

from __future__ import annotations

import pytest

from gluecat.backends.delta import rust_panics_as
from gluecat.errors import LiveStateError


def _raise_panic() -> None:
    # The shape pyo3 gives a Rust panic: a BaseException named PanicException.
    panic = type("PanicException", (BaseException,), {})
    raise panic("called `Option::unwrap()` on a `None` value")


def test_a_rust_panic_becomes_a_live_state_error() -> None:
    with pytest.raises(LiveStateError, match="deltalake failed inside its Rust code"), rust_panics_as("cannot read"):
        _raise_panic()


def test_other_base_exceptions_pass_through() -> None:
    with pytest.raises(KeyboardInterrupt), rust_panics_as("cannot read"):
        raise KeyboardInterrupt
