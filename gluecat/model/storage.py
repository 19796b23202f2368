"""The `storage` shorthands: the exact formats and SerDe that Athena, crawlers and Spark write."""

from __future__ import annotations

from dataclasses import dataclass, field

TEXT_INPUT = "org.apache.hadoop.mapred.TextInputFormat"
TEXT_OUTPUT = "org.apache.hadoop.hive.ql.io.HiveIgnoreKeyTextOutputFormat"
LAZY_SIMPLE = "org.apache.hadoop.hive.serde2.lazy.LazySimpleSerDe"


@dataclass(frozen=True)
class StorageFormat:
    input_format: str
    output_format: str
    serde: str
    serde_parameters: dict[str, str] = field(default_factory=dict)


STORAGE_FORMATS: dict[str, StorageFormat] = {
    "parquet": StorageFormat(
        "org.apache.hadoop.hive.ql.io.parquet.MapredParquetInputFormat",
        "org.apache.hadoop.hive.ql.io.parquet.MapredParquetOutputFormat",
        "org.apache.hadoop.hive.ql.io.parquet.serde.ParquetHiveSerDe",
        {"serialization.format": "1"},
    ),
    "orc": StorageFormat(
        "org.apache.hadoop.hive.ql.io.orc.OrcInputFormat",
        "org.apache.hadoop.hive.ql.io.orc.OrcOutputFormat",
        "org.apache.hadoop.hive.ql.io.orc.OrcSerde",
        {"serialization.format": "1"},
    ),
    "avro": StorageFormat(
        "org.apache.hadoop.hive.ql.io.avro.AvroContainerInputFormat",
        "org.apache.hadoop.hive.ql.io.avro.AvroContainerOutputFormat",
        "org.apache.hadoop.hive.serde2.avro.AvroSerDe",
    ),
    # The OpenX SerDe: what Glue crawlers and most Athena examples use.
    "json": StorageFormat(TEXT_INPUT, TEXT_OUTPUT, "org.openx.data.jsonserde.JsonSerDe"),
    # Hive's own JSON SerDe (the one Spark and Hive ship).
    "hive-json": StorageFormat(TEXT_INPUT, TEXT_OUTPUT, "org.apache.hive.hcatalog.data.JsonSerDe"),
    "csv": StorageFormat(
        TEXT_INPUT,
        TEXT_OUTPUT,
        LAZY_SIMPLE,
        {"field.delim": ",", "serialization.format": ","},
    ),
    # Quoted CSV: crawlers pick OpenCSVSerde when fields are quoted.
    "opencsv": StorageFormat(
        TEXT_INPUT,
        TEXT_OUTPUT,
        "org.apache.hadoop.hive.serde2.OpenCSVSerde",
        {"separatorChar": ",", "quoteChar": '"', "escapeChar": "\\"},
    ),
    "tsv": StorageFormat(
        TEXT_INPUT,
        TEXT_OUTPUT,
        LAZY_SIMPLE,
        {"field.delim": "\t", "serialization.format": "\t"},
    ),
    # Hive's default text format: fields separated by \x01.
    "text": StorageFormat(TEXT_INPUT, TEXT_OUTPUT, LAZY_SIMPLE, {"serialization.format": "1"}),
}
