"""Optimizers compared by meaning: the model, the configuration sent, the changes planned, the block imported."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import ValidationError

from gluecat.changes.impact import Impact
from gluecat.changes.model import Action
from gluecat.kinds.glue_diff import ABSENT
from gluecat.kinds.iceberg.optimizers import configuration, fingerprint, optimizer_changes, optimizers_block
from gluecat.model.optimizers import Optimizers

ROLE = "arn:aws:iam::123456789012:role/glue-optimizer"
OTHER_ROLE = "arn:aws-cn:iam::210987654321:role/service/maintenance"
LOCATION = "s3://lake/warehouse/lake.db/events"


def _declared(**blocks: Any) -> Optimizers:
    return Optimizers.model_validate({"role_arn": ROLE, **blocks})


def _live(declared: Optimizers) -> dict[str, dict[str, Any]]:
    return {kind: configuration(declared, kind) for kind in declared.declared()}


def _changes(declared: Optimizers, live: dict[str, dict[str, Any]]) -> list[Any]:
    return list(optimizer_changes("lake", "events", declared, live, LOCATION))


def test_the_configuration_sent_holds_what_the_yaml_says_and_no_more() -> None:
    declared = Optimizers.model_validate(
        {
            "role_arn": ROLE,
            "vpc_connection": "lake-vpc",
            "compaction": {"strategy": "z-order", "delete_file_threshold": 5},
            "retention": {"enabled": False, "role_arn": OTHER_ROLE, "clean_expired_files": True},
        }
    )
    assert configuration(declared, "compaction") == {
        "enabled": True,
        "roleArn": ROLE,
        "vpcConfiguration": {"glueConnectionName": "lake-vpc"},
        "compactionConfiguration": {"icebergConfiguration": {"strategy": "z-order", "deleteFileThreshold": 5}},
    }
    assert configuration(declared, "retention") == {
        "enabled": False,
        "roleArn": OTHER_ROLE,
        "vpcConfiguration": {"glueConnectionName": "lake-vpc"},
        "retentionConfiguration": {"icebergConfiguration": {"cleanExpiredFiles": True}},
    }


@pytest.mark.parametrize(
    ("block", "words"),
    [
        ({"compaction": {}}, "needs a role"),
        ({"role_arn": "arn:aws:iam::123456789012:user/someone", "compaction": {}}, "not an IAM role ARN"),
        ({"role_arn": ROLE, "compaction": {"strategy": "zorder"}}, "z-order"),
        ({"role_arn": ROLE, "retention": {"run_rate_hours": 2}}, "greater than or equal to 3"),
        ({"role_arn": ROLE, "orphan_file_deletion": {"run_rate_hours": 169}}, "less than or equal to 168"),
        ({"role_arn": ROLE, "retention": {"snapshots_to_retain": 0}}, "greater than or equal to 1"),
        ({"role_arn": ROLE, "compaction": {"target_file_size": 512}}, "Extra inputs"),
    ],
)
def test_bad_values_are_refused(block: dict[str, Any], words: str) -> None:
    with pytest.raises(ValidationError) as raised:
        Optimizers.model_validate(block)
    assert words in str(raised.value)


def test_a_role_on_every_optimizer_needs_none_for_the_block() -> None:
    declared = Optimizers.model_validate({"compaction": {"role_arn": ROLE}})
    assert declared.role_for("compaction") == ROLE


def test_what_gluecat_applied_plans_clean() -> None:
    declared = _declared(compaction={"strategy": "sort"}, retention={"snapshot_retention_days": 3},
                         orphan_file_deletion={"location": LOCATION + "/data"})  # fmt: skip
    assert _changes(declared, _live(declared)) == []


def test_defaults_written_out_mean_the_same_as_left_out() -> None:
    console = {
        "compaction": {
            "enabled": True,
            "roleArn": ROLE,
            "compactionConfiguration": {
                "icebergConfiguration": {"strategy": "binpack", "minInputFiles": 100, "deleteFileThreshold": 1}
            },
        },
        "orphan_file_deletion": {
            "enabled": True,
            "roleArn": ROLE,
            "orphanFileDeletionConfiguration": {
                "icebergConfiguration": {
                    "orphanFileRetentionPeriodInDays": 3,
                    "runRateInHours": 24,
                    "location": LOCATION + "/",
                }
            },
        },
    }
    assert _changes(_declared(compaction={}, orphan_file_deletion={}), console) == []


def test_each_type_is_its_own_change_with_the_fields_that_differ() -> None:
    before = _declared(compaction={"strategy": "sort"}, retention={}, orphan_file_deletion={})
    after = _declared(compaction={"strategy": "binpack"}, retention={})
    changes = _changes(after, _live(before))
    assert [(c.address, c.kind, c.action) for c in changes] == [
        ("lake.events:compaction", "optimizer", Action.UPDATE),
        ("lake.events:orphan_file_deletion", "optimizer", Action.DELETE),
    ]
    assert [(d.path, d.before, d.after) for d in changes[0].diffs] == [("strategy", "sort", "binpack")]
    assert changes[0].live_version == fingerprint(_live(before)["compaction"])
    deleted = changes[1]
    assert (deleted.destructive, deleted.impact) == (False, Impact.SAFE)
    assert [f.rule for f in deleted.findings] == ["optimizer-removed"]


def test_a_table_without_optimizers_gets_them_created() -> None:
    changes = _changes(_declared(compaction={}, retention={}), {})
    assert [(c.action, c.live_version) for c in changes] == [(Action.CREATE, ABSENT), (Action.CREATE, ABSENT)]
    assert changes[1].desired == {
        "Type": "retention",
        "TableOptimizerConfiguration": {
            "enabled": True,
            "roleArn": ROLE,
            "retentionConfiguration": {"icebergConfiguration": {}},
        },
    }


@pytest.mark.parametrize(
    ("was", "now", "impact"),
    [
        (None, {"snapshot_retention_days": 30}, Impact.BREAKING),  # expiry starts
        ({"snapshot_retention_days": 30}, {"snapshot_retention_days": 7}, Impact.BREAKING),
        ({"snapshots_to_retain": 10}, {"snapshots_to_retain": 10, "snapshot_retention_days": 7}, Impact.BREAKING),
        ({"snapshot_retention_days": 7}, {"snapshot_retention_days": 30}, Impact.SAFE),
        ({"snapshot_retention_days": 7}, {"snapshot_retention_days": 7, "run_rate_hours": 12}, Impact.SAFE),
        ({"enabled": False}, {}, Impact.BREAKING),  # a disabled optimizer switched on
        ({}, {"enabled": False}, Impact.SAFE),
    ],
)
def test_retention_is_breaking_when_it_expires_more(
    was: dict[str, Any] | None, now: dict[str, Any], impact: Impact
) -> None:
    live = {} if was is None else _live(_declared(retention=was))
    [change] = _changes(_declared(retention=now), live)
    assert change.impact is impact
    assert change.destructive is False


def test_the_imported_block_declares_what_is_live() -> None:
    declared = Optimizers.model_validate(
        {
            "role_arn": ROLE,
            "compaction": {"strategy": "sort", "min_input_files": 100},
            "retention": {"enabled": False, "role_arn": OTHER_ROLE, "snapshots_to_retain": 4},
            "orphan_file_deletion": {"location": LOCATION, "retention_days": 9},
        }
    )
    live = _live(declared)
    block = optimizers_block(live, LOCATION)
    assert block == {
        "compaction": {"strategy": "sort", "role_arn": ROLE},
        "retention": {"enabled": False, "role_arn": OTHER_ROLE, "snapshots_to_retain": 4},
        "orphan_file_deletion": {"role_arn": ROLE, "retention_days": 9},
    }
    assert _changes(Optimizers.model_validate(block), live) == []
    assert optimizers_block({}, LOCATION) is None
    shared = optimizers_block(_live(_declared(compaction={})), LOCATION)
    assert shared == {"role_arn": ROLE, "compaction": {}}
