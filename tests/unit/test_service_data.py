"""botocore's service data read by gluecat's loader is botocore's own, key for key and in order."""

from __future__ import annotations

import json
from pathlib import Path

import botocore.session
import pytest
from botocore.exceptions import ProfileNotFound, UnknownServiceError
from botocore.loaders import Loader, create_loader

from gluecat.backends import aws
from gluecat.backends.service_data import OrjsonFiles, ServiceData, botocore_session
from gluecat.errors import GluecatError

SERVICES = ("glue", "lakeformation", "sts", "s3")
KINDS = ("service-2", "paginators-1", "endpoint-rule-set-1", "waiters-2")


def _same(ours: object, botocores: object) -> None:
    assert json.dumps(ours) == json.dumps(botocores)  # same keys, values and order


@pytest.mark.parametrize("service", SERVICES)
def test_each_kind_of_file_is_botocores_own(service: str) -> None:
    ours, botocores = ServiceData(), Loader()
    for kind in KINDS:
        if service not in botocores.list_available_services(kind):
            continue
        _same(ours.load_service_model(service, kind), botocores.load_service_model(service, kind))
    _same(ours.load_data("endpoints"), botocores.load_data("endpoints"))
    _same(ours.load_data("_retry"), botocores.load_data("_retry"))


def test_extras_are_laid_over_as_botocore_does() -> None:
    # Glue's paginators come with an sdk-extras file: leaving it out would change GetPartitions paging.
    ours = ServiceData().load_service_model("glue", "paginators-1")
    assert ours == Loader().load_service_model("glue", "paginators-1")
    assert "non_aggregate_keys" in json.dumps(ours)


def test_a_named_api_version_is_loaded() -> None:
    versions = Loader().list_api_versions("cloudsearch", "service-2")
    assert len(versions) > 1, "a service with an older API version beside the latest"
    for version in versions:
        ours = ServiceData().load_service_model("cloudsearch", "service-2", version)
        assert ours["metadata"]["apiVersion"] == version
        _same(ours, Loader().load_service_model("cloudsearch", "service-2", version))


@pytest.mark.parametrize("name", ["no-such-service", "../glue", "glue/2017-03-31", "."])
def test_an_unknown_service_gets_botocores_error(name: str) -> None:
    with pytest.raises(UnknownServiceError) as ours:
        ServiceData().load_service_model(name, "service-2")
    with pytest.raises(UnknownServiceError) as botocores:
        Loader().load_service_model(name, "service-2")
    assert str(ours.value) == str(botocores.value)


def test_aws_data_path_is_searched_first(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    model = Loader().load_service_model("sts", "service-2")
    model["metadata"]["serviceId"] = "STS From Data Path"
    version = model["metadata"]["apiVersion"]
    (tmp_path / "sts" / version).mkdir(parents=True)
    (tmp_path / "sts" / version / "service-2.json").write_text(json.dumps(model))
    monkeypatch.setenv("AWS_DATA_PATH", str(tmp_path))
    loaded = botocore_session().get_component("data_loader").load_service_model("sts", "service-2")
    assert loaded["metadata"]["serviceId"] == "STS From Data Path"
    _same(loaded, create_loader(str(tmp_path)).load_service_model("sts", "service-2"))


def test_clients_made_from_it_have_botocores_operations() -> None:
    ours, plain = botocore_session(), botocore.session.Session()
    for service, paged in (("glue", "get_partitions"), ("lakeformation", "list_lf_tags")):
        made = ours.create_client(service, "us-east-1", aws_access_key_id="k", aws_secret_access_key="s")
        reference = plain.create_client(service, "us-east-1", aws_access_key_id="k", aws_secret_access_key="s")
        assert made.meta.service_model.operation_names == reference.meta.service_model.operation_names
        assert made.can_paginate(paged) and reference.can_paginate(paged)


def test_a_missing_profile_is_botocores_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "config").write_text("[profile real]\nregion = eu-west-1\n")
    monkeypatch.setenv("AWS_CONFIG_FILE", str(tmp_path / "config"))
    with pytest.raises(ProfileNotFound):
        botocore_session("imaginary")
    assert botocore_session("real").get_scoped_config()["region"] == "eu-west-1"


def test_a_session_and_its_client_read_the_endpoint_table_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """The region check and the client share the session's loaded data (1.2 MB of JSON)."""
    read: list[str] = []
    load = OrjsonFiles.load_file

    def counted(self: OrjsonFiles, file_path: str) -> object:
        read.append(Path(file_path).name)
        return load(self, file_path)

    monkeypatch.setattr(OrjsonFiles, "load_file", counted)
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "k")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "s")
    session = aws.open_session(None, "eu-west-1")
    aws.client(session, "glue", "http://127.0.0.1:9")
    assert read.count("endpoints") == 1
    with pytest.raises(GluecatError, match="did you mean 'eu-west-1'"):
        aws.open_session(None, "eu-wset-1")


def test_a_broken_data_file_is_named(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    version = Loader().determine_latest_version("glue", "service-2")
    (tmp_path / "glue" / version).mkdir(parents=True)
    (tmp_path / "glue" / version / "service-2.json").write_text("{broken")
    monkeypatch.setenv("AWS_DATA_PATH", str(tmp_path))
    with pytest.raises(GluecatError, match=r"glue/.*/service-2\.json: not a botocore data file .*AWS_DATA_PATH"):
        botocore_session().create_client("glue", region_name="eu-west-1")


def test_json_only_the_standard_library_reads_is_read_as_botocore_reads_it(tmp_path: Path) -> None:
    (tmp_path / "limits.json").write_text('{"huge": 123456789012345678901234567890, "nothing": NaN}')
    loaded = OrjsonFiles().load_file(str(tmp_path / "limits"))
    assert loaded["huge"] == 123456789012345678901234567890
    assert loaded["nothing"] != loaded["nothing"]  # NaN, as botocore's json.loads reads it
