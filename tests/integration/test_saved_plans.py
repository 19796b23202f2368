"""Saved plans: private files, bound to the catalog they were made for, refused when edited by hand."""

from __future__ import annotations

import json
import shutil
import stat
from pathlib import Path
from typing import Any

import boto3
import pytest

from gluecat.sandbox.server import LocalGlue
from tests.integration.helpers import ORDERS, gluecat, sales_project


def _tables(raw_glue: Any) -> set[str]:
    return {t["Name"] for t in raw_glue.get_tables(DatabaseName="sales")["TableList"]}


def test_a_saved_plan_is_private_and_carries_its_binding(tmp_path: Path, server: LocalGlue) -> None:
    root = sales_project(tmp_path / "project", server.endpoint_url)
    plan_file = tmp_path / "plan.json"
    plan_file.write_text("an older file, readable by all\n")
    plan_file.chmod(0o644)
    assert gluecat("plan", str(root), "--out", str(plan_file)).exit_code == 0
    assert stat.S_IMODE(plan_file.stat().st_mode) == 0o600
    document = json.loads(plan_file.read_text())
    assert document["binding"] == {
        "root": str(root.resolve()),
        "catalog": "123456789012",
        "region": "us-east-1",
        "endpoint": server.endpoint_url,
    }
    assert document["digest"].startswith("sha256:")
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == [], "no temporary file left behind"


def test_out_into_a_missing_directory_fails_before_reading_anything(tmp_path: Path, server: LocalGlue) -> None:
    root = sales_project(tmp_path / "project", server.endpoint_url)
    server.reset_counts()
    result = gluecat("plan", str(root), "--out", str(tmp_path / "missing" / "plan.json"))
    assert result.exit_code == 1
    assert f"directory {tmp_path / 'missing'} does not exist" in result.output
    assert "Traceback" not in result.output
    assert sum(server.calls().values()) == 0
    not_a_file = gluecat("plan", str(root), "--out", str(tmp_path))
    assert not_a_file.exit_code == 1 and "that is a directory" in not_a_file.output


def test_a_plan_edited_by_hand_is_refused(tmp_path: Path, server: LocalGlue, raw_glue: Any) -> None:
    root = sales_project(tmp_path / "project", server.endpoint_url)
    assert gluecat("apply", str(root), "--auto-approve").exit_code == 0
    (root / "sales/tables/orders.yaml").write_text(ORDERS.replace("name: dt, type: string", "name: dt, type: date"))
    plan_file = tmp_path / "plan.json"
    assert gluecat("plan", str(root), "--out", str(plan_file)).exit_code == 0
    # Turn the destructive replace into an innocent-looking update, to slip past --allow-destroy.
    plan_file.write_text(plan_file.read_text().replace('"action": "replace"', '"action": "update"'))
    refused = gluecat("apply", str(plan_file))
    assert refused.exit_code == 1
    assert "digest does not match" in refused.output and "Traceback" not in refused.output
    live = raw_glue.get_table(DatabaseName="sales", Name="orders")["Table"]
    assert live["PartitionKeys"][0]["Type"] == "string", "nothing was changed"
    assert len(raw_glue.get_partitions(DatabaseName="sales", TableName="orders")["Partitions"]) == 10


def test_a_plan_applies_to_the_project_it_was_made_in_not_one_at_the_same_relative_path(
    tmp_path: Path, server: LocalGlue, raw_glue: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    first, second = tmp_path / "first", tmp_path / "second"
    sales_project(first / "catalogs/prod", server.endpoint_url)
    # Another checkout whose catalog at the same relative path points elsewhere (nothing listens there).
    sales_project(second / "catalogs/prod", "http://127.0.0.1:9")
    monkeypatch.chdir(first)
    assert gluecat("plan", "catalogs/prod", "--out", "plan.json").exit_code == 0
    monkeypatch.chdir(second)
    applied = gluecat("apply", str(first / "plan.json"))
    assert applied.exit_code == 0, applied.output
    assert _tables(raw_glue) == {"orders", "customers"}


def test_a_plan_is_refused_for_another_catalog_or_account(
    tmp_path: Path, server: LocalGlue, raw_glue: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = sales_project(tmp_path / "project", server.endpoint_url)
    plan_file = tmp_path / "plan.json"
    assert gluecat("plan", str(root), "--out", str(plan_file)).exit_code == 0

    catalog = root / "catalog.yaml"
    planned_settings = catalog.read_text()
    catalog.write_text(planned_settings + 'catalog_id: "444455556666"\n')
    other_catalog = gluecat("apply", str(plan_file))
    assert other_catalog.exit_code == 1
    assert "was made for catalog 123456789012 in us-east-1" in other_catalog.output
    assert "444455556666" in other_catalog.output
    catalog.write_text(planned_settings)

    # Credentials of another account, as a different AWS_PROFILE would bring.
    sts = boto3.client("sts", endpoint_url=server.endpoint_url, region_name="us-east-1")
    other = sts.assume_role(RoleArn="arn:aws:iam::222233334444:role/deployer", RoleSessionName="deploy")["Credentials"]
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", other["AccessKeyId"])
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", other["SecretAccessKey"])
    monkeypatch.setenv("AWS_SESSION_TOKEN", other["SessionToken"])
    other_account = gluecat("apply", str(plan_file))
    assert other_account.exit_code == 1
    assert "catalog 222233334444" in other_account.output and "nothing was changed" in other_account.output
    assert "sales" not in {d["Name"] for d in raw_glue.get_databases()["DatabaseList"]}


def test_a_plan_whose_project_is_gone_is_refused(tmp_path: Path, server: LocalGlue) -> None:
    root = sales_project(tmp_path / "project", server.endpoint_url)
    plan_file = tmp_path / "plan.json"
    assert gluecat("plan", str(root), "--out", str(plan_file)).exit_code == 0
    shutil.move(root, tmp_path / "moved")
    refused = gluecat("apply", str(plan_file))
    assert refused.exit_code == 1 and "which is not there" in refused.output
