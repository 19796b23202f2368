"""The AWS regions botocore knows for Glue, for checking catalog.yaml offline."""

from __future__ import annotations

import functools
from typing import Any

from gluecat.model.suggest import closest, either


def known_regions(endpoints: dict[str, Any] | None = None) -> frozenset[str]:
    """From botocore's endpoint data alone: a session would read the AWS configuration, and a
    profile this machine lacks must not stop an offline check (or the sandbox). `endpoints`: that
    data as a session's loader already holds it (the 1.2 MB file is then not read twice)."""
    if endpoints is None:
        return _offline_regions()
    return _glue_regions(endpoints)


@functools.cache
def _offline_regions() -> frozenset[str]:
    from botocore.loaders import create_loader

    return _glue_regions(create_loader().load_data("endpoints"))


def _glue_regions(endpoints: dict[str, Any]) -> frozenset[str]:
    from botocore.regions import EndpointResolver

    resolver = EndpointResolver(endpoints)
    return frozenset(
        region
        for partition in resolver.get_available_partitions()
        for region in resolver.get_available_endpoints("glue", partition)
    )


def region_problem(region: str) -> str | None:
    """Why `region` is no region botocore knows for Glue (with the closest one), or None."""
    if region in known_regions():
        return None
    close = closest(region, sorted(known_regions()))
    hint = f" — did you mean {either(close)}?" if close else ""
    return f"unknown region '{region}'{hint}"
