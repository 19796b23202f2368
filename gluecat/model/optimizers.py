"""Glue table optimizers of an Iceberg table (`optimizers:`): compaction, snapshot retention and
orphan-file deletion, run by Glue under the role given.

Fields and limits follow the AWS Glue API reference (TableOptimizerConfiguration,
IcebergCompactionConfiguration, IcebergRetentionConfiguration,
IcebergOrphanFileDeletionConfiguration): roleArn is 20 to 2,048 characters, the run
rates are 3 to 168 hours; a value left out is Glue's default (binpack, 100 input
files, 1 delete, every 24 hours, orphans kept 3 days; snapshots kept as the Iceberg
table's properties say, else 5 days and 1 snapshot).
"""

from __future__ import annotations

import re
from typing import Annotated, Literal

from pydantic import AfterValidator, Field, model_validator

from gluecat.model.base import Strict

OptimizerType = Literal["compaction", "retention", "orphan_file_deletion"]
OPTIMIZER_TYPES: tuple[OptimizerType, ...] = ("compaction", "retention", "orphan_file_deletion")
MIN_ROLE_ARN = 20
MAX_ROLE_ARN = 2048
MIN_RUN_RATE = 3
MAX_RUN_RATE = 168
# An IAM role: arn:<partition>:iam::<12-digit account>:role/<path/>name
ROLE_ARN = re.compile(r"^arn:aws[a-z-]*:iam::[0-9]{12}:role/[\w+=,.@/-]{1,512}$")


def _role_arn(value: str) -> str:
    # The shape first: a role's bare name (`glue-optimizer`) is told what an ARN looks like, not its length.
    if len(value) <= MAX_ROLE_ARN and not ROLE_ARN.match(value):
        raise ValueError(f"'{value}' is not an IAM role ARN: use arn:aws:iam::ACCOUNT:role/NAME")
    if not MIN_ROLE_ARN <= len(value) <= MAX_ROLE_ARN:
        raise ValueError(f"a role ARN is {MIN_ROLE_ARN} to {MAX_ROLE_ARN:,} characters; this one is {len(value):,}")
    return value


RoleArn = Annotated[str, AfterValidator(_role_arn)]
RunRate = Annotated[int, Field(ge=MIN_RUN_RATE, le=MAX_RUN_RATE, description="Hours between runs (3 to 168)")]


class _Optimizer(Strict):
    enabled: bool = Field(True, description="false: Glue keeps the optimizer but does not run it")
    role_arn: RoleArn | None = Field(None, description="This optimizer's role, when not the block's `role_arn`")
    vpc_connection: str | None = Field(
        None, min_length=1, description="This optimizer's Glue VPC connection, when not the block's"
    )


class Compaction(_Optimizer):
    strategy: Literal["binpack", "sort", "z-order"] | None = Field(
        None, description="binpack (Glue's default), sort or z-order (both need the table's sort_order)"
    )
    min_input_files: int | None = Field(
        None, ge=1, description="Data files a partition must hold before it is compacted (default 100)"
    )
    delete_file_threshold: int | None = Field(
        None, ge=1, description="Deletes a data file must carry to be compacted (default 1)"
    )


class Retention(_Optimizer):
    snapshot_retention_days: int | None = Field(
        None, ge=1, description="Days a snapshot is kept (default: the table's properties, else 5)"
    )
    snapshots_to_retain: int | None = Field(
        None, ge=1, description="Snapshots kept however old (default: the table's properties, else 1)"
    )
    clean_expired_files: bool | None = Field(
        None, description="false: expired snapshots leave the metadata, their files stay"
    )
    run_rate_hours: RunRate | None = None


class OrphanFileDeletion(_Optimizer):
    retention_days: int | None = Field(
        None, ge=1, description="Days an unreferenced file is kept before it is deleted (default 3)"
    )
    location: str | None = Field(None, description="Where to look for orphans (default: the table's location)")
    run_rate_hours: RunRate | None = None


class Optimizers(Strict):
    """The table's optimizers; a type left out here is deleted (absent `optimizers:` leaves them alone)."""

    role_arn: RoleArn | None = Field(None, description="IAM role Glue assumes to run the optimizers")
    vpc_connection: str | None = Field(
        None, min_length=1, description="Glue connection of the VPC the table's storage is reached through"
    )
    compaction: Compaction | None = None
    retention: Retention | None = None
    orphan_file_deletion: OrphanFileDeletion | None = None

    @model_validator(mode="after")
    def _role_for_each(self) -> Optimizers:
        roleless = [kind for kind in self.declared() if self.role_for(kind) is None]
        if roleless:
            raise ValueError(
                f"{', '.join(roleless)} needs a role: set `role_arn` (the IAM role Glue assumes to run the optimizers)"
            )
        return self

    def declared(self) -> tuple[OptimizerType, ...]:
        return tuple(kind for kind in OPTIMIZER_TYPES if self.of(kind) is not None)

    def of(self, kind: OptimizerType) -> Compaction | Retention | OrphanFileDeletion | None:
        found: Compaction | Retention | OrphanFileDeletion | None = getattr(self, kind)
        return found

    def role_for(self, kind: OptimizerType) -> str | None:
        own = self.of(kind)
        return (own.role_arn if own else None) or self.role_arn

    def vpc_for(self, kind: OptimizerType) -> str | None:
        own = self.of(kind)
        return (own.vpc_connection if own else None) or self.vpc_connection
