"""Lint rules over a loaded project (SPEC §5). Each rule yields findings with a YAML path."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from gluecat.backends.registry import Capabilities, capabilities
from gluecat.errors import SourcePosition
from gluecat.kinds.registry import kind_of
from gluecat.model import CatalogConfig, LintPolicy
from gluecat.model.suggest import closest, either
from gluecat.project.checks import S3_BUCKET_RULE, S3_URI_RULE, Hit, Severity, bucket_hits, is_s3, name_hit
from gluecat.project.load import LoadedDatabase, LoadedTable, Project
from gluecat.project.regions import region_problem
from gluecat.project.rule_ids import RuleId, declare, declared
from gluecat.project.source import SourceFile
from gluecat.project.yamlparse import Loc

SCHEMA_RULE = declare("schema", "a file that does not parse or does not match its schema (an unknown key, a bad type)")
ENV_UNSET_RULE = declare("env-unset", "a `${env.NAME}` value whose variable is not set (warning)")
REGION_RULE = declare("region", "a sandbox catalog's region botocore does not know for Glue")
BACKEND_RULE = declare(
    "backend", "what the catalog's backend cannot hold or lacks (a metastore's partition indexes, its `metastore_uri`)"
)
LINT_ALLOW_RULE = declare("lint-allow", "an unknown rule id in `lint.allow`")
DATABASE_LOCATION_RULE = declare("database-location", "a database without `location`")


@dataclass(frozen=True)
class Finding:
    position: SourcePosition
    severity: Severity
    rule: RuleId
    message: str
    address: str = ""  # the database or database.table it is about

    def __str__(self) -> str:
        label = "" if self.severity == "error" else "warning: "
        return f"{self.position}: {label}{self.message} [{self.rule}]"


def lint(project: Project) -> list[Finding]:
    from gluecat.lint.lakeformation import access_findings  # its rules build this module's Finding

    findings: list[Finding] = [*_regions(project), *_backend(project), *access_findings(project)]
    sandbox = project.config.sandbox
    nested = capabilities(project.config.backend).nested_namespaces
    for database in project.databases:
        hits = excusing(database_rules(database, nested), database.model.lint)
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
            yield Finding(project.source.position(loc), "error", REGION_RULE, problem, "catalog")


def _backend(project: Project) -> Iterator[Finding]:
    """What the catalog cannot hold, before a plan tries (`backend: hive`, `backend: iceberg-rest`)."""
    config = project.config
    backend = capabilities(config.backend)
    if backend.address_key and not config.connection.address:
        needed = f"`{backend.address_key}: {backend.address_form}`"
        message = f"backend: {backend.name} needs {needed} (here or in the environment)"
        yield Finding(project.source.position(_backend_named(project)), "error", BACKEND_RULE, message, "catalog")
    for database in project.databases:
        for table in database.tables:
            yield from _held(backend, table, database, config)
    if not backend.lake_formation:
        yield from _without_lake_formation(project, backend)


def _backend_named(project: Project) -> Loc:
    """Where the backend in force is written: the chosen environment's `backend`, else the catalog's."""
    environments = project.source.data.get("environments")
    chosen = environments.get(project.env) if isinstance(environments, dict) and project.env else None
    if isinstance(chosen, dict) and "backend" in chosen:
        return ("environments", str(project.env), "backend")
    return ("backend",)


LAKE_FORMATION_KEYS = ("lf_tags", "grants", "tag_grants", "data_lake_admins")


def _without_lake_formation(project: Project, backend: Capabilities) -> Iterator[Finding]:
    """Lake Formation keys where the catalog has none: each at its line, before a plan refuses them."""

    def refused(source: SourceFile, loc: Loc, address: str) -> Finding:
        message = f"{backend.title} has no Lake Formation: remove `{loc[-1]}` (it governs the Glue Data Catalog only)"
        return Finding(source.position(loc), "error", BACKEND_RULE, message, address)

    config = project.config
    for key in LAKE_FORMATION_KEYS:
        if getattr(config, key, None) is not None:
            yield refused(project.source, (key,), "catalog")
    for database in project.databases:
        for key in LAKE_FORMATION_KEYS:
            if getattr(database.model, key, None) is not None:
                yield refused(database.source, (key,), database.name)
        for table in database.tables:
            address = f"{database.name}.{table.name}"
            for key in LAKE_FORMATION_KEYS:
                if getattr(table.model, key, None) is not None:
                    yield refused(table.source, (key,), address)
            for i, column in enumerate(getattr(table.model, "columns", None) or []):
                if getattr(column, "lf_tags", None) is not None:
                    yield refused(table.source, ("columns", i, "lf_tags"), address)


def _held(
    backend: Capabilities, table: LoadedTable, database: LoadedDatabase, config: CatalogConfig
) -> Iterator[Finding]:
    address = f"{database.name}.{table.name}"
    model = table.model
    if not backend.holds(model.format):
        message = (
            f"backend: {backend.name} holds {', '.join(sorted(backend.formats))} tables only: {backend.title}"
            f" cannot hold a `format: {model.format}` table"
        )
        yield Finding(table.source.position(("format",)), "error", BACKEND_RULE, message, address)
        return
    if not backend.partition_indexes and kind_of(model).reads(model, database, config).partition_indexes:
        message = f"{backend.title} has no partition indexes: remove `partition_indexes` (they are Glue's)"
        yield Finding(table.source.position(("partition_indexes",)), "error", BACKEND_RULE, message, address)
    if not backend.optimizers and getattr(model, "optimizers", None) is not None:
        message = f"{backend.title} has no table optimizers: remove `optimizers` (they are Glue's)"
        yield Finding(table.source.position(("optimizers",)), "error", BACKEND_RULE, message, address)


def excusing(hits: Iterable[Hit], policy: LintPolicy | None) -> Iterator[Hit]:
    """The hits, less the rules the file excuses (`lint: {allow: [rule]}`); unknown rules named."""
    allow = policy.allow if policy else []
    yield from (hit for hit in hits if hit.rule not in allow)
    known = rule_ids() if allow else frozenset()
    for index, rule in enumerate(allow):
        if rule not in known:
            close = closest(rule, sorted(known))
            hint = f"did you mean {either(close)}?" if close else f"known rules: {', '.join(sorted(known))}"
            message = f"unknown lint rule '{rule}' in `lint.allow` — {hint}"
            yield Hit(("lint", "allow", index), LINT_ALLOW_RULE, message)


def _finding(position: SourcePosition, hit: Hit, address: str, sandbox: bool = False) -> Finding:
    # The sandbox makes its buckets under today's rules; AWS keeps legacy buckets named otherwise.
    severity: Severity = "error" if sandbox and hit.rule == S3_BUCKET_RULE else hit.severity
    return Finding(position, severity, hit.rule, hit.message, address)


def database_rules(database: LoadedDatabase, nested: bool = False) -> Iterator[Hit]:
    """`nested`: the catalog nests namespaces, and `a.b` names `b` inside `a` (each part checked)."""
    for part in database.name.split(".") if nested else [database.name]:
        yield from name_hit(("name",), part, "database")
    location = database.model.location
    if not location:
        yield Hit(
            ("name",),
            DATABASE_LOCATION_RULE,
            "database has no `location`: Spark's CREATE TABLE then fails with 'location is not"
            " defined for database'; add e.g. `location: s3://bucket/" + database.name + "/`",
        )
    elif not is_s3(location):
        yield Hit(("location",), S3_URI_RULE, f"location '{location}' must be an s3:// URI")
    else:
        yield from bucket_hits(location)


def table_rules(table: LoadedTable, database: LoadedDatabase) -> Iterator[Hit]:
    for rule in kind_of(table.model).rules():
        yield from rule(table, database)


def _declared_rules() -> dict[str, str]:
    """Every rule's id and summary. The rules declare them (`gluecat.project.rule_ids`) where they
    live; this module imports all their modules (the kinds through the registry), this one too."""
    import gluecat.lint.lakeformation  # noqa: F401  (imported lazily by `lint`; its ids count too)

    return declared()


def rule_ids() -> frozenset[str]:
    """Every rule id a finding can carry: what `lint: {allow: [...]}` may name."""
    return frozenset(_declared_rules())


def rule_table() -> str:
    """The documentation's table of rule ids (docs/reference/lint-rules.md), made from their declarations."""
    rows = [f"| `{rule}` | {summary} |" for rule, summary in sorted(_declared_rules().items())]
    return "\n".join(["| rule | what it reports |", "| --- | --- |", *rows])
