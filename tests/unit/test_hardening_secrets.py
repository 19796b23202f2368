"""One masking path sees every spelling a secret is written in: as itself, escaped into a partition's
path, inside an Athena view's base64 payload; and a saved plan restores only what gluecat masked."""

from __future__ import annotations

import base64
import json
from collections.abc import Iterator

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from gluecat.adopt.refs import References
from gluecat.convert import locations, presto_view
from gluecat.secrets import redact
from gluecat.secrets import values as secret_values
from gluecat.secrets.redact import MASK, is_secret_key, scrub

SECRET = "pa ss/w:rd#1=%x"


@pytest.fixture(autouse=True)
def _empty_registry() -> Iterator[None]:
    redact.forget_all()
    yield
    redact.forget_all()


@pytest.mark.parametrize(
    "key",
    [
        "fs.azure.account.key.acct.dfs.core.windows.net", "spark.hadoop.fs.azure.account.key.a.blob.core.windows.net",
        "azure.storage.account_key", "fs.azure.sas.acct.token", "sasKey", "SharedAccessKey", "fs.s3a.encryption.key",
        "fs.gs.auth.service.account.private.key", "google.cloud.auth.service.account.json.keyfile",
        "service_account_json", "javax.jdo.option.ConnectionPassword", "spark.hadoop.fs.s3a.session.token",
    ],
)  # fmt: skip
def test_azure_gcp_and_jdbc_key_spellings_are_secret(key: str) -> None:
    assert is_secret_key(key)


@pytest.mark.parametrize("key", ["accountant", "sasl.enabled", "keystore.type", "serviceName", "account"])
def test_neighbouring_words_are_not(key: str) -> None:
    assert not is_secret_key(key)


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("jdbc:oracle:thin:scott/Tiger99x@//db:1521/orcl", f"jdbc:oracle:thin:scott/{MASK}@//db:1521/orcl"),
        ("https://a.blob.core.windows.net/c?sv=2022&sig=AbC%2Bdef&se=1", f"https://a.blob.core.windows.net/c?sv=2022&sig={MASK}&se=1"),
    ],
)  # fmt: skip
def test_jdbc_and_signed_urls_are_scrubbed(text: str, shown: str) -> None:
    assert scrub(text) == shown


def _payload(sql: str) -> str:
    return presto_view.encode(sql, "sales", [("id", "bigint")])


def _decoded(text: str) -> str:
    body = text.split("Presto View: ", 1)[1].split(" */", 1)[0]
    return base64.b64decode(body).decode("utf-8")


def test_a_secret_in_a_view_payload_is_masked_in_its_base64_and_restored_exactly() -> None:
    secret_values.register("VIEW_PW", SECRET)
    payload = _payload(f"SELECT * FROM t WHERE pw = '{SECRET}'")

    shown = redact.scrub_known(f"view_original_text: {payload}")
    assert SECRET not in _decoded(shown) and "(sensitive:VIEW_PW)" in _decoded(shown)
    saved = secret_values.mask_data({"ViewOriginalText": payload})
    assert SECRET not in json.dumps(saved) and SECRET not in _decoded(saved["ViewOriginalText"])
    assert secret_values.placeholders(json.dumps(saved)) == {"VIEW_PW"}
    assert secret_values.restore_data(saved, {"VIEW_PW": SECRET}) == {"ViewOriginalText": payload}


def test_a_payload_without_a_secret_keeps_its_bytes() -> None:
    secret_values.register("OTHER", "unrelated-value")
    terraform = (
        "/* Presto View: " + base64.b64encode(b'{"originalSql":"SELECT 1 \\u003c 2","catalog":"x"}').decode() + " */"
    )
    assert secret_values.mask(terraform) == terraform
    assert secret_values.restore_data(secret_values.mask_data(terraform), {}) == terraform


def test_a_placeholder_planted_in_a_view_payload_never_receives_an_environment_value() -> None:
    payload = _payload("SELECT '(sensitive:AWS_SECRET_ACCESS_KEY)' AS x")
    saved = secret_values.mask_data({"ViewOriginalText": payload})
    assert secret_values.placeholders(json.dumps(saved)) == set()
    restored = secret_values.restore_data(saved, {"AWS_SECRET_ACCESS_KEY": "LEAKED-KEY"})
    assert restored == {"ViewOriginalText": payload}


def test_a_secret_partition_value_is_masked_escaped_in_its_location_and_restored_escaped() -> None:
    secret_values.register("PART", SECRET)
    location = locations.partition_location("s3://lake/t", ["k"], [SECRET])
    assert locations.escape_path_name(SECRET) in location

    shown = redact.scrub_known(location)
    assert shown == "s3://lake/t/k=(sensitive:PART@path)/"
    saved = secret_values.mask_data({"values": [SECRET], "location": location})
    assert json.dumps(saved).count("(sensitive:PART") == 2
    assert secret_values.restore_data(saved, {"PART": SECRET}) == {"values": [SECRET], "location": location}


def test_an_unknown_spelling_in_a_saved_plan_is_one_line() -> None:
    from gluecat.errors import GluecatError

    with pytest.raises(GluecatError, match="plan again"):
        secret_values.restore_data("s3://x/k=(sensitive:PART@rot)/", {"PART": "v"})


@settings(max_examples=150, deadline=None)
@given(secret=st.text(min_size=secret_values.MIN_INSIDE_TEXT, max_size=20).filter(lambda s: s.strip() == s and s))
def test_any_secret_round_trips_through_every_spelling(secret: str) -> None:
    # A secret spelled like the payload's own JSON (`true`, `columns`) is no secret the payload holds.
    assume(secret not in _decoded(_payload("SELECT ''")) and secret not in "s3://lake/t/k=/")
    redact.forget_all()
    secret_values.register("ANY", secret)
    document = {
        "location": locations.partition_location("s3://lake/t", ["k"], [secret]),
        "view": _payload(f"SELECT '{secret}'"),
        "values": [secret],
    }
    saved = secret_values.mask_data(document)
    # The payload's framing (`/* Presto View: ... */`, its base64) is the view's, not the secret's:
    # what is read is the text beside it and the JSON inside it.
    text = json.dumps({key: value for key, value in saved.items() if key != "view"}, ensure_ascii=False)
    assert secret not in text
    assert saved["view"].startswith("/* Presto View: ")
    assert secret not in _decoded(saved["view"])
    assert secret_values.restore_data(saved, {"ANY": secret}) == document


def test_import_writes_references_for_secret_storage_and_partition_parameters() -> None:
    references = References({})
    data = {
        "storage_parameters": {"fs.azure.account.key.a.dfs.core.windows.net": "AzureKey77", "field.delim": ","},
        "parameters": {"source": "jdbc:oracle:thin:scott/Tiger99x@//db:1521/orcl", "owner": "ingest"},
        "partitions": [
            {"values": {"dt": "a"}, "parameters": {"db.password": "PartLive55"}},
            {"values": {"dt": "b"}, "parameters": {"db.password": "PartLive55"}},
            {"values": {"dt": "c"}, "storage_parameters": {"sas.token": "Other66"}},
        ],
    }
    written = references.apply(data, "sales.t")
    text = json.dumps(written)
    for planted in ("AzureKey77", "Tiger99x", "PartLive55", "Other66"):
        assert planted not in text
    assert written["storage_parameters"]["field.delim"] == "," and written["parameters"]["owner"] == "ingest"
    first, second, _ = written["partitions"]
    assert first["parameters"] == second["parameters"], "one value under one key of a table is one variable"
    assert [secret.variable for secret in references.secrets] == [
        "SALES_T_FS_AZURE_ACCOUNT_KEY_A_DFS_CORE_WINDOWS_NET",
        "SALES_T_SOURCE",
        "SALES_T_DB_PASSWORD",
        "SALES_T_SAS_TOKEN",
    ]


def test_held_back_secrets_are_addressed_by_place_and_filled_from_live() -> None:
    from gluecat.errors import ConflictError
    from gluecat.secrets import held

    live = {
        "Parameters": {"jdbc.password": "LiveOnly1", "owner": "ingest"},
        "StorageDescriptor": {"Columns": [{"Name": "a", "Parameters": {"api_key": "ColumnKey2"}}]},
    }
    desired = {
        "Parameters": {"jdbc.password": "LiveOnly1", "owner": "ingest", "db.password": "Declared3"},
        "StorageDescriptor": {"Columns": [{"Name": "a", "Parameters": {"api_key": "ColumnKey2"}}]},
    }
    saved = held.hold_back(desired, [("parameters.db.password", "Declared3")])
    assert "LiveOnly1" not in repr(saved) and "ColumnKey2" not in repr(saved)
    assert saved["Parameters"]["db.password"] == "Declared3" and saved["Parameters"]["owner"] == "ingest"
    assert held.holds(saved)
    assert held.fill(saved, live, "sales.t") == desired
    with pytest.raises(ConflictError, match="gone from Glue"):
        held.fill(saved, {"Parameters": {}}, "sales.t")


def test_a_planted_held_back_mark_is_escaped_like_any_placeholder() -> None:
    from gluecat.secrets import held

    saved = secret_values.mask_data({"Parameters": {"note": held.MARK}})
    assert not held.holds(saved)
    assert secret_values.restore_data(saved, {}) == {"Parameters": {"note": held.MARK}}
