"""Table files: one model per format (hive, iceberg, delta), chosen by the `format` key."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, Field, model_validator

from gluecat.model import hivetype
from gluecat.model.base import (
    ColumnName,
    Comment,
    Description,
    Location,
    ObjectName,
    OptionalParameters,
    Parameters,
    Strict,
)
from gluecat.model.delta_properties import delta_properties
from gluecat.model.lakeformation import Grant, TagAssignments
from gluecat.model.lint_policy import LintPolicy
from gluecat.model.optimizers import Optimizers
from gluecat.model.partition_index import PartitionIndex
from gluecat.model.partitions import PartitionItem
from gluecat.model.projection import Projection
from gluecat.model.storage import STORAGE_FORMATS
from gluecat.model.suggest import check_member
from gluecat.model.words import a


def _valid_type(value: str) -> str:
    return hivetype.canonical(value)


HiveTypeText = Annotated[str, AfterValidator(_valid_type)]


class Column(Strict):
    name: ColumnName
    type: HiveTypeText = Field(description="Hive type string, e.g. bigint, decimal(10,2)")
    comment: Comment | None = None
    parameters: Parameters = Field(default_factory=dict, description="Glue column parameters")
    lf_tags: TagAssignments | None = Field(None, description="Lake Formation LF-tags assigned to the column")


def _valid_iceberg_type(value: str) -> str:
    return hivetype.canonical(value, iceberg=True)


class IcebergColumn(Column):
    type: Annotated[str, AfterValidator(_valid_iceberg_type)] = Field(
        description="Hive type string, plus timestamptz and uuid"
    )
    required: bool = Field(False, description="Iceberg: the column may not hold nulls")
    renamed_from: ColumnName | None = Field(
        None,
        description="The column's earlier name: the plan renames it, keeping its field id and its values",
    )
    renamed_fields: dict[str, str] = Field(
        default_factory=dict,
        description="Struct fields renamed inside this column: {the field's path in the column, by the new"
        " names (`os_name`; `element.sku` in a list of structs; `value.sku` in a map): its earlier name}",
    )


class Serde(Strict):
    name: str | None = Field(None, description="SerdeInfo.Name, as some tools set it")
    library: str | None = Field(None, description="SerDe class; default from `storage`")
    parameters: Parameters = Field(default_factory=dict)


class TableBase(Strict):
    name: ObjectName | None = Field(None, description="Defaults to the file stem")
    description: Description | None = None
    location: Location | None = Field(
        None, description="S3 URI of the table's data; '' for a table without one (a stream, a JDBC source)"
    )
    parameters: Parameters = Field(default_factory=dict, description="Glue table parameters")
    allow_breaking: str | None = Field(
        None, description="Why a breaking change to this table is deliberate: the plan gate lets it through"
    )
    lint: LintPolicy | None = Field(None, description="Exceptions to lint rules, kept visible for review")
    skip_archive: bool | None = Field(
        None, description="true: updates keep no archived version in Glue (SkipArchive); default catalog.yaml's"
    )
    lf_tags: TagAssignments | None = Field(None, description="Lake Formation LF-tags assigned to the table")
    grants: list[Grant] | None = Field(
        None, description="Lake Formation grants on the table; present: gluecat owns the table's grants"
    )


def _storage_name(value: str) -> str:
    known = ", ".join(STORAGE_FORMATS)
    return check_member(value, STORAGE_FORMATS, "storage", f"use one of {known}, or input_format/serde")


class HiveTable(TableBase):
    format: Literal["hive"] = "hive"
    table_type: Literal["EXTERNAL_TABLE", "MANAGED_TABLE"] | None = Field(
        "EXTERNAL_TABLE", description="null: no TableType in Glue, as some crawlers leave it"
    )
    columns: list[Column] = Field(default_factory=list)
    storage: Annotated[str, AfterValidator(_storage_name)] | None = Field(
        None, description="Shorthand: " + ", ".join(STORAGE_FORMATS)
    )
    input_format: str | None = None
    output_format: str | None = None
    serde: Serde | None = None
    storage_parameters: Parameters = Field(
        default_factory=dict, description="StorageDescriptor parameters (crawlers and Glue ETL read them)"
    )
    partition_keys: list[Column] = Field(default_factory=list)
    partitions: list[PartitionItem] | None = Field(
        None, description="Declared partitions; absent means live partitions are left alone"
    )
    projection: Projection | None = Field(
        None, description="Athena partition projection, written as its projection.* parameters"
    )
    partition_indexes: list[PartitionIndex] | None = Field(
        None, description="Partition indexes (at most 3); absent means live indexes are left alone"
    )
    partition_schema: Literal["keep", "follow"] = Field(
        "keep",
        description="follow: when the table's columns or SerDe change, apply brings every partition's in step",
    )
    extra: dict[str, Any] = Field(
        default_factory=dict,
        description="Glue TableInput fields gluecat does not model (Owner, Retention, StorageDescriptor"
        " bucketing and skew ...), written to Glue as they are",
    )

    @model_validator(mode="after")
    def _storage_or_formats(self) -> HiveTable:
        explicit = self.input_format and self.output_format and self.serde and self.serde.library
        if not self.storage and not explicit:
            raise ValueError(
                "a hive table needs `storage` (" + ", ".join(STORAGE_FORMATS) + ") or"
                " input_format, output_format and serde.library"
            )
        return self

    @model_validator(mode="after")
    def _projection_typed_once(self) -> HiveTable:
        raw = sorted(k for k in self.parameters if k.startswith("projection.") or k == "storage.location.template")
        if self.projection is not None and raw:
            raise ValueError(
                f"`projection` writes the projection parameters; remove {', '.join(raw)} from `parameters`"
            )
        return self


_TRANSFORM = re.compile(r"^(identity|year|month|day|hour|void|bucket\[\d+\]|truncate\[\d+\])$")


def _transform(value: str) -> str:
    if not _TRANSFORM.match(value):
        raise ValueError(f"unknown transform '{value}': use identity, year, month, day, hour, bucket[N] or truncate[W]")
    return value


Transform = Annotated[str, AfterValidator(_transform)]


class IcebergPartitionField(Strict):
    column: str
    transform: Transform = "identity"
    name: str | None = Field(None, description="Partition field name; default from Iceberg")


class IcebergSortField(Strict):
    column: str
    transform: Transform = "identity"
    direction: Literal["asc", "desc"] = "asc"
    null_order: Literal["nulls-first", "nulls-last"] = "nulls-first"


class IcebergTable(TableBase):
    format: Literal["iceberg"]
    columns: list[IcebergColumn] = Field(default_factory=list)
    partition_spec: list[IcebergPartitionField] = Field(default_factory=list)
    sort_order: list[IcebergSortField] = Field(default_factory=list)
    properties: OptionalParameters = Field(
        default_factory=dict, description="Iceberg table properties; null removes one"
    )
    optimizers: Optimizers | None = Field(
        None, description="Glue table optimizers (compaction, retention, orphan-file deletion); absent: left alone"
    )


class DeltaTable(TableBase):
    format: Literal["delta"]
    columns: list[Column] = Field(default_factory=list)
    partition_columns: list[str] = Field(default_factory=list)
    properties: Annotated[Parameters, AfterValidator(delta_properties)] = Field(
        default_factory=dict, description="Delta table configuration"
    )


class ViewTable(TableBase):
    """A Glue view (TableType VIRTUAL_VIEW): plain SQL for Athena or Spark, or the texts as an engine wrote them."""

    format: Literal["view"]
    dialect: Literal["athena", "spark"] | None = Field(
        None, description="athena: a Presto view Athena reads; spark: a Hive view Spark reads"
    )
    sql: str | None = Field(None, description="The view's SQL (with `dialect`)")
    # Wider than TableBase's: a null leaves out a parameter the dialect would write.
    parameters: OptionalParameters = Field(  # type: ignore[assignment]
        default_factory=dict,
        description="Glue table parameters; null leaves out one the dialect writes (`comment: null`)",
    )
    columns: list[Column] = Field(default_factory=list)
    view_original_text: str | None = Field(None, description="ViewOriginalText, as the engine wrote it")
    view_expanded_text: str | None = Field(None, description="ViewExpandedText")
    extra: dict[str, Any] = Field(
        default_factory=dict,
        description="Glue TableInput fields gluecat does not model (Owner, the view's StorageDescriptor"
        " beyond its columns ...), written to Glue as they are",
    )

    @model_validator(mode="after")
    def _sql_or_texts(self) -> ViewTable:
        if self.dialect is None:
            if self.sql is not None:
                raise ValueError("`sql` needs `dialect: athena` or `dialect: spark`")
            if self.view_original_text is None:
                raise ValueError("a view needs `dialect` and `sql`, or `view_original_text`")
            return self
        if self.view_original_text is not None or self.view_expanded_text is not None:
            raise ValueError(
                "with `dialect`, gluecat writes the view texts from `sql`: remove view_original_text/view_expanded_text"
            )
        needs = [] if (self.sql or "").strip() else ["`sql` (the SELECT it stands for)"]
        needs += [] if self.columns else ["`columns` (Athena and Spark read the view's schema from them)"]
        if needs:
            raise ValueError(f"{a(self.dialect)} view needs {' and '.join(needs)}")
        return self


class RegistrationTable(TableBase):
    """A Glue entry gluecat carries verbatim: created from `table_input` when missing, never changed.

    For tables whose real definition lives elsewhere and cannot be read (an Iceberg table whose
    metadata is gone, a Delta table whose log is out of reach, an Athena-registered Delta table)."""

    format: Literal["registration"]
    reason: str | None = Field(None, description="Why this table is carried as a registration")
    table_input: dict[str, Any] = Field(description="The Glue TableInput, written as it is when the table is missing")

    @model_validator(mode="after")
    def _no_modelled_keys(self) -> RegistrationTable:
        given = [key for key in ("location", "description") if getattr(self, key) is not None]
        given += ["parameters"] if self.parameters else []
        if given:
            raise ValueError(f"a registration carries everything in `table_input`: move {', '.join(given)} there")
        return self


Table = HiveTable | IcebergTable | DeltaTable | ViewTable | RegistrationTable
TABLE_MODELS: dict[
    str, type[HiveTable] | type[IcebergTable] | type[DeltaTable] | type[ViewTable] | type[RegistrationTable]
] = {
    "hive": HiveTable,
    "iceberg": IcebergTable,
    "delta": DeltaTable,
    "view": ViewTable,
    "registration": RegistrationTable,
}


def columns_of(table: Table) -> Sequence[Column]:
    """A table's declared columns (a registration carries its own inside `table_input`)."""
    return () if isinstance(table, RegistrationTable) else table.columns


def as_table(model: object) -> Table | None:
    """The model as a table, when validation gave one."""
    return model if isinstance(model, HiveTable | IcebergTable | DeltaTable | ViewTable | RegistrationTable) else None


def as_view(table: Table) -> ViewTable | None:
    """The table as a view, when it is one (the lineage reads a view's SQL)."""
    return table if isinstance(table, ViewTable) else None


def declared_location(table: Table) -> str | None:
    """Where the file says the table's data is (a registration says it inside `table_input`)."""
    if isinstance(table, RegistrationTable):
        storage = table.table_input.get("StorageDescriptor")
        location = storage.get("Location") if isinstance(storage, dict) else None
        return location if isinstance(location, str) else None
    return table.location
