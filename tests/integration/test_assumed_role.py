"""`role_arn` in catalog.yaml: every call is made as the assumed role, in the role's account."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import boto3

from gluecat.backends.connect import connect
from gluecat.project.load import load_project
from gluecat.sandbox.server import LocalGlue
from tests.integration.helpers import SALES_DB, gluecat, write_project

ROLE = "arn:aws:iam::222233334444:role/deployer"


def _names(glue: Any) -> set[str]:
    return {d["Name"] for d in glue.get_databases()["DatabaseList"]}


def test_the_catalog_is_changed_as_the_assumed_role(tmp_path: Path, server: LocalGlue, raw_glue: Any) -> None:
    root = write_project(
        tmp_path, server.endpoint_url, {"sales/database.yaml": SALES_DB}, f"role_arn: {ROLE}\nexternal_id: ci\n"
    )
    with connect(load_project(root)) as connection:
        credentials = connection.session.get_credentials().get_frozen_credentials()
        assert credentials.access_key != "testing" and credentials.token, "the role's temporary credentials"
        assert connection.region == "us-east-1"

    applied = gluecat("apply", str(root), "--auto-approve")
    assert applied.exit_code == 0, applied.output

    sts = boto3.client("sts", endpoint_url=server.endpoint_url, region_name="us-east-1")
    role = sts.assume_role(RoleArn=ROLE, RoleSessionName="check")["Credentials"]
    as_role = boto3.client(
        "glue",
        endpoint_url=server.endpoint_url,
        region_name="us-east-1",
        aws_access_key_id=role["AccessKeyId"],
        aws_secret_access_key=role["SecretAccessKey"],
        aws_session_token=role["SessionToken"],
    )
    assert "sales" in _names(as_role), "written in the role's account"
    assert "sales" not in _names(raw_glue), "not in the caller's own"
    assert gluecat("plan", str(root), "--detailed-exitcode").exit_code == 0
