"""A call AWS refused for want of an IAM permission, as one line naming the permission.

Glue, Lake Formation and STS name their IAM actions as their operations (glue:GetTables is the
GetTables call), so the operation botocore sent is the permission to add."""

from __future__ import annotations

from botocore.exceptions import ClientError

from gluecat.errors import AccessDeniedError

DENIED_CODES = frozenset({"AccessDeniedException", "AccessDenied", "UnauthorizedOperation", "AuthorizationError"})
POLICY_HINT = "`gluecat iam-policy` prints what each command needs"


def denied(exc: ClientError, service: str) -> AccessDeniedError | None:
    """The refusal as an AccessDeniedError, or None when the call failed for another reason."""
    error = exc.response.get("Error", {})
    status = exc.response.get("ResponseMetadata", {}).get("HTTPStatusCode")
    if error.get("Code") not in DENIED_CODES and status != 403:
        return None
    action = f"{service}:{exc.operation_name}"
    return AccessDeniedError(action, denial_message(action))


def denial_message(action: str) -> str:
    return f"permission denied: the credentials lack {action}; grant it ({POLICY_HINT})"
