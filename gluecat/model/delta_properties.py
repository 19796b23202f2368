"""Delta table properties whose values form a closed set: a value Delta would refuse, or read as
false (`delta.appendOnly: maybe`), is an error in validate, not a surprise at apply or in Spark."""

from __future__ import annotations

from pydantic import ValidationError
from pydantic_core import InitErrorDetails, PydanticCustomError

from gluecat.model.suggest import closest, either

BOOLEAN = (
    "delta.appendOnly",
    "delta.enableChangeDataFeed",
    "delta.enableDeletionVectors",
    "delta.enableRowTracking",
    "delta.enableTypeWidening",
    "delta.enableIcebergCompatV1",
    "delta.enableIcebergCompatV2",
    "delta.checkpoint.writeStatsAsJson",
    "delta.checkpoint.writeStatsAsStruct",
    "delta.autoOptimize.optimizeWrite",
    "delta.autoOptimize.autoCompact",
    "delta.compatibility.symlinkFormatManifest.enabled",
)
CHOICES = {
    "delta.columnMapping.mode": ("none", "name", "id"),
    "delta.checkpointPolicy": ("classic", "v2"),
    "delta.isolationLevel": ("Serializable", "WriteSerializable"),
}


def delta_properties(properties: dict[str, str]) -> dict[str, str]:
    """`properties` when each closed-set value is one of its set (booleans in any case, as Delta reads
    them); else every wrong one, each at its own key."""
    wrong = []
    for key, value in properties.items():
        allowed = ("true", "false") if key in BOOLEAN else CHOICES.get(key)
        if allowed is None or (value.lower() if key in BOOLEAN else value) in allowed:
            continue
        close = closest(value, allowed)
        hint = f" — did you mean {either(close)}?" if close else ""
        message = f"`{key}` is {either(list(allowed))}, not '{value}'{hint}"
        error = PydanticCustomError("value_error", "{message}", {"message": message})
        wrong.append(InitErrorDetails(type=error, loc=(key,), input=value))
    if wrong:
        raise ValidationError.from_exception_data("properties", wrong)
    return properties
