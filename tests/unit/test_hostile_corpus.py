"""A fuzzer's corpus over the example catalog: every input ends in exit 0 or 1 with a message.

Mutations (fixed seed) of random bytes, lines, keys and values, plus the hostile
classes by hand: alias bombs, control bytes, non-UTF-8, deep nesting, huge
generators, calendar edges, empty keys, rich markup. validate runs in-process;
a sample also goes through `plan` against the local Glue.
"""

from __future__ import annotations

import random
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from gluecat.cli import app
from gluecat.sandbox.server import LocalGlue

EXAMPLE = Path(__file__).parents[2] / "catalogs" / "example"
SEED = 20240229
RANDOM_MUTATIONS = 320
PLAN_SAMPLE = 12

HOSTILE_VALUES = [
    "[/]",
    "[bold]x[/bold]",
    "[link=file:///etc/passwd]x",
    '""',
    "''",
    "~",
    "\x00",
    "\x1b[31mred",
    "\u202e",
    "0001-01-01",
    "9999-12-31",
    "2023-02-29",
    "2024-02-29",
    "yes",
    "0777",
    "-.inf",
    "&a x",
    "*a",
    "!!python/object:os.system",
    "{" * 3000,
    "x" * 600_000,
    "array<" * 5000 + "int" + ">" * 5000,
    "{from: 0001-01-01, to: 9999-12-31, every: hour}",
    "{from: 9999-12-01, to: 9999-12-31}",
    "{from: 0001-01-01, to: 0001-03-01, every: month}",
    "{from: 1, to: 100000000000}",
    "{from: 1, to: 10, step: 0}",
    "{from: 1, to: 3, width: 100000000}",
    "[a, a, '']",
    "{'': x}",
]

HAND_MADE = {
    "alias bomb": "a: &a [x, x, x, x, x, x, x, x]\n"
    + "".join(f"a{i}: &a{i} [{', '.join(['*a' if i == 0 else f'*a{i - 1}'] * 9)}]\n" for i in range(30)),
    "nul bytes": "storage: parquet\x00\x00\n",
    "deep yaml": "storage: " + "[" * 50_000 + "]" * 50_000 + "\n",
    "deep block": "".join("  " * i + "- \n" for i in range(3000)),
    "empty key": ": parquet\n",
    "only a list": "- a\n- b\n",
    "two documents": "storage: parquet\n---\nstorage: orc\n",
    "tab indent": "columns:\n\t- {name: a, type: int}\n",
    "leap day partitions": "storage: parquet\npartition_keys: [{name: dt, type: string}]\npartitions:\n"
    "  - expand: {dt: {from: 2024-02-28, to: 2024-03-01}}\n  - values: {dt: '2024-02-29'}\n",
    "calendar edge": "storage: parquet\npartition_keys: [{name: dt, type: string}]\npartitions:\n"
    "  - expand: {dt: {from: 9999-12-01, to: 9999-12-31, every: month}}\n"
    "  - expand: {dt: {from: 0001-01-01, to: 0001-01-02}}\n",
    "generator past the limit": "storage: parquet\npartition_keys: [{name: a, type: int}, {name: b, type: int}]\n"
    "partitions:\n  - expand: {a: {from: 1, to: 100000}, b: {from: 1, to: 100000}}\n",
    "markup everywhere": 'storage: "[/]"\ndescription: "[bold]"\nlocation: "[red]s3://x"\n',
}


def _table_files() -> list[Path]:
    return sorted(EXAMPLE.glob("*/tables/*.yaml")) + sorted(EXAMPLE.glob("*/database.yaml"))


def _mutate(text: str, rng: random.Random) -> str:
    lines = text.splitlines(keepends=True) or ["\n"]
    kind = rng.choice(["byte", "delete line", "duplicate line", "swap lines", "key", "value", "indent", "truncate"])
    index = rng.randrange(len(lines))
    if kind == "byte":
        data = bytearray(text.encode("utf-8", "surrogateescape"))
        position = rng.randrange(len(data) or 1)
        data[position : position + 1] = bytes([rng.randrange(256)])
        return data.decode("utf-8", "surrogateescape")
    if kind == "delete line":
        del lines[index]
    elif kind == "duplicate line":
        lines.insert(index, lines[index])
    elif kind == "swap lines":
        other = rng.randrange(len(lines))
        lines[index], lines[other] = lines[other], lines[index]
    elif kind == "key" and ":" in lines[index]:
        key, _, rest = lines[index].partition(":")
        lines[index] = key.rstrip() + rng.choice(["x", "", "_", "'", " [/]"]) + ":" + rest
    elif kind == "value" and ":" in lines[index]:
        key, _, _rest = lines[index].partition(":")
        lines[index] = f"{key}: {rng.choice(HOSTILE_VALUES)}\n"
    elif kind == "indent":
        lines[index] = " " * rng.randrange(1, 5) + lines[index]
    else:
        return text[: rng.randrange(len(text) or 1)]
    return "".join(lines)


def _corpus() -> list[tuple[str, str, str]]:
    """(case id, file relative to the catalog, new content)."""
    rng = random.Random(SEED)
    files = _table_files()
    cases = []
    for number in range(RANDOM_MUTATIONS):
        path = rng.choice(files)
        text = path.read_text(encoding="utf-8")
        for _ in range(rng.randrange(1, 4)):
            text = _mutate(text, rng)
        cases.append((f"mutation-{number}", str(path.relative_to(EXAMPLE)), text))
    for name, text in HAND_MADE.items():
        cases.append((name, "sales/tables/orders.yaml", text))
    return cases


CORPUS = _corpus()


def _write(root: Path, relative: str, content: str) -> None:
    shutil.copytree(EXAMPLE, root, ignore=shutil.ignore_patterns(".gluecat"))
    (root / relative).write_bytes(content.encode("utf-8", "surrogateescape"))


def _assert_clean_exit(output: str, exit_code: int | None, exception: BaseException | None) -> None:
    assert exit_code in (0, 1), output
    assert exception is None or isinstance(exception, SystemExit), repr(exception)
    assert "Traceback" not in output
    assert "unexpected error" not in output


def test_the_corpus_is_large_enough() -> None:
    assert len(CORPUS) >= 300


@pytest.mark.parametrize(("case", "relative", "content"), CORPUS, ids=[c[0] for c in CORPUS])
def test_validate_survives(tmp_path: Path, case: str, relative: str, content: str) -> None:
    root = tmp_path / "catalog"
    _write(root, relative, content)
    result = CliRunner().invoke(app, ["validate", str(root)])
    _assert_clean_exit(result.output, result.exit_code, result.exception)
    if result.exit_code == 1:
        assert ":" in result.output.splitlines()[0], "an error names its file and position"


PLAN_CASES = random.Random(SEED).sample(CORPUS[:RANDOM_MUTATIONS], PLAN_SAMPLE) + CORPUS[RANDOM_MUTATIONS:]


@pytest.mark.parametrize(("case", "relative", "content"), PLAN_CASES, ids=[c[0] for c in PLAN_CASES])
def test_plan_survives(tmp_path: Path, server: LocalGlue, case: str, relative: str, content: str) -> None:
    root = tmp_path / "catalog"
    _write(root, relative, content)
    (root / "catalog.yaml").write_text(f"region: us-east-1\nendpoint_url: {server.endpoint_url}\n")
    result = CliRunner().invoke(app, ["plan", str(root)])
    _assert_clean_exit(result.output, result.exit_code, result.exception)
