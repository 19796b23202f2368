"""Each backend's own settings, written flat in catalog.yaml and resolved as one union on `backend`:
a key of another backend is refused where written (the catalog's, an environment's), and an
environment that switches backend brings its own keys."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from gluecat.backends.registry import BACKENDS
from gluecat.errors import GluecatError
from gluecat.model import CatalogConfig
from gluecat.model.backend_settings import OWNERS, SETTINGS, GlueSettings, HiveSettings, RestSettings, backend_of
from gluecat.project.environments import effective
from gluecat.project.load import read_catalog_config

SCHEMA = json.loads((Path(__file__).parents[2] / "schemas" / "catalog.schema.json").read_text(encoding="utf-8"))


def _refusals(tmp_path: Path, text: str) -> list[str]:
    (tmp_path / "catalog.yaml").write_text(text)
    with pytest.raises(GluecatError) as raised:
        read_catalog_config(tmp_path)
    prefix = f"{tmp_path / 'catalog.yaml'}:"
    return [line.removeprefix(prefix) for line in str(raised.value).splitlines()]


def _loaded(tmp_path: Path, text: str) -> CatalogConfig:
    (tmp_path / "catalog.yaml").write_text(text)
    return read_catalog_config(tmp_path)[0]


def _schema_takes(data: dict[str, Any]) -> bool:
    return jsonschema.Draft202012Validator(SCHEMA).is_valid(data)


def test_a_key_of_another_backend_is_refused_at_its_line_naming_both_backends(tmp_path: Path) -> None:
    text = "region: eu-west-1\nmetastore_uri: thrift://hms:9083\nrest_auth: {type: none}\n"
    assert _refusals(tmp_path, text) == [
        "2:1: 'metastore_uri' is a setting of backend: hive; this catalog has backend: glue: remove it,"
        " or set backend: hive",
        "3:1: 'rest_auth' is a setting of backend: iceberg-rest; this catalog has backend: glue: remove it,"
        " or set backend: iceberg-rest",
    ]
    assert _refusals(tmp_path, "backend: hive\nmetastore_uri: thrift://hms:9083\ncatalog_id: '1'\n") == [
        "3:1: 'catalog_id' is a setting of backend: glue; this catalog has backend: hive: remove it, or set backend: glue"
    ]
    assert not _schema_takes({"metastore_uri": "thrift://hms:9083"})
    assert not _schema_takes({"backend": "hive", "catalog_id": "1"})


def test_a_key_of_another_backend_under_an_environment_is_refused_there(tmp_path: Path) -> None:
    text = (
        "backend: hive\nmetastore_uri: thrift://hms:9083\ndefault_env: dev\nenvironments:\n"
        "  dev: {rest_auth: {type: none}}\n"
        "  prod:\n    backend: glue\n    rest_uri: https://catalog.example/api\n"
    )
    assert _refusals(tmp_path, text) == [
        "5:9: 'rest_auth' is a setting of backend: iceberg-rest; environment 'dev' has backend: hive (the catalog's):"
        " remove it, or set backend: iceberg-rest",
        "8:5: 'rest_uri' is a setting of backend: iceberg-rest; environment 'prod' has backend: glue: remove it,"
        " or set backend: iceberg-rest",
    ]
    hive_env = {"backend": "hive", "metastore_uri": "thrift://hms:9083", "environments": {"dev": {"rest_auth": {}}}}
    assert not _schema_takes(hive_env)
    assert not _schema_takes({"environments": {"dev": {"backend": "glue", "rest_uri": "https://catalog.example"}}})


def test_an_environment_switching_backend_brings_its_own_keys_and_keeps_the_shared_ones(tmp_path: Path) -> None:
    text = (
        "region: eu-west-1\ncatalog_id: '123456789012'\ndefault_env: glue\nenvironments:\n"
        "  glue: {}\n"
        "  hms: {backend: hive, metastore_uri: 'thrift://hms:9083', metastore_version: '4.0'}\n"
        "  rest: {backend: iceberg-rest, rest_uri: 'https://catalog.example/api', rest_warehouse: lake}\n"
    )
    config = _loaded(tmp_path, text)
    assert effective(config, "glue").connection == GlueSettings(catalog_id="123456789012")
    hms = effective(config, "hms")
    assert hms.connection == HiveSettings(backend="hive", metastore_uri="thrift://hms:9083", metastore_version="4.0")
    assert (hms.backend, hms.region, hms.connection.account) == ("hive", "eu-west-1", None)  # catalog_id is Glue's
    rest = effective(config, "rest")
    assert (rest.connection.address, rest.connection.scope) == ("https://catalog.example/api", "lake")
    assert isinstance(rest.connection, RestSettings)
    assert _schema_takes(_data(tmp_path))


def test_an_environment_keeping_the_backend_overrides_its_keys_one_by_one(tmp_path: Path) -> None:
    text = (
        "backend: hive\nmetastore_uri: thrift://hms:9083\nmetastore_version: '4.0'\ndefault_env: dev\n"
        "environments:\n  dev: {metastore_uri: 'thrift://hms-dev:9083', metastore_version: null}\n  prod: {}\n"
    )
    config = _loaded(tmp_path, text)
    dev = effective(config, "dev").connection
    assert (dev.address, dev.version) == ("thrift://hms-dev:9083", "4.0")  # null overrides nothing
    assert effective(config, "prod").connection == config.connection
    assert _schema_takes(_data(tmp_path))


def test_another_backends_key_written_empty_says_nothing_and_is_taken(tmp_path: Path) -> None:
    config = _loaded(tmp_path, "region: eu-west-1\nmetastore_uri: null\nrest_auth: null\n")
    assert config.connection == GlueSettings()
    assert _schema_takes(_data(tmp_path))


def test_connection_is_no_key_of_the_file(tmp_path: Path) -> None:
    refused = _refusals(tmp_path, "region: eu-west-1\nconnection: {backend: hive}\n")
    assert len(refused) == 1 and refused[0].startswith("2:1: unknown key 'connection'")
    assert not _schema_takes({"connection": {"backend": "hive"}})


def test_a_misspelt_key_of_a_backend_gets_its_did_you_mean(tmp_path: Path) -> None:
    assert _refusals(tmp_path, "backend: iceberg-rest\nrest_ur: https://catalog.example\n") == [
        "2:1: unknown key 'rest_ur' — did you mean 'rest_uri'?"
    ]


def test_each_backend_has_one_settings_model_and_its_address_is_the_registry_s_key() -> None:
    assert sorted(backend_of(model) for model in SETTINGS) == sorted(BACKENDS)
    assert len(OWNERS) == sum(len(model.model_fields) - 1 for model in SETTINGS)  # each key declared once
    for model in SETTINGS:
        name = backend_of(model)
        key = BACKENDS[name].address_key
        settings = model.model_validate({"backend": name, **({key: _address(name)} if key else {})})
        assert settings.address == (_address(name) if key else None)
        assert key is None or OWNERS[key] == name


def _address(backend: str) -> str:
    return {"hive": "thrift://hms:9083"}.get(backend, "https://catalog.example/api")


def _data(tmp_path: Path) -> dict[str, Any]:
    from gluecat.project.source import read_yaml

    data: dict[str, Any] = read_yaml(tmp_path / "catalog.yaml").data
    return data


def test_an_environment_built_alone_keeps_the_catalogs_backend_unless_it_names_one() -> None:
    from gluecat.model import Environment

    hive = {"backend": "hive", "metastore_uri": "thrift://hms:9083"}
    config = CatalogConfig.model_validate({**hive, "environments": {"dev": Environment(region="eu-west-1")}})
    assert effective(config, "dev").connection == config.connection
    assert effective(config, "dev").region == "eu-west-1"
    assert Environment.model_validate({"catalog_id": "1"}).connection == GlueSettings(catalog_id="1")


def test_a_missing_address_points_at_the_backend_in_force(tmp_path: Path) -> None:
    from gluecat.lint.project import findings_for

    (tmp_path / "catalog.yaml").write_text(
        "region: eu-west-1\nsandbox: true\nenvironments:\n  dev: {region: eu-west-1}\n  meta:\n    backend: hive\n"
    )
    findings, _ = findings_for(tmp_path, "meta")
    assert [(str(f.position).rsplit(":", 2)[-2:], f.message) for f in findings if f.rule == "backend"] == [
        (["6", "14"], "backend: hive needs `metastore_uri: thrift://HOST:PORT` (here or in the environment)")
    ]
    (tmp_path / "catalog.yaml").write_text("backend: hive\nenvironments:\n  dev: {region: eu-west-1}\n")
    findings, _ = findings_for(tmp_path, "dev")
    assert [str(f.position).rsplit(":", 2)[-2:] for f in findings if f.rule == "backend"] == [["1", "10"]]
