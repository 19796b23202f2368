"""Failures of the engine libraries apply drives, as one line naming the table.

pyiceberg, pyarrow, deltalake and botocore raise their own exceptions (and plain ValueErrors and
OSErrors from deep inside) for a denied S3 write, a 500 from UpdateTable or a read that fails half
way. The backends translate the ones they know; whatever else comes out of those libraries while a
table is applied is recognised here by where it was raised, and becomes that table's failure in the
apply summary, after what was done before it. An exception raised in gluecat's own code is a bug
and is not hidden.
"""

from __future__ import annotations

import traceback

from gluecat.backends.denied import engine_denied
from gluecat.errors import LiveStateError
from gluecat.secrets.redact import scrub

# The libraries apply reaches the lake and the catalog through (their top-level module names).
ENGINES = frozenset(
    ("pyiceberg", "pyarrow", "deltalake", "botocore", "boto3", "s3transfer", "fsspec", "s3fs", "urllib3",
     "requests", "pydantic", "pydantic_core", "thrift", "hive_metastore", "tenacity", "zstandard", "cachetools")
)  # fmt: skip
MESSAGE_CHARS = 400


def engine_failure(exc: Exception, address: str) -> LiveStateError | None:
    """`exc` as one line naming `address` when an engine library raised it; None when gluecat did."""
    library = _raised_in(exc)
    if library is None:
        return None
    refused = engine_denied(exc)  # a permission the library's call lacked: named as gluecat names it
    if refused is not None:
        return refused
    text = " ".join(str(exc).split()) or type(exc).__name__
    if len(text) > MESSAGE_CHARS:
        text = text[:MESSAGE_CHARS] + "…"
    return LiveStateError(f"{address}: {library} failed ({type(exc).__name__}): {scrub(text)}")


def _raised_in(exc: BaseException) -> str | None:
    """The engine library `exc` comes from: its class's, or the innermost frame's that raised it."""
    own = type(exc).__module__.split(".", 1)[0]
    if own in ENGINES:
        return own
    frames = traceback.extract_tb(exc.__traceback__) if exc.__traceback__ else []
    for frame in reversed(frames):
        found = _library_of(frame.filename)
        if found is not None:
            return found
        if "/gluecat/" in frame.filename.replace("\\", "/"):
            return None  # raised by gluecat itself, below any library call
    return None


def _library_of(filename: str) -> str | None:
    """The engine library a frame's file belongs to: installed (`.../site-packages/pyiceberg/...`),
    or a compiled module's own relative name (`pyarrow/error.pxi`)."""
    parts = filename.replace("\\", "/").split("/")
    if len(parts) > 1 and parts[0] in ENGINES:
        return parts[0]
    for index, part in enumerate(parts[:-1]):
        if part in ("site-packages", "dist-packages") and parts[index + 1].split(".", 1)[0] in ENGINES:
            return parts[index + 1].split(".", 1)[0]
    return None
