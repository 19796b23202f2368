"""Secrets in the spellings messages and files give them: quoted by repr or JSON (backslashes
doubled), cut short with an ellipsis, beside an Athena view payload, as a partition value a plan
fingerprints, inside an Owner or a description; generated secrets of many shapes."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gluecat.adopt.refs import References
from gluecat.changes.model import PartitionChanges, Plan
from gluecat.plan import serialize
from gluecat.secrets import held, redact
from gluecat.secrets import values as secret_values

# Secrets of many shapes: backslashes, both quotes, %-escapes, JSON and URL punctuation, non-ASCII.
secrets = st.text(alphabet=st.sampled_from(list("abcXYZ0189\\\"'%/:@;=&+{}[], é€\u00a0")), min_size=6, max_size=40).map(
    lambda text: f"Q{text}Z"
)


@pytest.fixture(autouse=True)
def _clean() -> Iterator[None]:
    redact.forget_all()
    yield
    redact.forget_all()


def _spellings(secret: str) -> list[str]:
    return sorted({secret, repr(secret)[1:-1], json.dumps(secret)[1:-1], json.dumps(secret, ensure_ascii=False)[1:-1]})


@settings(max_examples=80)
@given(secrets)
def test_a_message_quoting_a_secret_or_cutting_it_short_is_masked(secret: str) -> None:
    redact.forget_all()
    secret_values.register("DB_KEY", secret)
    messages = [
        f"tenant = {secret!r}: not an int",
        f"value {json.dumps(secret)} is not allowed",
        f"the text '{secret[:39]}…'" if len(secret) > 40 else f"the text '{secret}'",
        f"the text {repr(secret)[:39]}…",
    ]
    for message in messages:
        shown = redact.scrub(message)
        assert not [s for s in _spellings(secret) if s in shown], shown
        if len(secret) > 40:
            assert secret[:12] not in shown, shown


@given(secrets)
def test_a_secret_beside_a_view_payload_is_masked_in_a_saved_plan(secret: str) -> None:
    redact.forget_all()
    secret_values.register("DB_KEY", secret)
    plan = Plan("c", notes=(f"{secret} /* Presto View: e30= */ and {secret}",))
    saved = serialize.without_env_secrets(plan)
    assert secret not in saved.notes[0]
    assert secret_values.restore_data(saved, {"DB_KEY": secret}).notes == plan.notes


@given(secrets)
def test_partition_values_a_plan_fingerprints_are_masked_and_restored(secret: str) -> None:
    redact.forget_all()
    secret_values.register("TENANT", secret)
    group = PartitionChanges("db", "t", ("tenant",), {}, deletes=((secret,),), live_fingerprints=(((secret,), "ab12"),))
    document = json.dumps(serialize.to_json(serialize.without_env_secrets(Plan("c", partitions=(group,)))))
    assert not [s for s in _spellings(secret) if s in document]
    restored = secret_values.restore_data(serialize.from_json(json.loads(document)), {"TENANT": secret})
    assert restored.partitions[0].live_fingerprints == (((secret,), "ab12"),)


@given(secrets)
def test_a_live_secret_is_held_back_even_when_its_text_is_in_a_changed_value(secret: str) -> None:
    live = {
        "Name": "t",
        "Owner": f"svc;Password={secret}",
        "Parameters": {"jdbc.password": secret, "kept": "plain"},
    }
    diffs = [("description", f"mentions {secret}"), ("parameters.kept", "plain")]
    shape = held.hold_back(live, diffs)
    assert shape["Parameters"]["jdbc.password"] == held.MARK
    assert shape["Owner"] == held.MARK and shape["Parameters"]["kept"] == "plain"
    assert held.fill(shape, live, "db.t") == live


def test_a_declared_secret_and_a_new_columns_parameters_stay() -> None:
    desired = {
        "Name": "t",
        "Parameters": {"jdbc.password": "new-pw"},
        "StorageDescriptor": {"Columns": [{"Name": "c", "Parameters": {"token": "t0k3n"}}]},
    }
    shape = held.hold_back(desired, [("parameters.jdbc.password", "new-pw"), ("columns.c", "string")])
    assert shape == desired


@given(secrets, secrets)
def test_the_replaced_side_of_a_changed_secret_is_masked_in_a_saved_plan(old: str, new: str) -> None:
    from gluecat.changes.model import FieldDiff

    for path in ("parameters.jdbc.password", "columns.c.parameters.token", "serde.parameters.api_key"):
        diff = serialize.live_side_masked(FieldDiff(path, old, new))
        assert diff.before == redact.MASK and diff.after == new
    password = "".join(c for c in old if not c.isspace() and c not in "/@\"'")  # what a URL's password holds
    url = serialize.live_side_masked(FieldDiff("location", f"postgresql://u:{password}@h/db", "s3://b/x"))
    assert url.before == "postgresql://u:(sensitive)@h/db"


@given(secrets.filter(lambda s: not any(c.isspace() or c in ";,&'\"\\@/:" for c in s)))
def test_import_writes_references_for_secrets_in_free_text(secret: str) -> None:
    refs = References({})
    data = {
        "description": f"load with Password={secret};Timeout=5",
        "owner": f"svc;pwd={secret}",
        "columns": [{"name": "a", "comment": f"see postgresql://u:{secret}@h/db"}],
        "location": f"s3://u:{secret}@b/x",
    }
    written = json.dumps(refs.apply(data, "sales.orders"))
    assert secret not in written
    assert {s.variable for s in refs.secrets} == {
        "SALES_ORDERS_DESCRIPTION",
        "SALES_ORDERS_OWNER",
        "SALES_ORDERS_COMMENT",
        "SALES_ORDERS_LOCATION",
    }
    assert "Timeout=5" in written and "${env.SALES_ORDERS_LOCATION}@b/x" in written
