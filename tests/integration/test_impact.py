"""Impact of changes and the CI gate, planned against the strict local Glue."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from gluecat.sandbox.server import LocalGlue
from tests.integration.helpers import gluecat, write_project

BASE = [("a", "int"), ("b", "string"), ("c", "int")]
# change -> the desired columns (or other keys), and per storage the expected impact and rule
CHANGES: dict[str, dict[str, Any]] = {
    "add_at_end": {"columns": [*BASE, ("x", "string")]},
    "add_in_middle": {"columns": [("a", "int"), ("x", "string"), ("b", "string"), ("c", "int")]},
    "reorder": {"columns": [("b", "string"), ("a", "int"), ("c", "int")]},
    "rename": {"columns": [("a", "int"), ("b2", "string"), ("c", "int")]},
    "incompatible_type": {"columns": [("a", "int"), ("b", "int"), ("c", "int")]},
    "description": {"columns": BASE, "description": "now described"},
    "partition_key": {"columns": BASE, "keys": [("dt", "date")]},
}
EXPECTED = {
    ("csv", "add_at_end"): ("safe", "add-at-end"),
    ("csv", "add_in_middle"): ("breaking", "insert-by-position"),
    ("csv", "reorder"): ("breaking", "reorder-by-position"),
    ("csv", "rename"): ("safe", "rename-by-position"),
    ("csv", "incompatible_type"): ("breaking", "type-change-text"),
    ("parquet", "add_at_end"): ("safe", "add-at-end"),
    ("parquet", "add_in_middle"): ("safe", "add-by-name"),
    ("parquet", "reorder"): ("safe", "reorder-by-name"),
    ("parquet", "rename"): ("breaking", "rename-by-name"),
    ("parquet", "incompatible_type"): ("breaking", "type-change"),
    ("json", "add_at_end"): ("safe", "add-at-end"),
    ("json", "add_in_middle"): ("safe", "add-by-name"),
    ("json", "reorder"): ("safe", "reorder-by-name"),
    ("json", "rename"): ("breaking", "rename-by-name"),
    ("json", "incompatible_type"): ("breaking", "type-change-text"),
}
for _storage in ("csv", "parquet", "json"):
    EXPECTED[(_storage, "description")] = ("safe", "metadata-only")
    EXPECTED[(_storage, "partition_key")] = ("destructive", "partition-keys-change")


def _table_yaml(storage: str, columns: list[tuple[str, str]], description: str = "", keys: Any = None) -> str:
    lines = [f"storage: {storage}", "columns:"]
    lines += [f"  - {{name: {name}, type: {kind}}}" for name, kind in columns]
    lines += ["partition_keys:"] + [f"  - {{name: {n}, type: {t}}}" for n, t in keys or [("dt", "string")]]
    lines += [f"description: {description}"] if description else []
    return "\n".join(lines) + "\n"


def _plan_json(root: Path, *args: str) -> dict[str, Any]:
    planned = gluecat("plan", str(root), "--format", "json", *args)
    assert planned.exit_code in (0, 2), planned.output
    return json.loads(planned.stdout)  # type: ignore[no-any-return]


def _files(tables: dict[str, str]) -> dict[str, str]:
    return {
        "lake/database.yaml": "location: s3://lake/db/\n",
        **{f"lake/tables/{n}.yaml": t for n, t in tables.items()},
    }


def test_each_change_gets_its_impact_and_a_finding(tmp_path: Path, server: LocalGlue) -> None:
    names = {(storage, change): f"{storage}_{change}" for storage, change in EXPECTED}
    before = {name: _table_yaml(storage, BASE) for (storage, _), name in names.items()}
    root = write_project(tmp_path, server.endpoint_url, _files(before))
    assert gluecat("apply", str(root), "--auto-approve").exit_code == 0

    after = {}
    for (storage, change), name in names.items():
        spec = CHANGES[change]
        after[name] = _table_yaml(storage, spec["columns"], spec.get("description", ""), spec.get("keys"))
    write_project(tmp_path, server.endpoint_url, _files(after))
    changes = {c["table"]: c for c in _plan_json(root)["changes"]}

    for key, (impact, rule) in EXPECTED.items():
        change = changes[names[key]]
        assert change["impact"] == impact, (key, change["findings"])
        assert rule in [f["rule"] for f in change["findings"]], (key, change["findings"])
        assert all(f["message"] for f in change["findings"])


def test_findings_speak_to_the_reviewer(tmp_path: Path, server: LocalGlue) -> None:
    root = write_project(tmp_path, server.endpoint_url, _files({"events": _table_yaml("csv", BASE)}))
    assert gluecat("apply", str(root), "--auto-approve").exit_code == 0
    middle = [("a", "int"), ("x", "string"), ("b", "string"), ("c", "int")]
    write_project(tmp_path, server.endpoint_url, _files({"events": _table_yaml("csv", middle)}))

    human = gluecat("plan", str(root)).stdout
    assert "Breaking" in human
    assert "csv reads columns by position: inserting `x` before `b` shifts `b` and `c` in every existing file" in human
    markdown = gluecat("plan", str(root), "--format", "markdown").stdout
    assert "#### :warning: Breaking (1)" in markdown and "insert-by-position" in markdown
    assert _plan_json(root)["impact"] == "breaking"


def _gate_project(
    tmp_path: Path, endpoint: str, columns: list[tuple[str, str]], extra: str = "", catalog: str = ""
) -> Path:
    table = _table_yaml("csv", columns) + extra
    return write_project(tmp_path, endpoint, _files({"events": table}), catalog)


def test_fail_on_breaking_gates_breaking_and_destructive_plans(tmp_path: Path, server: LocalGlue) -> None:
    root = _gate_project(tmp_path, server.endpoint_url, BASE)
    assert gluecat("apply", str(root), "--auto-approve").exit_code == 0

    _gate_project(tmp_path, server.endpoint_url, [("x", "string"), *BASE])
    gated = gluecat("plan", str(root), "--fail-on", "breaking")
    assert gated.exit_code == 1
    assert "lake.events" in gated.output and "insert-by-position" in gated.stdout, "the plan is printed first"
    assert gluecat("plan", str(root), "--fail-on", "destructive").exit_code == 0

    (root / "lake/tables/events.yaml").write_text(_table_yaml("csv", BASE, keys=[("day", "string")]))
    assert gluecat("plan", str(root), "--fail-on", "breaking").exit_code == 1
    assert gluecat("plan", str(root), "--fail-on", "destructive").exit_code == 1


def test_fail_on_lets_safe_plans_through(tmp_path: Path, server: LocalGlue) -> None:
    root = _gate_project(tmp_path, server.endpoint_url, BASE)
    assert gluecat("apply", str(root), "--auto-approve").exit_code == 0
    _gate_project(tmp_path, server.endpoint_url, [*BASE, ("x", "string")])

    assert gluecat("plan", str(root), "--fail-on", "breaking").exit_code == 0
    assert gluecat("plan", str(root), "--fail-on", "breaking", "--detailed-exitcode").exit_code == 2


def test_policy_and_allow_breaking(tmp_path: Path, server: LocalGlue) -> None:
    policy = "policy: {fail_on: breaking}\n"
    root = _gate_project(tmp_path, server.endpoint_url, BASE, catalog=policy)
    assert gluecat("apply", str(root), "--auto-approve").exit_code == 0

    _gate_project(tmp_path, server.endpoint_url, [("b", "string"), ("a", "int"), ("c", "int")], catalog=policy)
    assert gluecat("plan", str(root)).exit_code == 1, "policy.fail_on gates without the flag"

    allowed = 'allow_breaking: "readers moved to events_v2"\n'
    _gate_project(tmp_path, server.endpoint_url, [("b", "string"), ("a", "int"), ("c", "int")], allowed, policy)
    planned = gluecat("plan", str(root))
    assert planned.exit_code == 0, planned.output
    assert "breaking, allowed: readers moved to events_v2" in planned.stdout
    change = _plan_json(root)["changes"][0]
    assert change["impact"] == "breaking" and change["allow_breaking"] == "readers moved to events_v2"


WIDE_BEFORE = "storage: parquet\ncolumns:\n  - {name: a, type: int}\n"


def test_readers_narrow_the_gate_to_the_engines_a_change_breaks(tmp_path: Path, server: LocalGlue) -> None:
    def project(readers: str) -> Path:
        return write_project(
            tmp_path,
            server.endpoint_url,
            {"lake/database.yaml": "location: s3://lake/lake/\n", "lake/tables/t.yaml": WIDE_BEFORE},
            catalog_extra=readers,
        )

    root = project("")
    assert gluecat("apply", str(root), "--auto-approve").exit_code == 0
    (root / "lake/tables/t.yaml").write_text(WIDE_BEFORE.replace("int", "bigint"))

    every_engine = gluecat("plan", str(root), "--fail-on", "breaking")
    assert every_engine.exit_code == 1, every_engine.output
    assert "type-widen-parquet (spark only):" in every_engine.output
    planned = json.loads(gluecat("plan", str(root), "--format", "json").stdout)
    (finding,) = planned["changes"][0]["findings"]
    assert finding["engines"] == ["spark"] and finding["impact"] == "breaking"

    project("readers: [athena, trino]\n")
    (root / "lake/tables/t.yaml").write_text(WIDE_BEFORE.replace("int", "bigint"))
    without_spark = gluecat("plan", str(root), "--fail-on", "breaking", "--detailed-exitcode")
    assert without_spark.exit_code == 2, without_spark.output  # changes, and the gate passes
    assert "type-widen-parquet (spark only):" in without_spark.output  # still shown to the reviewer

    project("readers: [spark]\n")
    (root / "lake/tables/t.yaml").write_text(WIDE_BEFORE.replace("int", "bigint"))
    assert gluecat("plan", str(root), "--fail-on", "breaking").exit_code == 1

    project("readers: [athena, sprak]\n")
    mistyped = gluecat("validate", str(root))
    assert mistyped.exit_code == 1 and "catalog.yaml:3:" in mistyped.output, mistyped.output
    assert "spark" in mistyped.output
