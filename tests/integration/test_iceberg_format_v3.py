"""Iceberg format version 3 against the local Glue: an upgrade is its own change marked irreversible,
gated for the readers that cannot read v3 (`readers:`, `--fail-on breaking`, `allow_breaking`), a new
v3 table gets the same finding, a downgrade is refused at plan time, and apply upgrades only where the
pyiceberg gluecat runs can write v3 (else one line naming what cannot)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import boto3
import pyarrow as pa
from pyiceberg.catalog.glue import GlueCatalog
from pyiceberg.table.metadata import SUPPORTED_TABLE_FORMAT_VERSION

from gluecat.sandbox.server import LocalGlue
from tests.integration.helpers import gluecat, write_project

CLICKS = """\
format: iceberg
columns:
  - {name: user_id, type: bigint}
  - {name: page, type: string}
properties:
  format-version: "2"
"""
V3 = CLICKS.replace('format-version: "2"', 'format-version: "3"')
REF = "  - {name: ref, type: string}\n"
PYICEBERG_WRITES_V3 = SUPPORTED_TABLE_FORMAT_VERSION >= 3


def _project(tmp_path: Path, server: LocalGlue, table: str, readers: str) -> Path:
    files = {"lake/database.yaml": "location: s3://lake/lake.db/\n", "lake/tables/clicks.yaml": table}
    catalog = f"warehouse: s3://lake/warehouse\nreaders: {readers}\n"
    return write_project(tmp_path, server.endpoint_url, files, catalog)


def _table(server: LocalGlue) -> Any:
    client = boto3.client("glue", endpoint_url=server.endpoint_url, region_name="us-east-1")
    s3 = {"s3.endpoint": server.endpoint_url, "s3.access-key-id": "testing", "s3.secret-access-key": "testing"}
    return GlueCatalog("test", client=client, **s3, **{"s3.region": "us-east-1"}).load_table("lake.clicks")


def _write(root: Path, text: str) -> None:
    (root / "lake/tables/clicks.yaml").write_text(text)


def _plan(root: Path) -> dict[str, Any]:
    planned = gluecat("plan", str(root), "--format", "json")
    assert planned.exit_code == 0, planned.output
    return json.loads(planned.stdout)


def _upgraded_v2_table(tmp_path: Path, server: LocalGlue, readers: str) -> Path:
    root = _project(tmp_path, server, CLICKS, readers)
    assert gluecat("apply", str(root), "--auto-approve").exit_code == 0
    table = _table(server)
    table.append(pa.Table.from_pylist([{"user_id": 1, "page": "p1"}], schema=table.schema().as_arrow()))
    _write(root, V3)
    return root


def test_an_upgrade_to_v3_is_one_irreversible_change_the_gate_stops_for_athena(
    tmp_path: Path, server: LocalGlue, lake_bucket: str
) -> None:
    root = _upgraded_v2_table(tmp_path, server, "[athena, spark]")
    (change,) = _plan(root)["changes"]
    assert change["desired"]["ops"] == [{"op": "upgrade_format_version", "version": 3}], "its own change"
    assert change["reason"].startswith("irreversible:"), change
    assert change["impact"] == "breaking"
    (finding,) = change["findings"]
    assert finding["rule"] == "iceberg-format-v3" and finding["engines"] == ["athena"], finding
    assert "cannot be undone" in finding["message"] and "Athena cannot read" in finding["message"]

    human = gluecat("plan", str(root))
    assert "properties.format-version: 2 -> 3" in human.stdout
    assert "irreversible" in human.stdout and "iceberg-format-v3 (athena only):" in human.stdout, human.stdout
    gated = gluecat("plan", str(root), "--fail-on", "breaking")
    assert gated.exit_code == 1, gated.output
    assert "plan fails the gate (fail on breaking): lake.clicks (breaking)" in gated.output


def test_with_spark_readers_the_upgrade_stays_irreversible_and_the_gate_passes(
    tmp_path: Path, server: LocalGlue, lake_bucket: str
) -> None:
    root = _upgraded_v2_table(tmp_path, server, "[spark]")
    (change,) = _plan(root)["changes"]
    assert change["reason"].startswith("irreversible:") and change["impact"] == "breaking", change
    gated = gluecat("plan", str(root), "--fail-on", "breaking", "--detailed-exitcode")
    assert gated.exit_code == 2, gated.output  # changes to make, and the gate passes
    assert "irreversible" in gated.stdout and "iceberg-format-v3 (athena only):" in gated.stdout


def test_allow_breaking_lets_an_athena_project_upgrade(tmp_path: Path, server: LocalGlue, lake_bucket: str) -> None:
    root = _upgraded_v2_table(tmp_path, server, "[athena, spark]")
    _write(root, V3 + 'allow_breaking: "Athena no longer reads clicks"\n')
    gated = gluecat("plan", str(root), "--fail-on", "breaking")
    assert gated.exit_code == 0, gated.output
    assert "breaking, allowed: Athena no longer reads clicks" in gated.stdout


def test_apply_upgrades_only_where_pyiceberg_writes_v3(tmp_path: Path, server: LocalGlue, lake_bucket: str) -> None:
    root = _upgraded_v2_table(tmp_path, server, "[spark]")
    applied = gluecat("apply", str(root), "--auto-approve")
    if PYICEBERG_WRITES_V3:
        assert applied.exit_code == 0, applied.output
        assert _table(server).metadata.format_version == 3
        again = gluecat("plan", str(root), "--detailed-exitcode")
        assert again.exit_code == 0 and "No changes" in again.stdout, again.output
        return
    assert applied.exit_code == 1, applied.output
    refusals = [line for line in applied.output.splitlines() if "cannot upgrade a table to format-version 3" in line]
    assert refusals, applied.output
    assert "pyiceberg" in refusals[0] and "up to format-version 2" in refusals[0], refusals
    assert "Traceback" not in applied.output
    table = _table(server)
    assert table.metadata.format_version == 2, "nothing was changed"
    assert table.scan().to_arrow().column("page").to_pylist() == ["p1"]


def test_an_upgrade_beside_other_changes_waits_for_its_own_plan(
    tmp_path: Path, server: LocalGlue, lake_bucket: str
) -> None:
    root = _upgraded_v2_table(tmp_path, server, "[spark]")
    _write(root, V3.replace("  - {name: page, type: string}\n", "  - {name: page, type: string}\n" + REF))
    (change,) = _plan(root)["changes"]
    assert [op["op"] for op in change["desired"]["ops"]] == ["add_column"], change
    assert "format-version 3 is not part of this change" in change["reason"] and change["impact"] == "safe"
    assert gluecat("apply", str(root), "--auto-approve").exit_code == 0
    (upgrade,) = _plan(root)["changes"]
    assert upgrade["desired"]["ops"] == [{"op": "upgrade_format_version", "version": 3}]
    assert upgrade["reason"].startswith("irreversible:")


def test_a_new_v3_table_gets_the_same_finding(tmp_path: Path, server: LocalGlue, lake_bucket: str) -> None:
    root = _project(tmp_path, server, V3, "[athena, spark]")
    (change,) = [c for c in _plan(root)["changes"] if c["kind"] == "table"]
    assert change["action"] == "create" and change["impact"] == "breaking"
    (finding,) = change["findings"]
    assert finding["rule"] == "iceberg-format-v3" and finding["engines"] == ["athena"], finding
    assert "created at format-version 3" in finding["message"]
    assert gluecat("plan", str(root), "--fail-on", "breaking").exit_code == 1

    root = _project(tmp_path, server, V3, "[spark]")
    assert gluecat("plan", str(root), "--fail-on", "breaking").exit_code == 0
    applied = gluecat("apply", str(root), "--auto-approve")
    if PYICEBERG_WRITES_V3:
        assert applied.exit_code == 0, applied.output
        assert _table(server).metadata.format_version == 3
        return
    assert applied.exit_code == 1, applied.output
    assert "lake.clicks: pyiceberg" in applied.output and "cannot create a table at format-version 3" in applied.output
    assert "Traceback" not in applied.output


def _as_v3(server: LocalGlue) -> None:
    """The table as a writer that writes v3 leaves it (pyiceberg does not): its metadata file again,
    at format-version 3, and Glue's pointer moved to it."""
    glue = boto3.client("glue", endpoint_url=server.endpoint_url, region_name="us-east-1")
    s3 = boto3.client("s3", endpoint_url=server.endpoint_url, region_name="us-east-1")
    entry = glue.get_table(DatabaseName="lake", Name="clicks")["Table"]
    before = entry["Parameters"]["metadata_location"]
    bucket, _, key = before.removeprefix("s3://").partition("/")
    metadata = json.loads(s3.get_object(Bucket=bucket, Key=key)["Body"].read())
    metadata.update({"format-version": 3, "next-row-id": 0})
    after_key = key.rsplit("/", 1)[0] + "/99999-v3.metadata.json"
    s3.put_object(Bucket=bucket, Key=after_key, Body=json.dumps(metadata).encode())
    parameters = {**entry["Parameters"], "metadata_location": f"s3://{bucket}/{after_key}",
                  "previous_metadata_location": before}  # fmt: skip
    table_input = {k: entry[k] for k in ("Name", "TableType", "StorageDescriptor") if k in entry}
    glue.update_table(DatabaseName="lake", TableInput={**table_input, "Parameters": parameters})


def test_a_downgrade_from_v3_is_refused_at_plan_time_in_one_line(
    tmp_path: Path, server: LocalGlue, lake_bucket: str
) -> None:
    root = _project(tmp_path, server, CLICKS, "[spark]")
    assert gluecat("apply", str(root), "--auto-approve").exit_code == 0
    _as_v3(server)
    _write(root, V3)
    again = gluecat("plan", str(root), "--detailed-exitcode")
    assert again.exit_code == 0 and "No changes" in again.stdout, again.output

    _write(root, CLICKS)
    refused = gluecat("plan", str(root))
    assert refused.exit_code == 1, refused.output
    (line,) = [x for x in refused.output.splitlines() if "format-version 3 cannot go down to 2" in x]
    assert "lake.clicks" in line and "one-way" in line, line
    assert "Traceback" not in refused.output
    assert _table(server).metadata.format_version == 3


def test_a_change_to_a_v3_table_is_refused_in_one_line_where_pyiceberg_cannot_write_it(
    tmp_path: Path, server: LocalGlue, lake_bucket: str
) -> None:
    root = _project(tmp_path, server, CLICKS, "[spark]")
    assert gluecat("apply", str(root), "--auto-approve").exit_code == 0
    _as_v3(server)
    _write(root, V3 + "description: clicks\n")
    planned = gluecat("plan", str(root))
    assert planned.exit_code == 0 and "description: (absent) -> clicks" in planned.stdout, planned.output
    applied = gluecat("apply", str(root), "--auto-approve")
    if PYICEBERG_WRITES_V3:
        assert applied.exit_code == 0, applied.output
        return
    assert applied.exit_code == 1, applied.output
    line = "lake.clicks: pyiceberg"
    assert line in applied.output and "cannot commit to a format-version 3 table" in applied.output, applied.output
    assert "Traceback" not in applied.output
    assert "comment" not in _table(server).metadata.properties
