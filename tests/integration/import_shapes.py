"""Realistic table shapes as crawlers, Athena, Spark, Terraform and people leave them in Glue."""

from __future__ import annotations

import base64
import json
from typing import Any

PARQUET = {
    "InputFormat": "org.apache.hadoop.hive.ql.io.parquet.MapredParquetInputFormat",
    "OutputFormat": "org.apache.hadoop.hive.ql.io.parquet.MapredParquetOutputFormat",
    "SerdeInfo": {
        "SerializationLibrary": "org.apache.hadoop.hive.ql.io.parquet.serde.ParquetHiveSerDe",
        "Parameters": {"serialization.format": "1"},
    },
}
ORC = {
    "InputFormat": "org.apache.hadoop.hive.ql.io.orc.OrcInputFormat",
    "OutputFormat": "org.apache.hadoop.hive.ql.io.orc.OrcOutputFormat",
    "SerdeInfo": {"SerializationLibrary": "org.apache.hadoop.hive.ql.io.orc.OrcSerde"},
}
TEXT_IN = "org.apache.hadoop.mapred.TextInputFormat"
TEXT_OUT = "org.apache.hadoop.hive.ql.io.HiveIgnoreKeyTextOutputFormat"
LAZY = "org.apache.hadoop.hive.serde2.lazy.LazySimpleSerDe"
CRAWLER = {
    "UPDATED_BY_CRAWLER": "nightly",
    "CrawlerSchemaDeserializerVersion": "1.0",
    "CrawlerSchemaSerializerVersion": "1.0",
    "averageRecordSize": "41",
    "objectCount": "3",
    "recordCount": "1200",
    "sizeKey": "49321",
    "compressionType": "none",
    "typeOfData": "file",
}
BASIC = [{"Name": "id", "Type": "bigint"}, {"Name": "name", "Type": "string"}]


def _text(serde: str, parameters: dict[str, str] | None = None) -> dict[str, Any]:
    return {
        "InputFormat": TEXT_IN,
        "OutputFormat": TEXT_OUT,
        "SerdeInfo": {"SerializationLibrary": serde, "Parameters": parameters or {}},
    }


def _table(
    name: str, storage: dict[str, Any], columns: list[dict[str, Any]] | None = None, **fields: Any
) -> dict[str, Any]:
    descriptor = {**storage, "Columns": columns or BASIC, "Location": f"s3://lake/raw/{name}/"}
    descriptor.update(fields.pop("descriptor", {}))
    return {
        "Name": name,
        "TableType": "EXTERNAL_TABLE",
        "StorageDescriptor": descriptor,
        "Parameters": {"EXTERNAL": "TRUE"},
        **fields,
    }


PRESTO_VIEW = {
    "originalSql": "SELECT id, name FROM raw.crawled_parquet",
    "catalog": "awsdatacatalog",
    "schema": "raw",
    "columns": [{"name": "id", "type": "bigint"}, {"name": "name", "type": "varchar"}],
}
AVRO_SCHEMA = json.dumps({"type": "record", "name": "r", "fields": [{"name": "id", "type": "long"}]})

HIVE_SHAPES: list[dict[str, Any]] = [
    _table("crawled_parquet", PARQUET, Parameters={"classification": "parquet", **CRAWLER},
           PartitionKeys=[{"Name": "dt", "Type": "string"}],
           descriptor={"Compressed": False, "NumberOfBuckets": -1, "StoredAsSubDirectories": False}),
    _table("crawled_csv", _text(LAZY, {"field.delim": ","}), Parameters={
        "classification": "csv", "areColumnsQuoted": "false", "columnsOrdered": "true", "delimiter": ",",
        "skip.header.line.count": "1", **CRAWLER}),
    _table("crawled_json", _text("org.openx.data.jsonserde.JsonSerDe", {"paths": "id,name"}),
           Parameters={"classification": "json", **CRAWLER}),
    _table("athena_ctas_parquet", PARQUET, Parameters={"has_encrypted_data": "false", "parquet.compression": "SNAPPY"}),
    _table("athena_ctas_orc", ORC, Parameters={"has_encrypted_data": "false", "orc.compress": "ZLIB"}),
    _table("access_logs", _text("org.apache.hadoop.hive.serde2.RegexSerDe", {
        "input.regex": '([^ ]*) ([^ ]*) \\[(.*?)\\] "([^"]*)" ([0-9]*)'}),
        columns=[{"Name": "host", "Type": "string"}, {"Name": "ident", "Type": "string"}, {"Name": "ts", "Type": "string"},
                 {"Name": "request", "Type": "string"}, {"Name": "status", "Type": "int"}]),
    _table("projected", PARQUET, PartitionKeys=[{"Name": "dt", "Type": "string"}], Parameters={
        "projection.enabled": "true", "projection.dt.type": "date", "projection.dt.range": "2020-01-01,NOW",
        "projection.dt.format": "yyyy-MM-dd", "storage.location.template": "s3://lake/raw/projected/${dt}/"}),
    _table("quoted_csv", _text("org.apache.hadoop.hive.serde2.OpenCSVSerde",
                              {"separatorChar": ",", "quoteChar": '"', "escapeChar": "\\"}),
           Parameters={"skip.header.line.count": "1"}),
    _table("avro_events", {"InputFormat": "org.apache.hadoop.hive.ql.io.avro.AvroContainerInputFormat",
                           "OutputFormat": "org.apache.hadoop.hive.ql.io.avro.AvroContainerOutputFormat",
                           "SerdeInfo": {"SerializationLibrary": "org.apache.hadoop.hive.serde2.avro.AvroSerDe",
                                         "Parameters": {"avro.schema.literal": AVRO_SCHEMA}}},
           columns=[{"Name": "id", "Type": "bigint"}], Parameters={"avro.schema.literal": AVRO_SCHEMA}),
    _table("bucketed", ORC, descriptor={"NumberOfBuckets": 8, "BucketColumns": ["id"],
                                       "SortColumns": [{"Column": "id", "SortOrder": 1}]}),
    _table("nested", PARQUET, columns=[
        {"Name": "payload", "Type": "struct<a:array<struct<b:map<string,array<int>>,c:decimal(10,2)>>,d:string>"},
        {"Name": "tags", "Type": "map<string,array<struct<k:string,v:double>>>"}]),
    _table("typed", PARQUET, columns=[
        {"Name": "amount", "Type": "decimal(38,10)"}, {"Name": "code", "Type": "char(2)"},
        {"Name": "label", "Type": "varchar(255)"}, {"Name": "ok", "Type": "boolean"}, {"Name": "day", "Type": "date"},
        {"Name": "at", "Type": "timestamp"}, {"Name": "raw", "Type": "binary"}, {"Name": "tiny", "Type": "tinyint"}]),
    _table("tab_separated", _text(LAZY, {"field.delim": "\t", "serialization.format": "\t"})),
    _table("hive_text", _text(LAZY, {"serialization.format": "1"})),
    _table("hcat_json", _text("org.apache.hive.hcatalog.data.JsonSerDe")),
    {**_table("managed", ORC), "TableType": "MANAGED_TABLE"},
    _table("owned", PARQUET, Owner="hadoop", Retention=30),
    _table("compressed", PARQUET, descriptor={"Compressed": True, "Parameters": {"orc.bloom.filter.columns": "id"}}),
    _table("skewed", ORC, descriptor={"SkewedInfo": {"SkewedColumnNames": ["name"], "SkewedColumnValues": ["a"],
                                                     "SkewedColumnValueLocationMaps": {}}}),
    _table("described", PARQUET, columns=[{"Name": "id", "Type": "bigint", "Comment": "the key"}],
           Description="A table people wrote by hand"),
    _table("odd_fields", PARQUET, columns=[{"Name": "payload", "Type": "struct<`user-agent`:string,`a b`:int>"}]),
    _table("spark_made", PARQUET, Parameters={
        "spark.sql.sources.provider": "parquet", "spark.sql.sources.schema.numParts": "1",
        "spark.sql.sources.schema.part.0": '{"type":"struct","fields":[]}', "spark.sql.create.version": "3.5.1",
        "transient_lastDdlTime": "1700000000"}),
    _table("terraform_made", PARQUET, Parameters={"managed_by": "terraform", "EXTERNAL": "TRUE"},
           PartitionKeys=[{"Name": "year", "Type": "int"}, {"Name": "month", "Type": "int"}]),
    _table("partitioned", PARQUET, PartitionKeys=[{"Name": "dt", "Type": "string"}, {"Name": "region", "Type": "string"}]),
    {"Name": "athena_view", "TableType": "VIRTUAL_VIEW",
     "Parameters": {"presto_view": "true", "comment": "Presto View"},
     "ViewOriginalText": "/* Presto View: " + base64.b64encode(json.dumps(PRESTO_VIEW).encode()).decode() + " */",
     "ViewExpandedText": "/* Presto View */",
     "StorageDescriptor": {"Columns": [{"Name": "id", "Type": "bigint"}, {"Name": "name", "Type": "string"}],
                           "SerdeInfo": {}}},
    {"Name": "spark_view", "TableType": "VIRTUAL_VIEW",
     "Parameters": {"view.default.database": "raw", "view.query.out.numCols": "1"},
     "ViewOriginalText": "SELECT id\nFROM raw.typed\nWHERE ok",
     "ViewExpandedText": "SELECT `typed`.`id` FROM `raw`.`typed` WHERE `typed`.`ok`",
     "StorageDescriptor": {"Columns": [{"Name": "id", "Type": "bigint"}]}},
]  # fmt: skip
