"""botocore sessions that read botocore's service data faster: the JSON with orjson, and a
service's files found in its own directory.

Creating a Glue client reads botocore's Glue model (1.4 MB), its endpoint rules and the
endpoint table (1.2 MB) with the standard library's JSON into OrderedDicts, about 75 ms, and
before each kind of file it loads (service model, endpoint rules, paginators) botocore lists
the directories of all 400 services to check that Glue is among them, about 20 ms each: some
100 ms of every command's start. orjson reads the same data into dicts, which keep their
order as OrderedDicts do; a service whose files are there is loaded from its own directory,
and a service that is not gets botocore's own listing and error. AWS_DATA_PATH (and a
profile's `data_path`) are searched first, as botocore searches them.
"""

from __future__ import annotations

import gzip
import os
from typing import Any

import botocore.session
import orjson
from botocore.exceptions import DataNotFoundError
from botocore.loaders import JSONFileLoader, Loader, instance_cache

from gluecat.errors import GluecatError

_OPENERS = ((".json", open), (".json.gz", gzip.open))


class OrjsonFiles(JSONFileLoader):
    """botocore's JSON data files (plain or gzipped), read with orjson."""

    def load_file(self, file_path: str) -> Any:
        for suffix, opener in _OPENERS:
            try:
                with opener(file_path + suffix, "rb") as data:
                    raw = data.read()
            except (FileNotFoundError, NotADirectoryError, IsADirectoryError):
                continue
            try:
                return orjson.loads(raw)
            except orjson.JSONDecodeError:  # what orjson refuses (NaN, huge integers): botocore's reading
                return self._botocores_reading(file_path, file_path + suffix)
        return None

    def _botocores_reading(self, file_path: str, path: str) -> Any:
        try:
            return super().load_file(file_path)
        except ValueError as exc:  # botocore's own message names no file
            raise GluecatError(
                f"{path}: not a botocore data file ({exc}): fix or remove it (AWS_DATA_PATH, or ~/.aws/models)"
            ) from exc


class ServiceData(Loader):
    """botocore's loader, reading with `OrjsonFiles` and without listing every service first."""

    FILE_LOADER_CLASS = OrjsonFiles

    @instance_cache
    def load_service_model(self, service_name: str, type_name: str, api_version: str | None = None) -> Any:
        try:
            if os.path.basename(service_name) != service_name or service_name.startswith("."):
                raise DataNotFoundError(data_path=service_name)  # not a service directory's name
            latest = self.determine_latest_version(service_name, type_name)  # lists this service's directory
        except DataNotFoundError:
            # Unknown, or no file of this kind: botocore's own path raises its own error.
            return super().load_service_model(service_name, type_name, api_version)
        version = api_version or latest
        model = self.load_data(os.path.join(service_name, version, type_name))
        botocores: Any = self  # botocore's own extras step, as its method ends (its stubs leave these out)
        botocores._extras_processor.process(model, botocores._find_extras(service_name, type_name, version))
        return model


def botocore_session(profile: str | None = None) -> botocore.session.Session:
    """A botocore session whose service data is read by
    `ServiceData`. Raises ProfileNotFound for a profile the AWS configuration lacks."""
    session = botocore.session.Session(profile=profile)
    session.register_component("data_loader", ServiceData(extra_search_paths=_data_paths(session)))
    return session


def _data_paths(session: botocore.session.Session) -> list[str]:
    """AWS_DATA_PATH, or the profile's `data_path`, as botocore's `create_loader` reads it."""
    configured = session.get_config_variable("data_path")
    if not configured:
        return []
    return [os.path.expanduser(os.path.expandvars(path)) for path in configured.split(os.pathsep)]
