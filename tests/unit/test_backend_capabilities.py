"""What the registry says of each backend is what the commands outside backends/ act on: kept table
versions, how a saved plan names the catalog, what is refused before apply, the address it needs."""

from __future__ import annotations

from pathlib import Path

import pytest

from gluecat.backends.connect import Connection, connect_to
from gluecat.backends.identity import catalog_identity
from gluecat.backends.registry import BACKENDS, capabilities
from gluecat.changes.model import Action, Change, FieldDiff, Plan
from gluecat.errors import GluecatError
from gluecat.model import CatalogConfig

HIVE = CatalogConfig(backend="hive", metastore_uri="thrift://metastore:9083")
REST = CatalogConfig(backend="iceberg-rest", rest_uri="https://user:hunter2@catalog.example/api", rest_warehouse="lake")
GLUE = CatalogConfig(region="eu-west-1", catalog_id="123456789012")


def _connection(config: CatalogConfig) -> Connection:
    return Connection(catalog=object(), opened=None, endpoint_url=None, backend=config.backend)  # type: ignore[arg-type]


def test_a_saved_plan_names_an_aws_catalog_by_account_and_region_and_another_by_its_address() -> None:
    assert catalog_identity(GLUE, _connection(GLUE)) == ("123456789012", "eu-west-1", "aws")
    sandbox = GLUE.model_copy(update={"sandbox": True})
    assert catalog_identity(sandbox, _connection(sandbox))[2] == "sandbox"
    assert catalog_identity(HIVE, _connection(HIVE)) == ("hive-metastore", "", "thrift://metastore:9083")
    label, scope, address = catalog_identity(REST, _connection(REST))
    assert (label, scope) == ("iceberg-rest", "lake")
    assert "hunter2" not in address and address.endswith("@catalog.example/api")


def test_only_a_catalog_that_keeps_versions_hands_them_out_and_the_refusal_names_it() -> None:
    assert [name for name, backend in BACKENDS.items() if backend.versions] == ["glue"]
    for config in (HIVE, REST):
        with pytest.raises(GluecatError) as refused:
            _connection(config).versions("history")
        message = str(refused.value)
        assert "\n" not in message and message.startswith("history ")
        assert message.endswith(f"{capabilities(config.backend).title} keeps none")


def test_the_type_changes_a_metastore_refuses_are_said_before_apply_by_that_backend_alone() -> None:
    diff = FieldDiff("columns.amount.type", "decimal(12,2)", "int")
    change = Change("sales.orders", "table", Action.UPDATE, "sales", "orders", {}, (diff,))
    plan = Plan("catalog", (change,))
    note = capabilities("hive").refused_before_apply(plan)
    assert note is not None and "sales.orders: amount decimal(12,2) -> int" in note
    assert capabilities("glue").refused_before_apply(plan) is None
    assert capabilities("iceberg-rest").refused_before_apply(plan) is None


@pytest.mark.parametrize("name", [name for name, backend in BACKENDS.items() if backend.address_key])
def test_a_backend_without_its_address_is_refused_in_one_line_naming_it_and_the_key(name: str, tmp_path: Path) -> None:
    backend = capabilities(name)
    with pytest.raises(GluecatError) as refused, connect_to(CatalogConfig(backend=name), tmp_path):  # type: ignore[arg-type]
        pass
    assert (
        str(refused.value) == f"backend: {name} needs `{backend.address_key}: {backend.address_form}` in catalog.yaml"
    )
