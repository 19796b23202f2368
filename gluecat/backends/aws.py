"""botocore clients that fail fast on network trouble, and AWS setup mistakes as one line with the fix.

Throttling keeps botocore's standard retries (up to 10 attempts), but a refused
connection, an unknown host or a server that never answers is retried once:
10 attempts with backoff and a 60 s read timeout would otherwise keep a user
waiting for minutes before learning that the endpoint is wrong.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import re
from collections.abc import Iterator, Sequence
from typing import Any, TypeVar

import botocore.session
from botocore.config import Config
from botocore.exceptions import (
    BotoCoreError,
    ConnectionClosedError,
    ConnectionError,
    NoCredentialsError,
    NoRegionError,
    PartialCredentialsError,
    ProfileNotFound,
    ReadTimeoutError,
)

from gluecat.backends.service_data import botocore_session
from gluecat.errors import GluecatError
from gluecat.model.suggest import closest, either
from gluecat.project.regions import known_regions

T = TypeVar("T")
# gluecat's AWS session: botocore's own (boto3's wrapper adds nothing gluecat uses, and loading it
# loads s3transfer and multiprocessing besides).
Session = botocore.session.Session
CONNECT_TIMEOUT = 5.0
READ_TIMEOUT = 20.0
SANDBOX_READ_TIMEOUT = 300.0
READ_TIMEOUT_VARIABLE = "GLUECAT_READ_TIMEOUT"  # seconds; tests shorten it to stay quick
MAX_ATTEMPTS = 10
NETWORK_ATTEMPTS = 2
REGION_PATTERN = re.compile(r"^[a-z]{2}(-[a-z]+)+-\d+$")
REGION_FIX = "set region: in catalog.yaml or AWS_REGION"
CREDENTIALS_FIX = (
    "set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, run `aws configure` or `aws sso login`,"
    " or name a profile: in catalog.yaml (or AWS_PROFILE)"
)

_NETWORK_ERRORS = (ConnectionError, ReadTimeoutError, ConnectionClosedError)


def read_timeout() -> float:
    raw = os.environ.get(READ_TIMEOUT_VARIABLE)
    if not raw:
        return READ_TIMEOUT
    try:
        return float(raw)
    except ValueError:
        raise GluecatError(f"{READ_TIMEOUT_VARIABLE}={raw!r}: write a number of seconds, e.g. 20") from None


def client_config(adaptive: bool = False, **extra: Any) -> Config:
    """`adaptive`: botocore's adaptive retry mode, which also rate-limits the client's own sending
    once it is throttled (for parallel writers); otherwise the standard mode."""
    return Config(
        connect_timeout=CONNECT_TIMEOUT,
        read_timeout=read_timeout(),
        retries={"mode": "adaptive" if adaptive else "standard", "max_attempts": MAX_ATTEMPTS},
        **extra,
    )


def iceberg_s3_timeouts() -> dict[str, str]:
    """pyiceberg's S3 FileIO properties with the same timeouts as the botocore clients."""
    return {"s3.connect-timeout": str(CONNECT_TIMEOUT), "s3.request-timeout": str(read_timeout())}


def delta_timeouts() -> dict[str, str]:
    """delta-rs object store options: the same timeouts, and retries that stop within ~2 read timeouts."""
    return {
        "connect_timeout": f"{CONNECT_TIMEOUT:g}s",
        "timeout": f"{read_timeout():g}s",
        "max_retries": "3",
        "retry_timeout": f"{read_timeout() * 1.5:g}s",
    }


def client(session: Session, service: str, endpoint_url: str | None, **config: Any) -> Any:
    """A client with gluecat's timeouts whose retries stop early on network failures."""
    made = session.create_client(service, endpoint_url=endpoint_url, config=client_config(**config))
    event = f"needs-retry.{made.meta.service_model.service_id.hyphenize()}"
    made.meta.events.register_first(event, _stop_retrying_network_failures)
    _reuse_user_agent(made)
    return made


# botocore 1.37.x on: a request's SDK features (paginator, waiter, ...) are in its context, and its header.
_CONTEXT = importlib.import_module("botocore.context") if importlib.util.find_spec("botocore.context") else None


def _reuse_user_agent(made: Any) -> None:
    """botocore builds each request's User-Agent header twice, from some thirty parts, and the
    header only changes with the set of SDK features the request uses (paginator, retry mode, ...):
    about a fifth of a partition batch's client CPU. The same header, built once per set."""
    creator: Any = getattr(made, "_user_agent_creator", None)
    build = getattr(creator, "to_string", None)
    if build is None:  # a botocore without it: its own way, unchanged
        return
    built: dict[tuple[frozenset[str], frozenset[str]], str] = {}

    def to_string() -> str:
        context = _CONTEXT.get_context() if _CONTEXT else None
        client_features = getattr(creator, "_client_features", None) or ()
        key = (frozenset(client_features), frozenset(context.features if context else ()))
        header = built.get(key)
        if header is None:
            header = built[key] = build()
        return header

    creator.to_string = to_string


def _stop_retrying_network_failures(attempts: int, caught_exception: Exception | None, **_: Any) -> None:
    """Runs before botocore's retry handler: re-raising the failure ends the retries."""
    if isinstance(caught_exception, _NETWORK_ERRORS) and attempts >= NETWORK_ATTEMPTS:
        raise caught_exception


def region_of(session: Session) -> str | None:
    """The session's region: catalog.yaml's, AWS_REGION's or the profile's, once `open_session` set it."""
    region = session.get_config_variable("region")
    return str(region) if region else None


def session_region(session: Session, configured: str | None) -> str:
    """The region gluecat talks to: catalog.yaml, then AWS_REGION, then the profile or AWS_DEFAULT_REGION."""
    region = configured or os.environ.get("AWS_REGION") or region_of(session)
    if not region:
        raise GluecatError(f"no AWS region: {REGION_FIX}")
    check_region(region, session.get_component("data_loader").load_data("endpoints"))
    return region


def check_region(region: str, endpoints: dict[str, Any] | None = None) -> None:
    """`endpoints`: botocore's endpoint data as the session's loader holds it (read here when None)."""
    known = known_regions(endpoints)
    if region in known:
        return
    close = closest(region, sorted(known))
    if close:
        raise GluecatError(f"unknown region {region!r}: did you mean {either(close)}? ({REGION_FIX})")
    if not REGION_PATTERN.match(region):
        raise GluecatError(f"region {region!r} is not a region name (like eu-west-1): {REGION_FIX}")
    # A well-formed name botocore does not know may be a region newer than this botocore.


def open_session(profile: str | None, region: str | None) -> Session:
    """A session whose profile exists, whose region is known and which has credentials."""
    try:
        session = botocore_session(profile)
    except ProfileNotFound:
        where = "profile: in catalog.yaml" if profile else "AWS_PROFILE"
        raise GluecatError(
            f"AWS profile {profile or os.environ.get('AWS_PROFILE')!r} not found: fix {where},"
            " or add the profile to ~/.aws/config (list them with `aws configure list-profiles`)"
        ) from None
    # The session's own region setting: a second session would read the AWS configuration again.
    session.set_config_variable("region", session_region(session, region))
    if session.get_credentials() is None:
        raise GluecatError(f"no AWS credentials found: {CREDENTIALS_FIX}")
    return session


def session_holding(
    access_key: str, secret_key: str, token: str | None, region: str, reading: Session | None = None
) -> Session:
    """A session with these credentials in `region`; `reading`: a session whose service data it reuses."""
    session = botocore_session()
    if reading is not None:
        session.register_component("data_loader", reading.get_component("data_loader"))
    session.set_credentials(access_key, secret_key, token)
    session.set_config_variable("region", region)
    return session


def explain(exc: BaseException) -> str | None:
    """One line with the fix for an AWS setup or network failure; None for anything else."""
    if isinstance(exc, GluecatError) and isinstance(exc.__cause__, BotoCoreError):
        return explain(exc.__cause__)
    if not isinstance(exc, BotoCoreError):
        return None
    if isinstance(exc, NoRegionError):
        return f"no AWS region: {REGION_FIX}"
    if isinstance(exc, (NoCredentialsError, PartialCredentialsError)):
        return f"no usable AWS credentials ({exc}): {CREDENTIALS_FIX}"
    if isinstance(exc, ProfileNotFound):
        return f"{exc}: fix profile: in catalog.yaml, or add it to ~/.aws/config"
    if isinstance(exc, ReadTimeoutError):
        return f"{exc}: the endpoint accepted the connection but did not answer; check endpoint_url and region"
    if isinstance(exc, _NETWORK_ERRORS):
        return f"{exc}: check endpoint_url and region in catalog.yaml, and the network (proxy, VPN)"
    return f"AWS: {exc}"


def chunks(items: Sequence[T], size: int) -> Iterator[Sequence[T]]:
    """`items` in slices of at most `size`: what one batch call of an AWS API takes."""
    for start in range(0, len(items), size):
        yield items[start : start + size]
