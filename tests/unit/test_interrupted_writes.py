"""Ctrl-C may land between any two bytecodes of a file write (Python runs a signal's handler there):
wherever it lands, the directory holds the old file or the new one, and never a temporary file."""

from __future__ import annotations

import sys
from pathlib import Path
from types import FrameType
from typing import Any

import pytest

from gluecat.secrets import files
from gluecat.secrets.files import Writer


def _interrupt_at(step: int) -> Any:
    """A tracer that raises KeyboardInterrupt at the `step`th bytecode of the write that makes and
    renames the file, as a signal handler would; how many bytecodes it saw."""
    seen = [0]

    def trace(frame: FrameType, event: str, _arg: object) -> Any:
        if frame.f_code not in (files._replace.__code__, files._fill.__code__):
            return None
        frame.f_trace_opcodes = True
        if event == "opcode":
            seen[0] += 1
            if seen[0] == step:
                raise KeyboardInterrupt
        return trace

    return trace, seen


def _write(root: Path, step: int) -> int:
    trace, seen = _interrupt_at(step)
    sys.settrace(trace)
    try:
        with Writer(root) as writer:
            writer.write(root / "tables" / "orders.yaml", "new")
    except KeyboardInterrupt:
        pass
    finally:
        sys.settrace(None)
    return seen[0]


@pytest.mark.parametrize("existing", [None, "old"], ids=["new file", "over a file"])
def test_an_interrupt_at_any_bytecode_of_a_write_leaves_no_temporary_file(tmp_path: Path, existing: str | None) -> None:
    root = tmp_path / "project"
    (root / "tables").mkdir(parents=True)
    if existing is not None:
        (root / "tables" / "orders.yaml").write_text(existing)
    steps = _write(root, step=-1)  # never interrupted: how many bytecodes a write runs
    assert steps > 20
    for step in range(1, steps + 1):
        if existing is not None:
            (root / "tables" / "orders.yaml").write_text(existing)
        _write(root, step)
        left = sorted(path.name for path in (root / "tables").iterdir())
        assert left in ([], ["orders.yaml"]) if existing is None else left == ["orders.yaml"], (step, left)
        if left:
            assert (root / "tables" / "orders.yaml").read_text() in ("new", existing or "new"), step
