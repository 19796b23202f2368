"""Open a connection to the catalog a project names: real AWS, or the embedded sandbox."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

import boto3

from gluecat.glue import Glue, make_session
from gluecat.load import Project
from gluecat.sandbox.state import running_sandbox, sandbox_session


@dataclass(frozen=True)
class Connection:
    glue: Glue
    session: boto3.Session
    endpoint_url: str | None


@contextmanager
def connect(project: Project) -> Iterator[Connection]:
    config = project.config
    if config.sandbox:
        with running_sandbox(project.root, config.region) as server:
            session = sandbox_session(config.region)
            yield Connection(Glue(session, server.endpoint_url, config.catalog_id), session, server.endpoint_url)
        return
    session = make_session(config)
    yield Connection(Glue(session, config.endpoint_url, config.catalog_id), session, config.endpoint_url)
