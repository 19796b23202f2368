"""Find the Iceberg metadata a location already holds: a table whose Glue entry was lost.

Iceberg names metadata files `<version>-<uuid>.metadata.json` (or `v<version>.metadata.json`
for Hadoop tables) under `<location>/metadata/`; the highest version is the current one.
"""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import urlparse

from botocore.exceptions import BotoCoreError, ClientError

from gluecat.backends.denied import live_error
from gluecat.errors import LiveStateError

_METADATA_FILE = re.compile(r"^v?(\d+)(?:-[^/]*)?\.metadata\.json$")


def latest_metadata(s3: Any, location: str) -> str | None:
    """The URI of the newest metadata file under `location`/metadata/, or None when there is none."""
    parsed = urlparse(location)
    if parsed.scheme not in ("s3", "s3a", "s3n"):
        return None
    prefix = parsed.path.lstrip("/").rstrip("/") + "/metadata/"
    newest: tuple[int, Any, str] | None = None
    try:
        for page in s3.get_paginator("list_objects_v2").paginate(Bucket=parsed.netloc, Prefix=prefix):
            for item in page.get("Contents", []):
                match = _METADATA_FILE.match(item["Key"][len(prefix) :])
                if match:
                    candidate = (int(match.group(1)), item.get("LastModified"), item["Key"])
                    newest = candidate if newest is None or candidate[:2] > newest[:2] else newest
    except ClientError as exc:
        if exc.response.get("Error", {}).get("Code") in ("NoSuchBucket", "404"):
            return None
        raise live_error(exc, f"cannot list {location}/metadata/: {exc}", "s3") from exc
    except BotoCoreError as exc:
        raise LiveStateError(f"cannot list {location}/metadata/: {exc}") from exc
    return f"{parsed.scheme}://{parsed.netloc}/{newest[2]}" if newest else None
