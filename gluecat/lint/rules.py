"""Lint rules over a loaded project (SPEC §5). Each rule yields findings with a YAML path."""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from gluecat.errors import SourcePosition
from gluecat.kinds.registry import kind_of
from gluecat.model import LintPolicy
from gluecat.project.checks import NAME_RULE, S3_BUCKET_RULE, Hit, Severity, bucket_hits, is_s3, name_hit
from gluecat.project.engine_check import RULE as ENGINE_TRINO_RULE
from gluecat.project.load import LoadedDatabase, LoadedTable, Project
from gluecat.project.regions import region_problem
from gluecat.project.yamlparse import Loc


@dataclass(frozen=True)
class Finding:
    position: SourcePosition
    severity: Severity
    rule: str
    message: str
    address: str = ""  # the database or database.table it is about

    def __str__(self) -> str:
        label = "" if self.severity == "error" else "warning: "
        return f"{self.position}: {label}{self.message} [{self.rule}]"


def lint(project: Project) -> list[Finding]:
    from gluecat.lint.lakeformation import access_findings  # its rules build this module's Finding

    findings: list[Finding] = [*_regions(project), *_backend(project), *access_findings(project)]
    sandbox = project.config.sandbox
    for database in project.databases:
        hits = excusing(database_rules(database), database.model.lint)
        findings.extend(_finding(database.source.position(hit.loc), hit, database.name, sandbox) for hit in hits)
        for table in database.tables:
            address = f"{database.name}.{table.name}"
            hits = excusing(table_rules(table, database), table.model.lint)
            findings.extend(_finding(table.source.position(hit.loc), hit, address, sandbox) for hit in hits)
    return findings


def _regions(project: Project) -> Iterator[Finding]:
    """A sandbox catalog's regions against botocore's list: a typo there would fail only deep in the
    local server. (Against AWS, connecting checks the region with the same did-you-mean.)"""
    if not project.config.sandbox:
        return
    data = project.source.data
    named: list[tuple[Loc, object]] = [(("region",), data.get("region"))]
    environments = data.get("environments")
    if isinstance(environments, dict):
        named += [
            (("environments", name, "region"), settings.get("region"))
            for name, settings in environments.items()
            if isinstance(settings, dict)
        ]
    for loc, region in named:
        problem = region_problem(region) if isinstance(region, str) else None
        if problem:
            yield Finding(project.source.position(loc), "error", "region", problem, "catalog")


def _backend(project: Project) -> Iterator[Finding]:
    """What a Hive Metastore cannot hold, before a plan tries (`backend: hive`)."""
    config = project.config
    if config.backend != "hive":
        return
    if not config.metastore_uri:
        message = "backend: hive needs `metastore_uri: thrift://HOST:PORT` (here or in the environment)"
        yield Finding(project.source.position(("backend",)), "error", "backend", message, "catalog")
    for database in project.databases:
        for table in database.tables:
            if kind_of(table.model).reads(table.model, database, config).partition_indexes:
                message = "a Hive Metastore has no partition indexes: remove `partition_indexes` (they are Glue's)"
                position = table.source.position(("partition_indexes",))
                yield Finding(position, "error", "backend", message, f"{database.name}.{table.name}")


def excusing(hits: Iterable[Hit], policy: LintPolicy | None) -> Iterator[Hit]:
    """The hits, less the rules the file excuses (`lint: {allow: [rule]}`); unknown rules named."""
    allow = policy.allow if policy else []
    yield from (hit for hit in hits if hit.rule not in allow)
    for index, rule in enumerate(allow):
        if rule not in RULE_IDS:
            close = difflib.get_close_matches(rule, RULE_IDS, n=1)
            hint = f"did you mean '{close[0]}'?" if close else f"known rules: {', '.join(sorted(RULE_IDS))}"
            yield Hit(("lint", "allow", index), "lint-allow", f"unknown lint rule '{rule}' in `lint.allow` — {hint}")


def _finding(position: SourcePosition, hit: Hit, address: str, sandbox: bool = False) -> Finding:
    # The sandbox makes its buckets under today's rules; AWS keeps legacy buckets named otherwise.
    severity: Severity = "error" if sandbox and hit.rule == S3_BUCKET_RULE else hit.severity
    return Finding(position, severity, hit.rule, hit.message, address)


def database_rules(database: LoadedDatabase) -> Iterator[Hit]:
    yield from name_hit(("name",), database.name, "database")
    location = database.model.location
    if not location:
        yield Hit(
            ("name",),
            "database-location",
            "database has no `location`: Spark's CREATE TABLE then fails with 'location is not"
            " defined for database'; add e.g. `location: s3://bucket/" + database.name + "/`",
        )
    elif not is_s3(location):
        yield Hit(("location",), "s3-uri", f"location '{location}' must be an s3:// URI")
    else:
        yield from bucket_hits(location)


def table_rules(table: LoadedTable, database: LoadedDatabase) -> Iterator[Hit]:
    for rule in kind_of(table.model).rules():
        yield from rule(table, database)


# Every rule id a finding can carry: what `lint: {allow: [...]}` may name.
RULE_IDS = frozenset(
    {
        NAME_RULE, "lint-allow", "backend", "database-location", "s3-uri", S3_BUCKET_RULE, "duplicate-column",
        "partition-key-is-column",
        "duplicate-entry", "duplicate-partition", "partition-count", "delta-location",
        "location-outside-database", "partition-column-unknown", "partition-keys", "partition-values",
        "table-location", "iceberg-parameters", "projection-engines", "projection-partitions",
        "projection-keys", "projection-template", "projection-settings", "projection-enum",
        "projection-range", "projection-interval", "projection-format", "engine-types", ENGINE_TRINO_RULE,
    }
)  # fmt: skip
