"""The AWS regions botocore knows for Glue, for checking catalog.yaml offline."""

from __future__ import annotations

import difflib
import functools


@functools.cache
def known_regions() -> frozenset[str]:
    import botocore.session

    session = botocore.session.get_session()
    return frozenset(
        region
        for partition in session.get_available_partitions()
        for region in session.get_available_regions("glue", partition_name=partition)
    )


def region_problem(region: str) -> str | None:
    """Why `region` is no region botocore knows for Glue (with the closest one), or None."""
    if region in known_regions():
        return None
    close = difflib.get_close_matches(region, known_regions(), n=1)
    hint = f" — did you mean '{close[0]}'?" if close else ""
    return f"unknown region '{region}'{hint}"
