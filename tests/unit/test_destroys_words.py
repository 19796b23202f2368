"""A plan that drops an Iceberg column is refused for dropping columns, not as if it deleted or
replaced its table; one that deletes or replaces says so, as before."""

from __future__ import annotations

import io

import pytest
from rich.console import Console

from gluecat.apply.run import refuse_destruction
from gluecat.changes.model import Action, Change, Plan
from gluecat.errors import PlanError
from gluecat.render import human, markdown

DROP = Change("lake.events", "table", Action.UPDATE, "lake", "events", {}, format="iceberg", drops=True)
DELETE = Change("sales.orders", "table", Action.DELETE, "sales", "orders", None)


@pytest.mark.parametrize(
    ("changes", "words"),
    [
        ((DROP,), "the plan drops columns (lake.events)"),
        ((DELETE,), "the plan deletes or replaces objects (sales.orders)"),
        ((DELETE, DROP), "the plan deletes or replaces objects and drops columns (sales.orders, lake.events)"),
    ],
)
def test_the_refusal_names_what_the_plan_destroys(changes: tuple[Change, ...], words: str) -> None:
    with pytest.raises(PlanError) as refused:
        refuse_destruction(Plan("c", changes), allow_destroy=False)

    assert str(refused.value).startswith(words)


def test_the_plan_s_banner_says_columns_are_dropped() -> None:
    plan = Plan("c", (DROP,))
    out = io.StringIO()
    human.render(plan, Console(file=out, width=200))

    assert "This plan drops columns: apply needs --allow-destroy." in out.getvalue()
    assert "deletes or replaces" not in out.getvalue()
    assert "**This plan drops columns**" in markdown.render(plan)
