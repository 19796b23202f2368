"""The project's sandbox for a command: where it is served, who owns its state, when it is saved.

The state lives under `.gluecat/sandbox/` (see `snapshot`), a directory of the project's own (0700):
a link that takes it out of the project is refused. A command either talks to
the running `gluecat sandbox`, or takes the sandbox lock and starts a server of its own
over the saved state; either way what it wrote is saved before it returns, and a
command that only read leaves the state untouched.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import botocore.exceptions
import botocore.session

from gluecat.errors import GluecatError, LiveStateError
from gluecat.sandbox.lock import SandboxLock
from gluecat.sandbox.server import LocalGlue, request_save
from gluecat.secrets import redact
from gluecat.secrets.files import OutsideRoot, confined, make_directory

STATE_DIR = Path(".gluecat") / "sandbox"
REGION = "us-east-1"
ACCESS_KEY = SECRET_KEY = "sandbox"  # moto accepts any; real AWS is never reached


@contextmanager
def running_sandbox(project_root: Path, region: str | None) -> Iterator[str]:
    """The endpoint a command uses; what it wrote is saved when it is done."""
    lock = SandboxLock(project_root)
    served = lock.claim()
    if served is not None:
        yield served.url
        request_save(served.url)
        return
    try:
        with _private_server(project_root, region, lock, port=0) as server:
            yield server.endpoint_url
            server.save()
    finally:
        lock.release()


@contextmanager
def serving_sandbox(project_root: Path, region: str | None, port: int) -> Iterator[LocalGlue]:
    """`gluecat sandbox`: own the state while serving it, so other commands come here for it."""
    lock = SandboxLock(project_root)
    served = lock.claim()
    if served is not None:
        raise LiveStateError(f"the sandbox is already served at {served.url} (process {served.pid})")
    try:
        with _private_server(project_root, region, lock, port) as server:
            lock.announce(server.endpoint_url)
            yield server
    finally:
        lock.release()


def _private_server(project_root: Path, region: str | None, lock: SandboxLock, port: int) -> LocalGlue:
    # The server writes only inside this directory: it must be the project's own, not a link out of it.
    state = project_root / STATE_DIR
    try:
        make_directory(project_root, state, private=True)
    except OSError:  # a read-only project: confined all the same, and the server says what it cannot save
        confined(project_root, state)
    _own_entries(state)
    return LocalGlue(port=port, state=state, region=region or REGION, inherit_fds=(lock.descriptor,))


def _own_entries(state: Path) -> None:
    """Refused before the server starts, so nothing is written that could not be saved: a file of the
    state (`state.json`, `lakeformation.json`, ...) that is a link leading out of it."""
    try:
        entries = list(state.iterdir())
    except OSError:
        return  # none yet, or unreadable: the server says what it cannot restore
    for entry in entries:
        try:
            confined(state, entry)
        except OutsideRoot:
            raise OutsideRoot(
                f"the sandbox state's {entry} is a symbolic link to {entry.resolve()}, outside {state}: the"
                " sandbox saves only inside it, and what a command wrote would be lost; replace the link with the"
                f" file it points to (or move {entry.name} aside to start over)"
            ) from None


def ensure_buckets(session: botocore.session.Session, endpoint: str, uris: list[str]) -> None:
    """The sandbox's S3 has the buckets a project's locations name (real S3 is never touched). A name
    S3 makes no bucket with (`s3://ab/`, imported as Glue holds it) stays unmade, as on AWS: lint
    names it, and the plan, which reads Glue, goes on."""
    s3: Any = session.create_client("s3", endpoint_url=endpoint)
    # Outside us-east-1, S3 refuses a bucket without its region as the location constraint.
    where: dict[str, Any] = {}
    region = session.get_config_variable("region")
    if region and region != REGION:
        where["CreateBucketConfiguration"] = {"LocationConstraint": region}
    existing = {b["Name"] for b in s3.list_buckets().get("Buckets", [])}
    for uri in uris:
        scheme, _, rest = uri.partition("://")
        bucket = rest.split("/", 1)[0]
        if scheme in ("s3", "s3a") and "@" in bucket:
            raise GluecatError(
                f"the sandbox makes no bucket for {redact.scrub_known(uri, whole=False)}: a bucket name holds no"
                f" user or password; name the bucket alone ({scheme}://{bucket.rsplit('@', 1)[1]}/...)"
            )
        if scheme in ("s3", "s3a") and bucket and bucket not in existing:
            _make_bucket(s3, bucket, where, uri)
            existing.add(bucket)


def _make_bucket(s3: Any, bucket: str, where: dict[str, Any], uri: str) -> None:
    try:
        s3.create_bucket(Bucket=bucket, **where)
    except botocore.exceptions.ClientError as exc:
        error = exc.response.get("Error", {})
        if error.get("Code") == "InvalidBucketName":
            return
        shown = redact.scrub_known(uri, whole=False)
        raise LiveStateError(f"the sandbox's S3 made no bucket for {shown}: {error.get('Message') or exc}") from exc
