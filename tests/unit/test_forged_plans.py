"""A plan file forged or damaged with its digest recomputed is refused whole, in one line, before
apply sends anything: never an AssertionError, KeyError or TypeError after other tables changed."""

from __future__ import annotations

import copy
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from gluecat.changes.model import Action, Change, PartitionChanges, PartitionWrite, Plan
from gluecat.errors import GluecatError
from gluecat.plan import serialize
from tests.strategies import document_paths

PLAN = Plan(
    "shop",
    (
        Change("sales", "database", Action.CREATE, "sales", None, {"Name": "sales"}, live_version="absent"),
        Change("sales.orders", "table", Action.UPDATE, "sales", "orders", {"Name": "orders", "Parameters": {}},
               live_version="3"),
        Change("sales.old", "table", Action.DELETE, "sales", "old", None, live_version="7"),
        Change("lake.events", "table", Action.UPDATE, "lake", "events", {"ops": [{"op": "set", "k": "v"}]},
               live_version="ab12", format="iceberg"),
    ),
    (
        PartitionChanges("sales", "orders", ("dt",), {"Columns": []},
                         creates=(PartitionWrite(("2024-01-01",), "s3://lake/sales/orders/dt=2024-01-01/"),),
                         deletes=(("2023-12-31",),)),
    ),
)  # fmt: skip
VALID = serialize.to_json(PLAN)
JUNK = st.one_of(st.none(), st.integers(), st.text(max_size=5), st.lists(st.integers(), max_size=2), st.just({}))


PATHS = [p for p in document_paths(VALID) if p[0] in ("changes", "partitions", "catalog")]


def _mutated(path: tuple[Any, ...], junk: Any, delete: bool) -> dict[str, Any]:
    document = copy.deepcopy(VALID)
    parent = document
    for part in path[:-1]:
        parent = parent[part]
    if delete and isinstance(parent, dict):
        del parent[path[-1]]
    else:
        parent[path[-1]] = junk
    return document


def _apply_can_rely_on(plan: Plan) -> None:
    for change in plan.changes:
        assert change.kind == "database" or change.table
        assert change.action is Action.DELETE or change.desired is not None
    for group in plan.partitions:
        for values in [w.values for w in (*group.creates, *group.updates)] + list(group.deletes):
            assert len(values) == len(group.keys)


def test_the_untouched_plan_reads_back() -> None:
    _apply_can_rely_on(serialize.from_json(copy.deepcopy(VALID)))


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(PATHS), JUNK, st.booleans())
def test_a_forged_field_is_refused_in_one_line_or_harmless(path: tuple[Any, ...], junk: Any, delete: bool) -> None:
    try:
        plan = serialize.from_json(_mutated(path, junk, delete))
    except GluecatError as exc:
        assert "\n" not in str(exc) and "not a gluecat plan" in str(exc)
        return
    _apply_can_rely_on(plan)
