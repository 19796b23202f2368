"""What counts as a secret, and how free text from libraries is scrubbed."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from gluecat.secrets import redact
from gluecat.secrets.redact import MASK, is_secret_key, mask_any, remember, scrub


@pytest.fixture(autouse=True)
def _empty_registry() -> Iterator[None]:
    redact.forget_all()
    yield
    redact.forget_all()


@pytest.mark.parametrize(
    "key",
    [
        "jdbc.password", "PASSWD", "db.pass", "ssh.passphrase", "client_secret", "api_token", "oauth",
        "http.auth.header", "aws.credentials", "private_key", "tls.private.key", "api_key", "x-api-key", "ApiKey",
        "spark.hadoop.fs.s3a.access.key", "fs.azure.sas.token", "sas", "AccountKey", "connection_string",
        "conn.str", "s3.secret-access-key",
    ],
)  # fmt: skip
def test_secret_keys(key: str) -> None:
    assert is_secret_key(key)


@pytest.mark.parametrize(
    "key",
    ["author", "compass", "bypass.cache", "classification", "location", "owner", "sasquatch", "comment", "Parameters"],
)
def test_ordinary_keys(key: str) -> None:
    assert not is_secret_key(key)


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        # pyiceberg and botocore quote dicts of properties and options in their errors
        ("properties {'s3.secret-access-key': 'wJalrXUt', 'x': '1'}", f"properties {{'s3.secret-access-key': '{MASK}', 'x': '1'}}"),
        ('Could not connect to the endpoint URL: "http://bob:hunter22@glue.local:8443/"',
         f'Could not connect to the endpoint URL: "http://bob:{MASK}@glue.local:8443/"'),
        ("jdbc:postgresql://db/sales?user=loader&password=hunter22", f"jdbc:postgresql://db/sales?user=loader&password={MASK}"),
        ("Server=db;Database=x;Pwd=hunter22;", f"Server=db;Database=x;Pwd={MASK};"),
        ("DefaultEndpointsProtocol=https;AccountName=a;AccountKey=abc/def==;", f"DefaultEndpointsProtocol=https;AccountName=a;AccountKey={MASK};"),
        # gluecat's own placeholders and ordinary prose stay as they are
        (f"parameters.api_token: (absent) -> {MASK}", f"parameters.api_token: (absent) -> {MASK}"),
        ("User is not authorized to perform: glue:GetTables", "User is not authorized to perform: glue:GetTables"),
        ("s3://lake/sales/orders/dt=2024-01-01/", "s3://lake/sales/orders/dt=2024-01-01/"),
    ],
)  # fmt: skip
def test_scrub_library_messages(text: str, shown: str) -> None:
    assert scrub(text) == shown


def test_remembered_values_are_masked_anywhere_longest_first() -> None:
    remember("abcd")
    remember("abcdefgh")
    remember("xyz")  # too short to mask without garbling other text
    assert scrub("s3://abcdefgh-lake/abcd/xyz") == f"s3://{MASK}-lake/{MASK}/xyz"


def test_mask_any_masks_nested_secret_keys_and_scrubs_strings() -> None:
    shape = {
        "Parameters": {"db.password": "p4ssw0rd", "plain": "ok", "url": "https://u:p4ss@h/"},
        "StorageDescriptor": {"SerdeInfo": {"Parameters": {"sas.token": "t0ken"}}},
        "Columns": [{"Name": "auth_code", "Type": "string"}],
    }
    assert mask_any(shape) == {
        "Parameters": {"db.password": MASK, "plain": "ok", "url": f"https://u:{MASK}@h/"},
        "StorageDescriptor": {"SerdeInfo": {"Parameters": {"sas.token": MASK}}},
        "Columns": [{"Name": "auth_code", "Type": "string"}],
    }
