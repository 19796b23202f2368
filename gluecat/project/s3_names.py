"""S3's bucket naming rules, checked offline: S3 (and the sandbox) refuses the bucket at the first
call that touches it, naming no file. From "General purpose bucket naming rules" in the S3 guide."""

from __future__ import annotations

import re

from gluecat.secrets import redact

_CHARACTERS = re.compile(r"^[a-z0-9][a-z0-9.-]*[a-z0-9]$")
_LEGACY_CHARACTERS = re.compile(r"^[A-Za-z0-9._-]{3,255}$")  # buckets made in us-east-1 before 2018
_IP_ADDRESS = re.compile(r"^\d{1,3}(\.\d{1,3}){3}$")
_RESERVED_PREFIXES = ("xn--", "sthree-", "amzn-s3-demo-")
_RESERVED_SUFFIXES = ("-s3alias", "--ol-s3", ".mrap", "--x-s3", "--table-s3")


def bucket_of(uri: str) -> str:
    return uri.split("://", 1)[1].split("/", 1)[0] if "://" in uri else ""


def bucket_problem(uri: str) -> tuple[str, bool] | None:
    """Why S3 would refuse the bucket of an s3:// URI, and whether a legacy bucket (made in us-east-1
    before 2018) may still have that name; None when it follows today's rules."""
    bucket = bucket_of(uri)
    why = _why(bucket)
    if why is None:
        return None
    bucket = _shown(uri, bucket)
    if _LEGACY_CHARACTERS.match(bucket):
        return (
            f"S3 makes no new bucket named '{bucket}' ({uri}): {why}; only a bucket made before 2018 can have it",
            True,
        )
    return f"no S3 bucket can be named '{bucket}' ({uri}): {why}", False


def _shown(uri: str, bucket: str) -> str:
    """The bucket as a message may quote it: a `user:password@` in it (a URL pasted whole) is masked
    as the URI is, since without its scheme no rule would recognise it."""
    scheme = uri.split("://", 1)[0]
    return redact.scrub_known(f"{scheme}://{bucket}", whole=False).removeprefix(f"{scheme}://")


def _why(bucket: str) -> str | None:
    if not 3 <= len(bucket) <= 63:
        return f"a bucket name is 3 to 63 characters, this one {len(bucket)}"
    if not _CHARACTERS.match(bucket):
        return "only lowercase letters, digits, dots and hyphens, starting and ending with a letter or digit"
    if ".." in bucket:
        return "no two dots in a row"
    if _IP_ADDRESS.match(bucket):
        return "not an IP address"
    if bucket.startswith(_RESERVED_PREFIXES) or bucket.endswith(_RESERVED_SUFFIXES):
        return "that prefix or suffix is reserved by S3"
    return None
