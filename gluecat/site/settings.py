"""The settings the site shows in words rather than as raw values: who owns an object, and an Iceberg
table's Glue optimizers, each with the role and connection it runs under."""

from __future__ import annotations

from typing import Any

from gluecat.model.optimizers import Optimizers
from gluecat.secrets.redact import mask_any

# Where an owner is written: Glue's Owner field (a Hive table's `extra`), or the `owner` property or
# parameter engines set (Spark and Trino on Iceberg tables, Hive and REST namespaces).
_OWNER_AT = (("extra", "Owner"), ("properties", "owner"), ("parameters", "owner"))


def owner_of(dumped: dict[str, Any]) -> str | None:
    for section, key in _OWNER_AT:
        value = (dumped.get(section) or {}).get(key)
        if value:
            return str(mask_any(value))
    return None


def optimizers_of(model: object) -> list[dict[str, Any]] | None:
    """Each declared optimizer: whether it runs, under which role (its own or the block's), through
    which VPC connection, and the settings it was given (Glue's defaults for the rest)."""
    optimizers = getattr(model, "optimizers", None)
    if not isinstance(optimizers, Optimizers):
        return None
    shown = []
    for kind in optimizers.declared():
        own = optimizers.of(kind)
        assert own is not None
        settings = own.model_dump(mode="json", exclude_none=True, exclude={"enabled", "role_arn", "vpc_connection"})
        shown.append(
            {
                "type": kind,
                "enabled": own.enabled,
                "role": optimizers.role_for(kind),
                "vpc_connection": optimizers.vpc_for(kind),
                "settings": mask_any(settings),
            }
        )
    return shown
