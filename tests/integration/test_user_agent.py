"""gluecat's clients build each User-Agent header once per set of SDK features, not per request:
every request still carries exactly the header botocore itself would have built for it."""

from __future__ import annotations

from typing import Any

from botocore.useragent import UserAgentString

from gluecat.backends import aws
from gluecat.backends.glue import Glue
from gluecat.sandbox.server import LocalGlue


def test_each_request_carries_the_header_botocore_would_build(server: LocalGlue) -> None:
    glue = Glue(aws.open_session(None, "us-east-1"), server.endpoint_url, None)
    creator = glue.client._user_agent_creator
    sent: list[tuple[str, str]] = []

    def compare(request: Any, **_: Any) -> None:
        # botocore's own build, in the request's context (its features), next to what was sent.
        sent.append((request.headers["User-Agent"].decode(), UserAgentString.to_string(creator)))

    glue.client.meta.events.register("before-send.glue", compare)
    glue.client.create_database(DatabaseInput={"Name": "sales"})
    glue.databases()  # a paginator: a feature of its own in the header
    glue.client.get_database(Name="sales")
    glue.databases()

    assert len(sent) == 4
    assert [header for header, _ in sent] == [built for _, built in sent]
    assert sent[1][0] != sent[0][0], "the paginator's feature is in its requests' header"
    assert sent[3][0] == sent[1][0] and sent[2][0] == sent[0][0]
