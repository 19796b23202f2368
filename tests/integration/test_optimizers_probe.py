"""What a new user writes wrong in `optimizers:`: a role's bare name is told what a role ARN looks
like, at its file:line, in one line."""

from __future__ import annotations

from pathlib import Path

from tests.integration.helpers import gluecat

EVENTS = """\
format: iceberg
location: s3://lake/lake/events
columns:
  - {name: id, type: bigint}
optimizers:
  role_arn: glue-optimizer
  compaction: {}
"""


def test_a_role_name_instead_of_its_arn_says_what_an_arn_looks_like(tmp_path: Path) -> None:
    root = tmp_path / "project"
    (root / "lake/tables").mkdir(parents=True)
    (root / "catalog.yaml").write_text("region: us-east-1\nsandbox: true\n")
    (root / "lake/database.yaml").write_text("location: s3://lake/lake/\n")
    (root / "lake/tables/events.yaml").write_text(EVENTS)
    result = gluecat("validate", str(root))
    assert result.exit_code == 1
    assert "events.yaml:6:" in result.output
    assert "'glue-optimizer' is not an IAM role ARN: use arn:aws:iam::ACCOUNT:role/NAME" in result.output
    assert "characters" not in result.output
