"""import treats catalog.yaml like every other file it writes: Lake Formation keys that differ from
the live catalog's make it differ (kept without --force, exit 1, named in --dry-run); keys it lacks
are added and counted; --force replaces only the keys that differ."""

from __future__ import annotations

from pathlib import Path

import yaml

from gluecat.sandbox.server import LocalGlue
from tests.integration.helpers import gluecat, write_project
from tests.integration.test_lakeformation import ADMIN, ANALYST, CATALOG, _project

OTHER_ADMIN = "arn:aws:iam::123456789012:role/someone-else"
# The same tag grant written otherwise (order of permissions and values): it means the same.
DIFFERING = f"""\
# the team's catalog
data_lake_admins: [{OTHER_ADMIN}]
lf_tags:
  domain: [web, sales]
  tier: [gold, silver]
tag_grants:
  - principal: {ANALYST}
    permissions: [DESCRIBE, SELECT]
    grantable: [SELECT]
    resource: table
    expression: {{domain: [sales, web], tier: [gold]}}
prune: false
"""


def _applied(tmp_path: Path, server: LocalGlue) -> None:
    source = _project(tmp_path / "source", server)
    applied = gluecat("apply", str(source), "--auto-approve")
    assert applied.exit_code == 0, applied.output


def test_a_catalog_yaml_whose_lake_formation_keys_differ_is_kept_and_exits_1(tmp_path: Path, server: LocalGlue) -> None:
    _applied(tmp_path, server)
    root = write_project(tmp_path / "p", server.endpoint_url, {}, DIFFERING)
    before = (root / "catalog.yaml").read_text()

    dry = gluecat("import", str(root), "--dry-run")
    assert dry.exit_code == 1, dry.output
    assert (
        f"differs   {root / 'catalog.yaml'}: data_lake_admins, lf_tags differ from the live catalog's;"
        " pass --force to overwrite it"
    ) in dry.stdout
    assert "1 differ (kept)" in dry.stdout

    imported = gluecat("import", str(root))
    assert imported.exit_code == 1, imported.output
    assert f"kept {root / 'catalog.yaml'}: data_lake_admins, lf_tags differ" in imported.stderr
    assert "0 unchanged, 1 differ (kept)" in imported.stdout
    assert "  catalog.yaml differs (kept)" in imported.stdout
    assert (root / "catalog.yaml").read_text() == before


def test_force_replaces_only_the_keys_that_differ(tmp_path: Path, server: LocalGlue) -> None:
    _applied(tmp_path, server)
    root = write_project(tmp_path / "p", server.endpoint_url, {}, DIFFERING)

    forced = gluecat("import", str(root), "--force")
    assert forced.exit_code == 0, forced.output
    assert f"overwrote {root / 'catalog.yaml'}: data_lake_admins, lf_tags differ" in forced.stderr
    text = (root / "catalog.yaml").read_text()
    catalog = yaml.safe_load(text)
    assert catalog["data_lake_admins"] == [ADMIN]
    assert catalog["lf_tags"] == {"domain": ["sales", "web"], "tier": ["gold", "silver", "restricted"]}
    assert catalog["tag_grants"][0]["expression"] == {"domain": ["sales", "web"], "tier": ["gold"]}
    assert text.startswith("region: us-east-1\n")  # the rest of the file as it was
    assert "# the team's catalog\n" in text and catalog["prune"] is False
    assert "[DESCRIBE, SELECT]" in text  # the key that meant the same is left as written

    again = gluecat("import", str(root))
    assert again.exit_code == 0, again.output
    assert "catalog.yaml" not in again.stdout and "0 differ" in again.stdout


def test_keys_the_file_lacks_are_added_and_counted(tmp_path: Path, server: LocalGlue) -> None:
    _applied(tmp_path, server)
    root = write_project(tmp_path / "p", server.endpoint_url, {}, "# nothing of Lake Formation yet\n")

    dry = gluecat("import", str(root), "--dry-run")
    assert dry.exit_code == 0, dry.output
    assert f"update    {root / 'catalog.yaml'}: adds data_lake_admins, lf_tags, tag_grants" in dry.stdout
    assert "  catalog.yaml to update" in dry.stdout
    assert "lf_tags" not in (root / "catalog.yaml").read_text()

    imported = gluecat("import", str(root))
    assert imported.exit_code == 0, imported.output
    assert "  catalog.yaml updated" in imported.stdout
    catalog = yaml.safe_load((root / "catalog.yaml").read_text())
    assert catalog["data_lake_admins"] == [ADMIN] and set(catalog["lf_tags"]) == {"domain", "tier"}


def test_the_same_keys_written_otherwise_are_unchanged(tmp_path: Path, server: LocalGlue) -> None:
    _applied(tmp_path, server)
    same = CATALOG.replace("[sales, web]", "[web, sales]").replace("[SELECT, DESCRIBE]", "[DESCRIBE, SELECT]")
    root = write_project(tmp_path / "p", server.endpoint_url, {}, same)
    imported = gluecat("import", str(root))
    assert imported.exit_code == 0, imported.output
    assert "catalog.yaml" not in imported.stdout + imported.stderr
