"""DeltaTable -> the Glue registration that both Spark's DeltaCatalog and Athena read.

Athena's native Delta reader needs the location and `table_type=DELTA`; Spark's
DeltaCatalog needs `spark.sql.sources.provider=delta` (and reads the schema from
the log). The real columns go into the StorageDescriptor, not Spark's
placeholder `col array<string>`, so Glue, Lake Formation and Athena show them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from gluecat.convert.columns import column_shapes
from gluecat.model import DeltaTable
from gluecat.model.storage import STORAGE_FORMATS

if TYPE_CHECKING:
    from mypy_boto3_glue.type_defs import TableInputTypeDef

DELTA_PARAMETERS = {"table_type": "DELTA", "spark.sql.sources.provider": "delta", "EXTERNAL": "TRUE"}


def delta_table_input(table: DeltaTable, location: str) -> TableInputTypeDef:
    assert table.name is not None
    parquet = STORAGE_FORMATS["parquet"]
    shape: TableInputTypeDef = {
        "Name": table.name,
        "TableType": "EXTERNAL_TABLE",
        "Parameters": {**table.parameters, **DELTA_PARAMETERS},
        "PartitionKeys": [],
        "StorageDescriptor": {
            "Columns": column_shapes(table.columns),
            "Location": location,
            "InputFormat": parquet.input_format,
            "OutputFormat": parquet.output_format,
            "SerdeInfo": {
                "SerializationLibrary": parquet.serde,
                "Parameters": {**parquet.serde_parameters, "path": location},
            },
        },
    }
    if table.description:
        shape["Description"] = table.description
    return shape
