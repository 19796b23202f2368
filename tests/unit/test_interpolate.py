"""References in string values: resolution, escapes, positions, and import's inverse."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gluecat.adopt.refs import References
from gluecat.errors import GluecatError, SpecError
from gluecat.model import CatalogConfig
from gluecat.project.environments import choose
from gluecat.project.interpolate import Context, interpolate
from gluecat.project.load import read_catalog_config
from gluecat.project.source import SourceFile, read_yaml
from gluecat.secrets import values as secret_values

VARS = {"lake": "dev-lake", "team": "commerce"}


def _resolve(text: str, environ: dict[str, str] | None = None) -> str:
    source = SourceFile(Path("t.yaml"), {"description": text}, {(): (0, 0), ("description",): (0, 13)})
    result = interpolate(source, Context(VARS, environ or {}))
    assert not result.errors, result.errors
    value: str = result.source.data["description"]
    return value


@pytest.mark.parametrize(
    ("written", "read"),
    [
        ("s3://${var.lake}/sales/", "s3://dev-lake/sales/"),
        ("${var.team}-${var.lake}", "commerce-dev-lake"),
        ("$${var.lake}", "${var.lake}"),
        ("s3://lake/${tenant}/${dt}/", "s3://lake/${tenant}/${dt}/"),  # Athena's placeholders stay
        ("$$${dt}", "$${dt}"),
        ("no reference", "no reference"),
    ],
)
def test_references_resolve_and_escapes_stay_literal(written: str, read: str) -> None:
    assert _resolve(written) == read


def test_env_values_are_registered_as_secrets() -> None:
    assert _resolve("user:${env.GC_TEST_PW}@db", {"GC_TEST_PW": "hunter-42"}) == "user:hunter-42@db"
    assert secret_values.mask("jdbc user:hunter-42@db") == "jdbc user:(sensitive:GC_TEST_PW)@db"
    assert secret_values.restore_data({"a": ["(sensitive:GC_TEST_PW)"]}, {"GC_TEST_PW": "restored-7"}) == {
        "a": ["restored-7"]
    }
    with pytest.raises(GluecatError, match="GC_TEST_MISSING is not set"):
        secret_values.restore_data("(sensitive:GC_TEST_MISSING)", {})


def test_errors_name_file_line_and_column(tmp_path: Path) -> None:
    path = tmp_path / "orders.yaml"
    path.write_text('description: fine\nlocation: "s3://${var.lake}/${var.nope}"\nparameters: {a: "${env.UNSET_X}"}\n')
    result = interpolate(read_yaml(path), Context(VARS, {}))
    assert [str(e) for e in result.errors] == [
        f"{path}:2:29: undefined var 'nope': add it to vars in catalog.yaml (defined: lake, team)",
        f"{path}:3:18: environment variable UNSET_X is not set (${{env.UNSET_X}}); set UNSET_X before plan or apply",
    ]
    lenient = interpolate(read_yaml(path), Context(VARS, {}, secrets_required=False))
    assert lenient.source.data["parameters"]["a"] == "(sensitive:UNSET_X)" and len(lenient.unset) == 1


@pytest.mark.parametrize(("text", "message"), [("${var.lake", "is not closed"), ("${var.a-b}", "a var name is")])
def test_malformed_references_say_how_to_write_them(text: str, message: str) -> None:
    source = SourceFile(Path("t.yaml"), {"description": text}, {(): (0, 0), ("description",): (0, 13)})
    (error,) = interpolate(source, Context(VARS, {})).errors
    assert message in error.message


@given(st.text(alphabet="${}.varenv-lakdcom", max_size=40))
def test_import_writes_what_reads_back_as_the_live_text(live: str) -> None:
    assert _resolve(References(VARS).text(live)) == live


def test_import_replaces_the_longest_value_first_and_names_secrets() -> None:
    refs = References({"lake": "dev-lake", "short": "dev"})
    written = refs.apply(
        {"location": "s3://dev-lake/dev/", "parameters": {"db.password": "p", "plain": "dev"}}, "sales.orders"
    )
    assert written == {
        "location": "s3://${var.lake}/${var.short}/",
        "parameters": {"db.password": "${env.SALES_ORDERS_DB_PASSWORD}", "plain": "${var.short}"},
    }
    assert [(s.variable, s.where) for s in refs.secrets] == [
        ("SALES_ORDERS_DB_PASSWORD", "sales.orders parameters.db.password")
    ]


def test_an_environment_overrides_connection_keys_and_adds_vars(tmp_path: Path) -> None:
    config, source = read_catalog_config_from(tmp_path, ENVIRONMENTS)
    chosen = choose(config, source, "prod")
    assert chosen.name == "prod"
    assert (chosen.config.region, chosen.config.connection.account, chosen.config.role_arn) == (
        "eu-west-1", "222222222222", "arn:aws:iam::222222222222:role/gluecat")  # fmt: skip
    assert chosen.config.vars == {"team": "commerce", "lake": "prod-lake"}
    assert choose(config, source, None).name == "dev"  # default_env


def test_an_unknown_default_env_is_an_error_at_its_line(tmp_path: Path) -> None:
    config, source = read_catalog_config_from(tmp_path, ENVIRONMENTS.replace("default_env: dev", "default_env: qa"))
    with pytest.raises(SpecError, match=r"catalog.yaml:6:14: default_env 'qa' is not one of the environments"):
        choose(config, source, None)


def test_env_on_a_catalog_without_environments_is_an_error(tmp_path: Path) -> None:
    config, source = read_catalog_config_from(tmp_path, "region: eu-west-1\n")
    with pytest.raises(GluecatError, match="declares no environments"):
        choose(config, source, "dev")
    assert choose(config, source, None).name is None


ENVIRONMENTS = """\
region: us-east-1
vars: {team: commerce}
environments:
  dev: {catalog_id: "111111111111", vars: {lake: dev-lake}}
  prod: {region: eu-west-1, catalog_id: "222222222222", role_arn: "arn:aws:iam::222222222222:role/gluecat", vars: {lake: prod-lake}}
default_env: dev
"""


def read_catalog_config_from(tmp_path: Path, text: str) -> tuple[CatalogConfig, SourceFile]:
    (tmp_path / "catalog.yaml").write_text(text)
    return read_catalog_config(tmp_path)


def test_a_reference_in_catalog_yaml_is_an_error_where_written(tmp_path: Path) -> None:
    # catalog.yaml is read as written: the role would be assumed with the literal text as its external id.
    text = 'region: us-east-1\nrole_arn: "arn:aws:iam::1:role/x"\nexternal_id: ${env.EXTERNAL_ID}\n'
    text += 'environments:\n  dev: {vars: {lake: "${var.team}-lake", cost: "$${not.a.reference}"}}\n'
    with pytest.raises(GluecatError) as raised:
        read_catalog_config_from(tmp_path, text)
    assert str(raised.value).splitlines() == [
        f"{tmp_path / 'catalog.yaml'}:3:14: '${{env.EXTERNAL_ID}}': catalog.yaml is read as written (references"
        " work in database and table files); write the value, or give each environment its own under environments",
        f"{tmp_path / 'catalog.yaml'}:5:23: '${{var.team}}': catalog.yaml is read as written (references"
        " work in database and table files); write the value, or give each environment its own under environments",
    ]
