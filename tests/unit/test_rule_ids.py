"""Lint rules declare their own ids: every id a finding can carry is declared, `lint: {allow: [...]}`
accepts each of them, and the documentation's rule table is the declarations'."""

from __future__ import annotations

import ast
import importlib
import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from gluecat.cli import app
from gluecat.lint.rules import Finding as LintFinding
from gluecat.lint.rules import rule_ids, rule_table
from gluecat.project.checks import Hit
from gluecat.project.projection_check import Problem
from gluecat.project.rule_ids import declared
from tests.unit.test_validate import make_project

ROOT = Path(__file__).parents[2]
PACKAGE = ROOT / "gluecat"
# What each lint record is called and where its rule id sits among the positional arguments.
RULE_ARGUMENT = {"Hit": 1, "Problem": 1, "Finding": 2}
LINT_RECORDS = {"Hit": Hit, "Problem": Problem, "Finding": LintFinding}


def _rule_arguments(tree: ast.Module, others: frozenset[str] = frozenset()) -> list[tuple[int, ast.expr]]:
    """The rule argument of every call that builds a lint record in a module (`others`: the record
    names that are another class there, such as a plan's impact `Finding`, whose rules are not lint's)."""
    found: list[tuple[int, ast.expr]] = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Name):
            continue
        position = RULE_ARGUMENT.get(node.func.id)
        if position is None or node.func.id in others:
            continue
        named = [k.value for k in node.keywords if k.arg == "rule"]
        if named:
            found.append((node.lineno, named[0]))
        elif len(node.args) > position:
            found.append((node.lineno, node.args[position]))
    return found


def test_every_rule_a_lint_record_carries_is_declared() -> None:
    named: list[tuple[str, str, object]] = []  # where, the constant's name, its value
    problems = []
    for path in sorted(p for p in PACKAGE.rglob("*.py") if p.name != "__main__.py"):  # that one runs the CLI
        module_name = ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")
        module = importlib.import_module(module_name)
        # a name bound to another class is not a lint record (unbound: imported where it is used)
        others = frozenset(name for name, cls in LINT_RECORDS.items() if getattr(module, name, cls) is not cls)
        for line, argument in _rule_arguments(ast.parse(path.read_text(encoding="utf-8")), others):
            where = f"{path.relative_to(ROOT)}:{line}"
            if isinstance(argument, ast.Constant):
                problems.append(f"{where}: rule {argument.value!r} is a bare string; declare it (rule_ids.declare)")
            elif isinstance(argument, ast.Name) and argument.id.isupper():
                named.append((where, argument.id, getattr(module, argument.id, None)))
            else:
                named.append((where, "", None))
    known = declared()  # every rule module is imported by now
    problems += [f"{where}: {name} = {value!r} is not a declared rule id" for where, name, value in named
                 if name and value not in known]  # fmt: skip
    assert not problems, "\n".join(problems)
    assert len(named) > 40  # the scan saw the rules (a renamed record would otherwise pass it silently)


def test_the_scan_finds_an_undeclared_rule() -> None:
    tree = ast.parse('yield Hit(("name",), "made-up-rule", "message")\nFinding(p, "error", "other", "m")')
    assert sorted(ast.literal_eval(a) for _, a in _rule_arguments(tree)) == ["made-up-rule", "other"]


def test_rules_gluecat_emits_are_declared() -> None:
    # the two the hand-kept list had missed, and one from each home of rules
    for rule in ("optimizer-sort-order", "partition-index", "lf-tag-value", "engine-trino", "schema", "region"):
        assert rule in rule_ids()


def test_every_declared_rule_is_accepted_by_lint_allow(tmp_path: Path) -> None:
    ids = sorted(rule_ids())
    allow = "lint:\n  allow: [" + ", ".join(ids) + "]\n"
    root = make_project(
        tmp_path, {"sales/tables/orders.yaml": "storage: parquet\ncolumns:\n  - {name: id, type: bigint}\n" + allow}
    )
    result = CliRunner().invoke(app, ["validate", str(root), "--format", "json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["findings"] == []


def test_an_unknown_rule_in_lint_allow_is_named(tmp_path: Path) -> None:
    allow = "lint:\n  allow: [optimizer-sort-ordr]\n"
    root = make_project(
        tmp_path, {"sales/tables/orders.yaml": "storage: parquet\ncolumns:\n  - {name: id, type: bigint}\n" + allow}
    )
    result = CliRunner().invoke(app, ["validate", str(root)])
    assert result.exit_code == 1
    assert (
        "unknown lint rule 'optimizer-sort-ordr' in `lint.allow` — did you mean 'optimizer-sort-order'?"
        in result.output
    )


@pytest.mark.parametrize(
    ("table", "rule"),
    [
        (
            """\
            format: iceberg
            columns: [{name: id, type: bigint}]
            optimizers: {role_arn: "arn:aws:iam::123456789012:role/glue-optimizer", compaction: {strategy: z-order}}
            """,
            "optimizer-sort-order",
        ),
        (
            """\
            storage: parquet
            columns: [{name: id, type: bigint}]
            partition_indexes: [{name: by_dt, keys: [dt]}]
            """,
            "partition-index",
        ),
    ],
)
def test_allowing_a_rule_the_old_list_refused_excuses_its_finding(tmp_path: Path, table: str, rule: str) -> None:
    root = make_project(tmp_path, {"sales/tables/orders.yaml": table})
    before = CliRunner().invoke(app, ["validate", str(root), "--format", "json"])
    assert rule in [f["rule"] for f in json.loads(before.stdout)["findings"]], before.stdout
    path = root / "sales/tables/orders.yaml"
    path.write_text(path.read_text(encoding="utf-8") + f"lint:\n  allow: [{rule}]\n", encoding="utf-8")
    after = CliRunner().invoke(app, ["validate", str(root), "--format", "json"])
    assert after.exit_code == 0, after.output
    assert json.loads(after.stdout)["findings"] == []


def test_the_documented_table_is_the_declarations() -> None:
    page = (ROOT / "docs" / "reference" / "lint-rules.md").read_text(encoding="utf-8")
    match = re.search(r"<!-- rule ids:[^>]*-->\n(.*?)\n<!-- end of rule ids -->", page, re.S)
    assert match, "docs/reference/lint-rules.md has no rule id table"
    assert match.group(1) == rule_table(), "the documented rule table differs: run python docs/gen_reference.py"
