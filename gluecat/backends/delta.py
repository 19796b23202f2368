"""Delta tables through deltalake (delta-rs): read the log, create it, alter it."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from deltalake import DeltaTable
from deltalake.exceptions import DeltaError

from gluecat.backends.aws import Session, delta_timeouts, region_of
from gluecat.backends.delta_types import delta_fields, delta_schema, type_text
from gluecat.backends.denied import live_error
from gluecat.backends.glue import static_credentials
from gluecat.errors import LiveStateError
from gluecat.model import Column
from gluecat.text.plain import one_line


@dataclass(frozen=True)
class DeltaLog:
    """What a plan needs from a Delta log: its schema, partitioning, configuration, description."""

    columns: dict[str, str]  # name -> type in Hive spelling
    partition_columns: list[str]
    configuration: dict[str, str]
    description: str | None
    comments: dict[str, str] = field(default_factory=dict)


def storage_options(session: Session, endpoint_url: str | None) -> dict[str, str]:
    options = {"AWS_REGION": region_of(session) or "us-east-1", **delta_timeouts()}
    credentials = static_credentials(session)
    if credentials:
        options["AWS_ACCESS_KEY_ID"] = credentials.access_key
        options["AWS_SECRET_ACCESS_KEY"] = credentials.secret_key
        if credentials.token:
            options["AWS_SESSION_TOKEN"] = credentials.token
    if endpoint_url:
        options["AWS_ENDPOINT_URL"] = endpoint_url
        options["AWS_ALLOW_HTTP"] = "true" if endpoint_url.startswith("http://") else "false"
    return options


@contextmanager
def rust_panics_as(doing: str) -> Iterator[None]:
    """deltalake's Rust panics arrive as pyo3's PanicException, which derives from BaseException
    (so `except Exception` misses it): at this boundary it becomes a LiveStateError."""
    try:
        yield
    except BaseException as exc:
        if type(exc).__name__ != "PanicException":
            raise
        raise LiveStateError(f"{doing}: deltalake failed inside its Rust code ({exc})") from exc


class DeltaTables:
    def __init__(self, session: Session, endpoint_url: str | None) -> None:
        self.options = storage_options(session, endpoint_url)

    def read(self, uri: str) -> DeltaLog | None:
        """The log at `uri`, or None when there is no Delta table there."""
        with rust_panics_as(f"cannot read the Delta log at {uri}"):
            return self._read(uri)

    def _read(self, uri: str) -> DeltaLog | None:
        try:
            if not DeltaTable.is_deltatable(uri, storage_options=self.options):
                return None
            table = DeltaTable(uri, storage_options=self.options)
            metadata = table.metadata()
            fields = table.schema().fields
        except (DeltaError, OSError) as exc:
            raise live_error(exc, f"cannot read the Delta log at {uri}: {one_line(str(exc))}") from exc
        return DeltaLog(
            columns={f.name: type_text(f.type) for f in fields},
            partition_columns=list(metadata.partition_columns),
            configuration=dict(metadata.configuration),
            description=metadata.description,
            comments={f.name: str(f.metadata["comment"]) for f in fields if "comment" in f.metadata},
        )

    def create(self, uri: str, name: str, spec: dict[str, Any]) -> None:
        columns = [Column.model_validate(c) for c in spec["columns"]]
        with rust_panics_as(f"cannot create the Delta table at {uri}"):
            self._create(uri, name, spec, columns)

    def _create(self, uri: str, name: str, spec: dict[str, Any], columns: list[Column]) -> None:
        try:
            DeltaTable.create(
                uri,
                delta_schema(columns),
                mode="error",  # never overwrite a log that appeared since the plan
                partition_by=spec["partition_columns"] or None,
                name=name,
                description=spec.get("description"),
                configuration=spec["properties"] or None,
                storage_options=self.options,
            )
        except (DeltaError, OSError, ValueError) as exc:
            raise live_error(exc, f"cannot create the Delta table at {uri}: {one_line(str(exc))}") from exc

    def alter(self, uri: str, ops: dict[str, Any]) -> None:
        with rust_panics_as(f"cannot change the Delta table at {uri}"):
            self._alter(uri, ops)

    def _alter(self, uri: str, ops: dict[str, Any]) -> None:
        try:
            table = DeltaTable(uri, storage_options=self.options)
            if ops.get("add_columns"):
                table.alter.add_columns(delta_fields([Column.model_validate(c) for c in ops["add_columns"]]))
            if ops.get("set_properties"):
                table.alter.set_table_properties(ops["set_properties"], raise_if_not_exists=False)
            if ops.get("description") is not None:
                table.alter.set_table_description(ops["description"])
        except (DeltaError, OSError, ValueError) as exc:
            raise live_error(exc, f"cannot change the Delta table at {uri}: {one_line(str(exc))}") from exc
