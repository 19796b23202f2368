"""A Delta table's file from its live entry (`import`): its columns, partition columns and properties
as its Delta log holds them, when Glue registers it as gluecat's own Delta registration does."""

from __future__ import annotations

from gluecat.convert.delta import DELTA_PARAMETERS, delta_table_input
from gluecat.convert.parameters import managed
from gluecat.errors import GluecatError
from gluecat.kinds.base import AdoptContext, NotModelled, Shape
from gluecat.kinds.delta import registered_for_athena
from gluecat.model import Column, DeltaTable
from gluecat.model.base import model_data


def delta_data(live: Shape, context: AdoptContext) -> Shape:
    return model_data(_delta(context, live))


def _delta(context: AdoptContext, live: Shape) -> DeltaTable:
    descriptor = live.get("StorageDescriptor") or {}
    if registered_for_athena(live) and not descriptor.get("Columns"):
        raise NotModelled("registered Athena-style (table_type=DELTA, no columns): Athena reads the Delta log itself")
    location = descriptor.get("Location")
    try:
        log = context.connection.delta.read(location) if location else None
    except GluecatError as exc:
        raise NotModelled(f"its Delta log cannot be read ({exc})") from exc
    if log is None:
        raise NotModelled(f"registered as Delta, but no Delta log is reachable at {location or '(no location)'}")
    glue_columns = {c["Name"].lower(): c for c in descriptor.get("Columns") or []}
    columns = [
        Column(name=name, type=text, comment=glue_columns.get(name.lower(), {}).get("Comment"))
        for name, text in log.columns.items()
    ]
    parameters = {
        k: v for k, v in managed(live.get("Parameters") or {}, context.ignore).items() if k not in DELTA_PARAMETERS
    }
    table = DeltaTable(
        name=live["Name"],
        format="delta",
        description=log.description or live.get("Description") or None,
        location=location,
        columns=columns,
        partition_columns=log.partition_columns,
        properties=log.configuration,
        parameters=parameters,
    )
    missing = _unlike_registration(live, dict(delta_table_input(table, str(location))))
    if missing:
        raise NotModelled(f"registered as Delta without {missing}, which gluecat's own Delta registration sets")
    return table


def _unlike_registration(live: Shape, registered: Shape) -> str | None:
    """The first field gluecat's own Delta registration sets that the live one lacks or holds otherwise."""
    live_descriptor, descriptor = live.get("StorageDescriptor") or {}, registered["StorageDescriptor"]
    live_serde, serde = live_descriptor.get("SerdeInfo") or {}, descriptor["SerdeInfo"]
    pairs = {
        **{f"parameters.{k}": ((live.get("Parameters") or {}).get(k), v) for k, v in DELTA_PARAMETERS.items()},
        **{
            f"serde.parameters.{k}": ((live_serde.get("Parameters") or {}).get(k), v)
            for k, v in serde["Parameters"].items()
        },
        "table_type": (live.get("TableType"), registered["TableType"]),
        "input_format": (live_descriptor.get("InputFormat"), descriptor["InputFormat"]),
        "output_format": (live_descriptor.get("OutputFormat"), descriptor["OutputFormat"]),
        "serde.library": (live_serde.get("SerializationLibrary"), serde["SerializationLibrary"]),
    }
    return next((f"{field} = {want}" for field, (have, want) in pairs.items() if have != want), None)
