"""Authentication to a REST catalog, against a local proxy that checks it (the test server checks
nothing): OAuth2 client credentials and a 401 from the token endpoint, a bearer token, SigV4 with
the right and a wrong signing name; secrets named as ${env.NAME}, never written, never printed."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.integration.helpers import gluecat, write_project
from tests.metastores.fixtures import ACCESS_KEY, SECRET_KEY, LocalS3
from tests.rest.auth_proxy import Expected, auth_proxy
from tests.rest.rest_server import RestCatalogServer

TABLE = "format: iceberg\ncolumns:\n  - {name: id, type: bigint}\n"


def _project(root: Path, s3: LocalS3, uri: str, ns: str, auth: str) -> Path:
    files = {f"{ns}/database.yaml": f"location: s3://{s3.bucket}/{ns}/\n", f"{ns}/tables/t.yaml": TABLE}
    return write_project(root, s3.endpoint, files, f"backend: iceberg-rest\nrest_uri: {uri}\nrest_auth: {auth}\n")


def test_oauth2_client_credentials_reach_the_catalog(
    tmp_path: Path, rest_catalog: RestCatalogServer, rest_s3: LocalS3, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("REST_SECRET", "s3cret-value")
    expected = Expected("oauth2", client_id="gluecat", client_secret="s3cret-value")
    with auth_proxy(rest_catalog.uri, expected) as (uri, seen):
        auth = "{type: oauth2, client_id: gluecat, client_secret: '${env.REST_SECRET}', scope: catalog}"
        root = _project(tmp_path / "p", rest_s3, uri, "oauth_ok", auth)
        applied = gluecat("apply", "--auto-approve", str(root))
        assert applied.exit_code == 0, applied.output
        assert gluecat("plan", "--detailed-exitcode", str(root)).exit_code == 0
    assert any(line.startswith("200 POST /v1/namespaces/oauth_ok/tables") for line in seen), seen
    assert not any(line.startswith("40") for line in seen), seen
    assert "s3cret-value" not in applied.output


def test_a_401_from_the_token_endpoint_is_one_line_and_writes_nothing(
    tmp_path: Path, rest_catalog: RestCatalogServer, rest_s3: LocalS3, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("REST_SECRET", "wrong-secret")
    expected = Expected("oauth2", client_id="gluecat", client_secret="s3cret-value")
    with auth_proxy(rest_catalog.uri, expected) as (uri, seen):
        auth = "{type: oauth2, client_id: gluecat, client_secret: '${env.REST_SECRET}'}"
        root = _project(tmp_path / "p", rest_s3, uri, "oauth_bad", auth)
        applied = gluecat("apply", "--auto-approve", str(root))
    assert applied.exit_code == 1
    lines = [line for line in applied.output.splitlines() if line.strip()]
    assert len(lines) == 1 and uri in lines[0] and "wrong-secret" not in applied.output, applied.output
    assert seen == ["401 token endpoint: wrong client credentials"]


def test_a_bearer_token_from_the_environment(
    tmp_path: Path, rest_catalog: RestCatalogServer, rest_s3: LocalS3, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("REST_TOKEN", "bearer-value")
    with auth_proxy(rest_catalog.uri, Expected("bearer", token="bearer-value")) as (uri, seen):
        root = _project(tmp_path / "p", rest_s3, uri, "bearer_ok", "{type: bearer, token: '${env.REST_TOKEN}'}")
        applied = gluecat("apply", "--auto-approve", str(root))
    assert applied.exit_code == 0, applied.output
    assert any(line.startswith("200 POST /v1/namespaces/bearer_ok/tables") for line in seen), seen


@pytest.mark.parametrize(("signing_name", "accepted"), [("glue", True), ("s3tables", False)])
def test_sigv4_signed_for_its_signing_name(
    tmp_path: Path, rest_catalog: RestCatalogServer, rest_s3: LocalS3, signing_name: str, accepted: bool
) -> None:
    expected = Expected("sigv4", signing_name="glue", access_key=ACCESS_KEY, secret_key=SECRET_KEY)
    with auth_proxy(rest_catalog.uri, expected) as (uri, seen):
        root = _project(
            tmp_path / "p", rest_s3, uri, f"sigv4_{signing_name}", f"{{type: sigv4, signing_name: {signing_name}}}"
        )
        applied = gluecat("apply", "--auto-approve", str(root))
    if accepted:
        assert applied.exit_code == 0, applied.output
        assert not any(line.startswith("40") for line in seen), seen
    else:
        assert applied.exit_code == 1
        lines = [line for line in applied.output.splitlines() if line.strip()]
        assert len(lines) == 1 and uri in lines[0], applied.output
        assert all(line.startswith("403") for line in seen), seen


def test_a_secret_written_in_catalog_yaml_is_refused_at_its_line(tmp_path: Path, rest_s3: LocalS3) -> None:
    root = _project(tmp_path / "p", rest_s3, "http://127.0.0.1:1", "literal", "{type: bearer, token: abcdef}")

    validated = gluecat("validate", str(root))

    assert validated.exit_code == 1
    assert "catalog.yaml:" in validated.output and "${env.NAME}" in validated.output, validated.output
    assert "abcdef" not in validated.output
