"""A refused call is named by the IAM action the policy lacks, whichever library made it."""

from __future__ import annotations

import pytest
from botocore.exceptions import ClientError

from gluecat.backends.denied import engine_denied, live_error
from gluecat.errors import AccessDeniedError

PYARROW = (
    "When getting information for key 'w/m/00000-a.metadata.json' in bucket 'lake': "
    "AWS Error ACCESS_DENIED during HeadObject operation: No response body."
)
OBJECT_STORE_LIST = (
    "Generic S3 error: Error performing list request: Error performing GET http://h/lake?list-type=2 in 1ms"
    " - Server returned non-2xx status code: 403 Forbidden: <Error><Code>AccessDenied</Code></Error>"
)
OBJECT_STORE_PUT = (
    "The operation lacked the necessary privileges to complete for path t/_delta_log/0.json: Error performing"
    " PUT http://h/lake/t/_delta_log/0.json in 6ms - Server returned non-2xx status code: 403 Forbidden"
)


def client_error(operation: str, code: str = "AccessDeniedException", status: int = 400) -> ClientError:
    response = {"Error": {"Code": code, "Message": "no"}, "ResponseMetadata": {"HTTPStatusCode": status}}
    return ClientError(response, operation)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("raised", "action"),
    [
        (OSError(PYARROW), "s3:GetObject"),
        (OSError("AWS Error ACCESS_DENIED during CreateMultipartUpload operation: x"), "s3:PutObject"),
        (OSError(OBJECT_STORE_LIST), "s3:ListBucket"),
        (OSError(OBJECT_STORE_PUT), "s3:PutObject"),
        (client_error("GetDatabase"), "glue:GetDatabase"),
        (client_error("ListObjectsV2", "AccessDenied", 403), "s3:ListBucket"),
    ],
)
def test_an_engine_refusal_names_the_action(raised: Exception, action: str) -> None:
    try:
        try:
            raise raised
        except Exception as exc:
            raise ValueError("wrapped by the library") from exc
    except ValueError as outer:
        found = engine_denied(outer)
    assert isinstance(found, AccessDeniedError)
    assert found.action == action
    assert "\n" not in str(found) and f"lack {action};" in str(found)


def test_other_failures_keep_their_message() -> None:
    assert engine_denied(OSError("Connection refused")) is None
    assert engine_denied(client_error("GetTable", "EntityNotFoundException")) is None
    assert str(live_error(OSError("boom"), "cannot read it: boom")) == "cannot read it: boom"
