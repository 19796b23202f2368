"""Iceberg format version 3 (deletion vectors, row lineage): a one-way door some readers cannot pass.

An upgrade to v3 is planned as its own change, never folded into a table's other changes, and marked
irreversible: Iceberg has no downgrade. Who cannot read v3 is said by a breaking finding that names
those engines, so `readers:` and `plan --fail-on breaking` judge it as they judge every finding.

Which engines read v3 (AWS's documentation of Athena's Iceberg support and of Iceberg v3 on EMR and
Glue): Athena cannot read v3 tables; Spark on EMR 7.12 and later and Glue's Spark jobs can. Trino is
not named: no source at hand says whether the Trino the engine tests run reads v3, and gluecat
names only what it can back.
"""

from __future__ import annotations

from gluecat.changes.impact import Finding, Impact
from gluecat.kinds.iceberg import FORMAT_V3_RULE

V3 = 3
CANNOT_READ_V3: tuple[str, ...] = ("athena",)


def irreversible(after: int) -> str:
    """What an upgrade's change says beside it: the mark a reviewer must see."""
    return f"irreversible: Iceberg has no downgrade, the table stays at format-version {after}"


def upgrade_waits(after: int) -> str:
    """What a table's other changes say while its upgrade waits for the next plan."""
    return (
        f"format-version {after} is not part of this change: the upgrade, which cannot be undone, is planned"
        " on its own once this is applied (run plan again)"
    )


def upgrade_finding(before: int, after: int) -> Finding:
    return Finding(
        FORMAT_V3_RULE,
        Impact.BREAKING,
        f"format-version {before} -> {after} cannot be undone, and {_readers()} cannot read a v3 table: its"
        " queries fail from this commit on (Spark on EMR 7.12+ and Glue read v3). State why with"
        " `allow_breaking` when no such reader is left",
        CANNOT_READ_V3,
    )


def created_finding() -> Finding:
    return Finding(
        FORMAT_V3_RULE,
        Impact.BREAKING,
        f"the table is created at format-version 3, which {_readers()} cannot read and which cannot go back"
        " to 2 (Spark on EMR 7.12+ and Glue read v3). Leave `format-version` at 2 for such readers, or state"
        " why with `allow_breaking`",
        CANNOT_READ_V3,
    )


def downgrade_refusal(live: int, wanted: str) -> str:
    return (
        f"format-version {live} cannot go down to {wanted}: Iceberg upgrades are one-way;"
        f" write `format-version: {live}` (or leave it out)"
    )


def _readers() -> str:
    return " and ".join(engine.capitalize() for engine in CANNOT_READ_V3)


def created_findings(properties: dict[str, str]) -> tuple[Finding, ...]:
    """A new table's findings: created at v3, what cannot read it."""
    version = properties.get("format-version", "").strip()
    return (created_finding(),) if version.isdigit() and int(version) >= V3 else ()
