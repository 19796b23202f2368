"""Any `${env.NAME}` value, short or long, is masked as the value it is: machine output stays valid
JSON and markdown, gluecat's own words stay whole, and the value is not shown where it sits."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gluecat.sandbox.server import LocalGlue
from gluecat.secrets import redact
from tests.integration.helpers import gluecat, write_project

TABLE = """\
storage: parquet
columns: [{name: id, type: bigint}]
parameters:
  owner_contact: ${env.GLUECAT_TEST_SECRET}
  note: "token=${env.GLUECAT_TEST_SECRET};"
"""
# Printable text with JSON's and markdown's own characters in it, and a little beyond ASCII.
VALUES = st.text(
    alphabet=st.characters(min_codepoint=32, max_codepoint=0x2FF, blacklist_categories=("Cs",)), min_size=1, max_size=40
).filter(lambda value: value.strip() == value and "${" not in value and "$" not in value)


@pytest.fixture
def project(tmp_path: Path, server: LocalGlue) -> Iterator[Path]:
    root = write_project(tmp_path, server.endpoint_url, {
        "sales/database.yaml": "location: s3://lake/sales/\n", "sales/tables/orders.yaml": TABLE})  # fmt: skip
    yield root
    os.environ.pop("GLUECAT_TEST_SECRET", None)


def _strings(value: object) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield key
            yield from _strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(secret=VALUES)
def test_any_secret_value_leaves_plan_json_valid_and_unshown(project: Path, secret: str) -> None:
    redact.forget_all()
    os.environ["GLUECAT_TEST_SECRET"] = secret
    planned = gluecat("plan", str(project), "--format", "json")
    assert planned.exit_code == 0, planned.output
    document = json.loads(planned.stdout)  # never cut into by masking
    (change,) = [c for c in document["changes"] if c["address"] == "sales.orders"]
    parameters = change["desired"]["Parameters"]
    assert parameters["owner_contact"] == "(sensitive:GLUECAT_TEST_SECRET)"
    assert secret not in list(_strings(document)), "the value is shown as a whole value somewhere"
    if len(secret) >= 4:
        assert not any(secret in text for text in _strings(document)), "the value is shown inside a value"
        assert parameters["note"] == "token=(sensitive:GLUECAT_TEST_SECRET);"
    human = gluecat("plan", str(project))
    assert "gluecat will change" in human.stdout or "will create" in human.stdout or "Plan:" in human.stdout
    assert "Plan: 2 to create" in human.stdout, human.stdout  # gluecat's own words and numbers stay whole
