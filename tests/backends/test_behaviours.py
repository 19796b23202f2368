"""The same behaviours against every backend (one `catalog` fixture, a row per backend): create and
read back, update in place, a concurrent change refused, partitions in batches, delete, import then
a clean re-plan, per-entry refusals, a table created meanwhile, an unreachable catalog. Driven
through the command line and gluecat's public functions; each asserts what the catalog holds
afterwards, read without gluecat.

The tables are written as Hive tables; a backend that holds none (an Iceberg REST catalog, as its
capabilities in gluecat's registry say) gets the same columns as Iceberg tables, the partition keys
as identity partition fields in the schema, and the behaviours about catalog partitions do not
apply to it (reported as skipped, with the reason)."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from gluecat.apply.run import apply_plan
from gluecat.backends.connect import connect
from gluecat.errors import ExitCode
from gluecat.plan.planner import make_plan
from gluecat.project.load import load_project
from gluecat.project.targets import Targets
from tests.backends.catalogs import CatalogUnderTest, dead_port
from tests.integration.helpers import gluecat

ORDERS = """\
description: Orders
storage: parquet
columns:
  - {name: order_id, type: bigint}
  - {name: amount, type: "decimal(12,2)"}
partition_keys:
  - {name: dt, type: string}
partitions:
  - values: {dt: "2024-01-01"}
  - values: {dt: "2024-01-02"}
    location: s3://lake/DB/orders/late/2024-01-02/
"""
CUSTOMERS = """\
storage: csv
columns:
  - {name: customer_id, type: bigint}
  - {name: email, type: string}
"""


def _held(catalog: CatalogUnderTest, text: str) -> str:
    """A table as the backend can hold it: as written where it holds Hive tables, else as an
    Iceberg table with the same columns (partition keys become identity partition fields)."""
    if catalog.capabilities.holds("hive"):
        return text
    table = yaml.safe_load(text)
    keys = table.pop("partition_keys", [])
    del table["storage"]
    table.pop("partitions", None)
    iceberg = {"format": "iceberg", **table, "columns": table["columns"] + keys}
    if keys:
        iceberg["partition_spec"] = [{"column": key["name"], "transform": "identity"} for key in keys]
    return str(yaml.safe_dump(iceberg, sort_keys=False))


def _files(catalog: CatalogUnderTest, db: str, **tables: str) -> dict[str, str]:
    files = {f"{db}/database.yaml": f"location: s3://lake/{db}/\n"}
    files.update({f"{db}/tables/{name}.yaml": _held(catalog, text.replace("DB", db)) for name, text in tables.items()})
    return files


def _needs_partitions(catalog: CatalogUnderTest) -> None:
    if not catalog.capabilities.partitions:
        pytest.skip(f"{catalog.capabilities.title} holds no Hive tables, so no partitions of its own")


def _columns(catalog: CatalogUnderTest, columns: list[tuple[str, str]], keys: list[tuple[str, str]]) -> list:
    """The columns the catalog lists: a Hive table's leave out its partition keys, an Iceberg
    table's schema holds them."""
    return columns if catalog.capabilities.partitions else columns + keys


def _applied(catalog: CatalogUnderTest, root: Path, files: dict[str, str]) -> Path:
    project = catalog.project(root, files)
    result = gluecat("apply", str(project), "--auto-approve")
    assert result.exit_code == ExitCode.OK, result.output
    return project


def _plans_clean(project: Path, *args: str) -> None:
    again = gluecat("plan", str(project), "--detailed-exitcode", *args)
    assert again.exit_code == ExitCode.OK, again.output
    assert "No changes" in again.output


class _Silent:
    def advance(self, units: int) -> None:
        pass

    def note(self, message: str) -> None:
        pass


def test_create_then_read_back(catalog: CatalogUnderTest, tmp_path: Path) -> None:
    db = catalog.database("create")
    project = _applied(catalog, tmp_path / "p", _files(catalog, db, orders=ORDERS, customers=CUSTOMERS))

    assert db in catalog.holds.databases()
    assert catalog.holds.tables(db) == {"orders", "customers"}
    orders = catalog.holds.table(db, "orders")
    assert orders is not None
    keys = [("dt", "string")]
    assert orders.columns == _columns(catalog, [("order_id", "bigint"), ("amount", "decimal(12,2)")], keys)
    assert orders.partition_keys == keys
    assert orders.description == "Orders"
    assert orders.location == f"s3://lake/{db}/orders"
    declared = {
        ("2024-01-01",): f"s3://lake/{db}/orders/dt=2024-01-01",
        ("2024-01-02",): f"s3://lake/{db}/orders/late/2024-01-02",
    }
    assert catalog.holds.partitions(db, "orders") == (declared if catalog.capabilities.partitions else {})
    _plans_clean(project)


def test_update_in_place(catalog: CatalogUnderTest, tmp_path: Path) -> None:
    db = catalog.database("update")
    project = _applied(catalog, tmp_path / "p", _files(catalog, db, customers=CUSTOMERS))
    before = catalog.holds.table(db, "customers")
    assert before is not None

    wider = CUSTOMERS.replace("storage: csv", "description: Customers\nstorage: csv") + "  - {name: tier, type: int}\n"
    catalog.project(project, _files(catalog, db, customers=wider))
    planned = gluecat("plan", str(project), "--detailed-exitcode")
    assert planned.exit_code == ExitCode.CHANGES, planned.output
    applied = gluecat("apply", str(project), "--auto-approve")
    assert applied.exit_code == ExitCode.OK, applied.output

    after = catalog.holds.table(db, "customers")
    assert after is not None
    assert after.columns == [("customer_id", "bigint"), ("email", "string"), ("tier", "int")]
    assert after.description == "Customers"
    assert after.created == before.created  # altered, not dropped and made again
    _plans_clean(project)


def test_a_concurrent_change_refuses_the_saved_plan(catalog: CatalogUnderTest, tmp_path: Path) -> None:
    db = catalog.database("conflict")
    project = _applied(catalog, tmp_path / "p", _files(catalog, db, customers=CUSTOMERS))
    ours = CUSTOMERS.replace("storage: csv", "description: ours\nstorage: csv")
    catalog.project(
        project, _files(catalog, db, customers=ours, more="storage: orc\ncolumns: [{name: id, type: bigint}]\n")
    )
    saved = tmp_path / "plan.json"
    assert gluecat("plan", str(project), "--out", str(saved)).exit_code == ExitCode.OK

    catalog.holds.describe(db, "customers", "theirs")  # another writer, after the plan
    refused = gluecat("apply", str(saved))
    assert refused.exit_code == ExitCode.ERROR
    assert f"{db}.customers" in refused.output and "stale" in refused.output, refused.output
    live = catalog.holds.table(db, "customers")
    assert live is not None and live.description == "theirs"
    assert catalog.holds.tables(db) == {"customers"}, "a stale saved plan changes nothing at all"


def test_partitions_in_batches(catalog: CatalogUnderTest, tmp_path: Path) -> None:
    _needs_partitions(catalog)
    db = catalog.database("batches")
    many = """\
storage: parquet
columns: [{name: id, type: bigint}]
partition_keys: [{name: dt, type: date}, {name: region, type: string}]
partitions:
  - expand:
      dt: {from: 2024-01-01, to: 2024-04-30}
      region: [eu, us]
"""  # 121 days x 2 regions: three batches of a hundred
    project = _applied(catalog, tmp_path / "p", _files(catalog, db, events=many))
    held = catalog.holds.partitions(db, "events")
    assert len(held) == 242
    assert held[("2024-02-29", "us")] == f"s3://lake/{db}/events/dt=2024-02-29/region=us"
    _plans_clean(project)

    fewer = many.replace("to: 2024-04-30", "to: 2024-01-31")
    catalog.project(project, _files(catalog, db, events=fewer))
    (project / "catalog.yaml").write_text((project / "catalog.yaml").read_text() + "prune: true\n")
    pruned = gluecat("apply", str(project), "--auto-approve", "--allow-destroy")
    assert pruned.exit_code == ExitCode.OK, pruned.output
    assert len(catalog.holds.partitions(db, "events")) == 62
    _plans_clean(project)


def test_delete_under_prune(catalog: CatalogUnderTest, tmp_path: Path) -> None:
    db = catalog.database("delete")
    project = _applied(catalog, tmp_path / "p", _files(catalog, db, orders=ORDERS, customers=CUSTOMERS))
    (project / db / "tables" / "customers.yaml").unlink()
    (project / "catalog.yaml").write_text((project / "catalog.yaml").read_text() + "prune: true\n")

    refused = gluecat("apply", str(project), "--auto-approve")
    assert refused.exit_code == ExitCode.ERROR, refused.output
    assert catalog.holds.tables(db) == {"orders", "customers"}  # nothing deleted without --allow-destroy

    deleted = gluecat("apply", str(project), "--auto-approve", "--allow-destroy")
    assert deleted.exit_code == ExitCode.OK, deleted.output
    assert catalog.holds.tables(db) == {"orders"}
    _plans_clean(project)


def test_import_then_a_clean_re_plan(catalog: CatalogUnderTest, tmp_path: Path) -> None:
    db = catalog.database("import")
    _applied(catalog, tmp_path / "source", _files(catalog, db, orders=ORDERS, customers=CUSTOMERS))

    adopted = catalog.project(tmp_path / "adopted", {})
    imported = gluecat("import", str(adopted), "--database", db, "--partitions")
    assert imported.exit_code == ExitCode.OK, imported.output
    assert sorted(p.name for p in (adopted / db / "tables").iterdir()) == ["customers.yaml", "orders.yaml"]
    if catalog.capabilities.partitions:
        assert "2024-01-02" in (adopted / db / "tables" / "orders.yaml").read_text()
    _plans_clean(adopted)
    if catalog.capabilities.partitions:
        assert set(catalog.holds.partitions(db, "orders")) == {("2024-01-01",), ("2024-01-02",)}


def test_per_entry_refusals_are_named_and_a_rerun_converges(catalog: CatalogUnderTest, tmp_path: Path) -> None:
    _needs_partitions(catalog)
    db = catalog.database("refusals")
    ten = ORDERS.split("partitions:")[0] + "partitions:\n  - expand:\n      dt: {from: 2024-01-01, to: 2024-01-10}\n"
    project = _applied(catalog, tmp_path / "p", _files(catalog, db, orders=ten))
    assert len(catalog.holds.partitions(db, "orders")) == 10

    catalog.project(project, _files(catalog, db, orders=ten.replace("to: 2024-01-10", "to: 2024-01-12")))
    loaded = load_project(project)
    with connect(loaded) as connection:
        plan = make_plan(loaded, connection, Targets(), lambda _: None)
        # another writer adds one of the planned partitions between the plan and the apply
        catalog.holds.add_partition(db, "orders", ["2024-01-11"], f"s3://lake/{db}/orders/dt=2024-01-11")
        result = apply_plan(connection, plan, _Silent())

    refused = {failure.address for failure in result.failures}
    assert all("exists" in failure.message.lower() for failure in result.failures), result.failures
    if catalog.refuses_batches_whole:  # the batch fails as one, each of its entries named
        assert refused == {f"{db}.orders[dt=2024-01-11]", f"{db}.orders[dt=2024-01-12]"}
    else:
        assert refused == {f"{db}.orders[dt=2024-01-11]"}
        assert ("2024-01-12",) in catalog.holds.partitions(db, "orders")

    rerun = gluecat("apply", str(project), "--auto-approve")
    assert rerun.exit_code == ExitCode.OK, rerun.output
    assert len(catalog.holds.partitions(db, "orders")) == 12
    _plans_clean(project)


def test_an_unreachable_catalog_is_one_line(catalog: CatalogUnderTest, tmp_path: Path) -> None:
    settings, named = catalog.unreachable(dead_port())
    files = {
        "sales/database.yaml": "location: s3://lake/sales/\n",
        "sales/tables/customers.yaml": _held(catalog, CUSTOMERS),
    }
    project = catalog.project(tmp_path / "p", files)
    (project / "catalog.yaml").write_text(settings)
    result = gluecat("plan", str(project))
    assert result.exit_code == ExitCode.ERROR
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1, result.output
    assert named in lines[0], lines[0]


def test_a_table_created_meanwhile_is_named_and_a_rerun_converges(catalog: CatalogUnderTest, tmp_path: Path) -> None:
    db = catalog.database("meanwhile")
    project = _applied(catalog, tmp_path / "p", _files(catalog, db, customers=CUSTOMERS))
    more = "storage: orc\ncolumns: [{name: id, type: bigint}]\n"
    catalog.project(project, _files(catalog, db, customers=CUSTOMERS, orders=ORDERS, more=more))
    loaded = load_project(project)
    with connect(loaded) as connection:
        plan = make_plan(loaded, connection, Targets(), lambda _: None)
        # another writer creates one of the planned tables, as declared, between the plan and the apply
        _applied(catalog, tmp_path / "other", _files(catalog, db, more=more))
        result = apply_plan(connection, plan, _Silent())

    assert [failure.address for failure in result.failures] == [f"{db}.more"], result.failures
    assert "exist" in result.failures[0].message.lower(), result.failures
    assert catalog.holds.tables(db) == {"customers", "orders", "more"}  # the other entries applied
    rerun = gluecat("apply", str(project), "--auto-approve")
    assert rerun.exit_code == ExitCode.OK, rerun.output
    _plans_clean(project)
