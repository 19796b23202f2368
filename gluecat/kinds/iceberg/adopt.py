"""An Iceberg table's file from its live entry (`import`): its schema, partition spec, sort order and
properties as the metadata file Glue points at holds them."""

from __future__ import annotations

from gluecat.backends.iceberg_meta import COMMENT, FORMAT_VERSION, live_sort, live_spec
from gluecat.errors import GluecatError
from gluecat.kinds.base import AdoptContext, NotModelled, Shape
from gluecat.model import IcebergColumn, IcebergTable
from gluecat.model.base import model_data


def iceberg_data(live: Shape, context: AdoptContext) -> Shape:
    return model_data(_iceberg(context, live))


def _iceberg(context: AdoptContext, live: Shape) -> IcebergTable:
    from gluecat.backends.iceberg_types import type_text  # pyiceberg: loaded for Iceberg tables alone

    location = (live.get("Parameters") or {}).get("metadata_location")
    if not location:
        raise NotModelled("registered as Iceberg, but Glue holds no metadata_location for it")
    try:
        metadata = context.connection.iceberg.read_metadata(location)
    except GluecatError as exc:
        raise NotModelled(f"its Iceberg metadata cannot be read ({exc})") from exc
    properties: dict[str, str | None] = {k: v for k, v in metadata.properties.items() if k != COMMENT}
    properties[FORMAT_VERSION] = str(metadata.format_version)
    return IcebergTable(
        name=live["Name"],
        format="iceberg",
        description=metadata.properties.get(COMMENT),
        location=metadata.location,
        columns=[
            IcebergColumn(name=f.name, type=type_text(f.field_type), required=f.required, comment=f.doc)
            for f in metadata.schema().fields
        ],
        partition_spec=[{"column": c, "transform": t} for c, t, _ in live_spec(metadata)],
        sort_order=live_sort(metadata),
        properties=properties,
    )
