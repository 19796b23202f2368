"""Lake Formation in the YAML: LF-tag definitions and assignments, grants and tag-based grants."""

from __future__ import annotations

import re
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BeforeValidator, Field, model_validator

from gluecat.model.base import Strict, scalar_to_text

# The permissions Lake Formation grants on databases and tables (API reference: Permission).
Permission = Literal[
    "ALL",
    "SELECT",
    "ALTER",
    "DROP",
    "DELETE",
    "INSERT",
    "DESCRIBE",
    "CREATE_DATABASE",
    "CREATE_TABLE",
    "DATA_LOCATION_ACCESS",
    "CREATE_LF_TAG",
    "ASSOCIATE",
    "GRANT_WITH_LF_TAG_EXPRESSION",
]
# What Lake Formation's ALL (Super) holds on each resource: a grant of ALL is listed expanded.
IMPLIED_BY_ALL = {
    "database": frozenset({"ALTER", "CREATE_TABLE", "DESCRIBE", "DROP"}),
    "table": frozenset({"ALTER", "DELETE", "DESCRIBE", "DROP", "INSERT", "SELECT"}),
}
# A tag key and value as the API reference allows them (LFTag: TagKey, TagValues).
TAG_KEY = re.compile(r"^[\w\s.:/=+\-@%]{1,128}$")
TAG_VALUE = re.compile(r"^[\w\s.:*/=+\-@%]{0,256}$")
IAM_ALLOWED_PRINCIPALS = "IAM_ALLOWED_PRINCIPALS"


def principal_text(value: Any) -> Any:
    """A principal as Lake Formation lists it: an account id as 12 digits, IAM_ALLOWED_PRINCIPALS in
    capitals, surrounding blanks dropped (spellings that mean the same principal compare equal)."""
    if isinstance(value, int) and not isinstance(value, bool):
        value = f"{value:012d}"
    if not isinstance(value, str):
        return value
    value = value.strip()
    if value.upper() == IAM_ALLOWED_PRINCIPALS:
        return IAM_ALLOWED_PRINCIPALS
    at = value.lower().find(":iam::")
    if value.lower().startswith("arn:") and at > 0:  # `arn:aws:iam::` is one in any case; the rest is not
        return f"{value[:at].lower()}:iam::{value[at + len(':iam::') :]}"
    return value


# Every kind of principal Lake Formation grants to (API reference: DataLakePrincipal; Developer Guide:
# granting to IAM Identity Center users and groups, to SAML users and groups, across accounts).
_PRINCIPALS = tuple(
    re.compile(pattern)
    for pattern in (
        r"^[0-9]{12}$",  # an external account
        r"^[0-9]{12}:IAMPrincipals$",  # every IAM principal of an account
        r"^arn:aws[a-z-]*:iam::[0-9]{12}:(role|user)/.+$",
        r"^arn:aws[a-z-]*:iam::[0-9]{12}:saml-provider/[^:/]+:(user|group)/.+$",
        r"^arn:aws[a-z-]*:identitystore:::(user|group)/[\w.-]+$",  # IAM Identity Center
        r"^arn:aws[a-z-]*:quicksight:[a-z0-9-]+:[0-9]{12}:(group|user)/.+$",
        r"^arn:aws[a-z-]*:organizations::[0-9]{12}:(organization/o-[a-z0-9]+|ou/o-[a-z0-9]+/ou-[a-z0-9-]+)$",
    )
)


def is_principal(value: str) -> bool:
    """An IAM role or user ARN, a SAML user or group, an IAM Identity Center user or group, a QuickSight
    user or group, an account id, ACCOUNT:IAMPrincipals, an organization or organizational unit ARN, or
    IAM_ALLOWED_PRINCIPALS."""
    return value == IAM_ALLOWED_PRINCIPALS or any(pattern.match(value) for pattern in _PRINCIPALS)


def _tag_key(value: str) -> str:
    if not TAG_KEY.match(value):
        raise ValueError(f"LF-tag key '{value}' is not 1-128 letters, digits, spaces or _.:/=+-@%")
    return value


def _tag_value(value: str) -> str:
    if not TAG_VALUE.match(value):
        raise ValueError(f"LF-tag value '{value}' is not up to 256 letters, digits, spaces or _.:*/=+-@%")
    return value


def _unique(values: list[str]) -> list[str]:
    seen = [v for i, v in enumerate(values) if v in values[:i]]
    if seen:
        raise ValueError(f"'{seen[0]}' is listed twice")
    return values


TagKey = Annotated[str, AfterValidator(_tag_key)]
TagValue = Annotated[str, BeforeValidator(scalar_to_text), AfterValidator(_tag_value)]
Principal = Annotated[str, BeforeValidator(principal_text)]
TagDefinitions = dict[TagKey, Annotated[list[TagValue], Field(min_length=1, max_length=1000), AfterValidator(_unique)]]
TagAssignments = dict[TagKey, TagValue]
Permissions = Annotated[list[Permission], AfterValidator(_unique)]


class Grant(Strict):
    """Permissions of one principal on the database or table whose file holds it."""

    principal: Principal = Field(
        description="An IAM role or user ARN, a SAML group, an account id, IAM_ALLOWED_PRINCIPALS"
    )
    permissions: Permissions = Field(
        min_length=1, description="SELECT, DESCRIBE, ALTER, INSERT, DELETE, DROP, ALL, ..."
    )
    grantable: Permissions = Field(
        default_factory=list, description="The permissions granted with the grant option (a subset of permissions)"
    )
    columns: list[str] | None = Field(None, min_length=1, description="Only these columns (tables only)")
    excluded_columns: list[str] | None = Field(None, min_length=1, description="Every column but these (tables only)")

    @model_validator(mode="after")
    def _consistent(self) -> Grant:
        if self.columns is not None and self.excluded_columns is not None:
            raise ValueError("a grant names columns or excluded_columns, not both")
        beyond = [p for p in self.grantable if p not in self.permissions and "ALL" not in self.permissions]
        if beyond:
            raise ValueError(f"grantable {beyond[0]} is not among the grant's permissions")
        if (self.columns or self.excluded_columns) and set(self.permissions) - {"SELECT"}:
            raise ValueError("a grant on columns holds SELECT only (Lake Formation's column permissions)")
        return self


class TagGrant(Strict):
    """Permissions on every database or table whose LF-tags match the expression."""

    principal: Principal
    permissions: Permissions = Field(min_length=1)
    grantable: Permissions = Field(default_factory=list)
    resource: Literal["database", "table"] = Field(description="What the expression selects")
    expression: dict[TagKey, Annotated[list[TagValue], Field(min_length=1)]] = Field(
        min_length=1, description="{tag key: [values]}: a resource matches when it has one of each key's values"
    )

    @model_validator(mode="after")
    def _grantable_subset(self) -> TagGrant:
        beyond = [p for p in self.grantable if p not in self.permissions and "ALL" not in self.permissions]
        if beyond:
            raise ValueError(f"grantable {beyond[0]} is not among the grant's permissions")
        return self
