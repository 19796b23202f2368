"""Moving an Iceberg table between the local Glue and the real Iceberg REST catalog, one project with
an environment for each, both on the session's one local S3 (the local Glue that S3 belongs to is
the Glue side): `import` from one, `plan`/`apply --env` the other. The table arrives registered
(`register_table`) with the metadata file it had, no data copied: the same snapshot, the same rows;
the re-plan is clean. Then the source's entry is dropped without purge, the table is written to
where it now lives, and it moves back the same way with those rows too."""

from __future__ import annotations

from pathlib import Path

from tests.integration.helpers import gluecat, write_project
from tests.metastores.fixtures import LocalS3
from tests.rest.moves import (
    EVENTS,
    append,
    assert_clean,
    assert_moved,
    environments,
    glue_catalog,
    glue_client,
    rest_client,
    rows,
    rows_of,
)
from tests.rest.rest_server import RestCatalogServer


def test_an_iceberg_table_moves_from_glue_to_rest_and_back(
    tmp_path: Path, rest_catalog: RestCatalogServer, rest_s3: LocalS3
) -> None:
    db = "move_glue_rest"
    source = write_project(
        tmp_path / "source", rest_s3.endpoint,
        {f"{db}/database.yaml": f"description: Moved\nlocation: s3://{rest_s3.bucket}/{db}/\n",
         f"{db}/tables/events.yaml": EVENTS},
    )  # fmt: skip
    created = gluecat("apply", str(source), "--auto-approve")
    assert created.exit_code == 0, created.output
    glue, rest = glue_catalog(rest_s3), rest_client(rest_catalog, rest_s3)
    append(glue.load_table((db, "events")), rows_of(0, 5))
    append(glue.load_table((db, "events")), rows_of(5, 5))
    in_glue = glue.load_table((db, "events"))

    root = write_project(tmp_path / "moved", rest_s3.endpoint, {}, environments(rest_catalog, "glue"))
    imported = gluecat("import", str(root), "--database", db)
    assert imported.exit_code == 0, imported.output
    assert_clean(root, "glue")

    assert_moved(root, "rest", f"{db}.events")
    in_rest = rest.load_table((db, "events"))
    assert in_rest.metadata_location == in_glue.metadata_location  # registered, not a new table
    assert in_rest.metadata.table_uuid == in_glue.metadata.table_uuid
    assert in_rest.current_snapshot() == in_glue.current_snapshot()
    assert rows(rest, (db, "events")) == rows(glue, (db, "events")) == [(i, f"k{i}") for i in range(10)]
    assert rest.load_namespace_properties((db,))["comment"] == "Moved"
    assert_clean(root, "rest")

    # the move ends with the old entry dropped (its files stay: Glue deletes no data), and the
    # table lives on where it moved: written there, then moved back with those rows
    glue_client(rest_s3).delete_table(DatabaseName=db, Name="events")
    append(rest.load_table((db, "events")), rows_of(10, 3))
    written = rest.load_table((db, "events"))
    rest.drop_table((db, "events"))  # no purge: the metadata and data files stay
    assert_moved(root, "glue", f"{db}.events")
    back = glue.load_table((db, "events"))
    assert back.metadata_location == written.metadata_location
    assert back.metadata.table_uuid == in_glue.metadata.table_uuid
    assert rows(glue, (db, "events")) == [(i, f"k{i}") for i in range(13)]
    assert [len(s.manifests(back.io)) > 0 for s in back.snapshots()] == [True, True, True]
    assert_clean(root, "glue")


def test_an_iceberg_table_made_in_rest_moves_to_glue(
    tmp_path: Path, rest_catalog: RestCatalogServer, rest_s3: LocalS3
) -> None:
    """The reverse on its own: a table gluecat created in the REST catalog, imported from it, applied
    to Glue."""
    ns = "move_rest_glue"
    source = write_project(
        tmp_path / "source", rest_s3.endpoint,
        {f"{ns}/database.yaml": f"location: s3://{rest_s3.bucket}/{ns}/\n", f"{ns}/tables/events.yaml": EVENTS},
        f"backend: iceberg-rest\nrest_uri: {rest_catalog.uri}\n",
    )  # fmt: skip
    created = gluecat("apply", str(source), "--auto-approve")
    assert created.exit_code == 0, created.output
    glue, rest = glue_catalog(rest_s3), rest_client(rest_catalog, rest_s3)
    append(rest.load_table((ns, "events")), rows_of(0, 7))
    in_rest = rest.load_table((ns, "events"))

    root = write_project(tmp_path / "moved", rest_s3.endpoint, {}, environments(rest_catalog, "rest"))
    imported = gluecat("import", str(root), "--database", ns)
    assert imported.exit_code == 0, imported.output
    assert_clean(root, "rest")

    assert_moved(root, "glue", f"{ns}.events")
    in_glue = glue.load_table((ns, "events"))
    assert in_glue.metadata_location == in_rest.metadata_location
    assert in_glue.current_snapshot() == in_rest.current_snapshot()
    assert rows(glue, (ns, "events")) == rows(rest, (ns, "events")) == [(i, f"k{i}") for i in range(7)]
    glue_entry = glue_client(rest_s3).get_table(DatabaseName=ns, Name="events")["Table"]
    assert glue_entry["Parameters"]["table_type"].upper() == "ICEBERG"
    assert_clean(root, "glue")


GOVERNED = """\
format: iceberg
columns:
  - {name: event_id, type: bigint}
  - {name: email, type: string, lf_tags: {pii: "yes"}}
sort_order:
  - {column: event_id}
lf_tags: {tier: gold}
grants:
  - {principal: "arn:aws:iam::123456789012:role/analyst", permissions: [SELECT]}
optimizers:
  role_arn: arn:aws:iam::123456789012:role/optimizer
  compaction: {strategy: sort}
"""


def test_what_does_not_move_is_named_at_its_line_before_the_move(
    tmp_path: Path, rest_catalog: RestCatalogServer, rest_s3: LocalS3
) -> None:
    """Lake Formation tags and grants and Glue's table optimizers have no place in a REST catalog: the
    files that declare them validate for Glue, and for the REST environment each is an error at its
    line, so the move is planned only once they are taken out; nothing reaches the catalog."""
    db = "move_governed"
    catalog = environments(rest_catalog, "glue") + 'lf_tags: {tier: [gold], pii: ["yes", "no"]}\n'
    files = {
        f"{db}/database.yaml": f"location: s3://{rest_s3.bucket}/{db}/\nlf_tags: {{tier: gold}}\n",
        f"{db}/tables/events.yaml": GOVERNED,
    }
    root = write_project(tmp_path / "p", rest_s3.endpoint, files, catalog)
    assert gluecat("validate", str(root), "--env", "glue").exit_code == 0

    for command in ("validate", "plan"):
        refused = gluecat(command, str(root), "--env", "rest")
        assert refused.exit_code == 1, refused.output
        assert "Traceback" not in refused.output
        for at in ("catalog.yaml:7:", "database.yaml:2:", "events.yaml:4:", "events.yaml:7:", "events.yaml:9:",
                   "events.yaml:11:"):  # fmt: skip
            lines = [line for line in refused.output.splitlines() if at in line]
            assert len(lines) == 1 and "an Iceberg REST catalog has no" in lines[0], refused.output
    assert (db,) not in rest_client(rest_catalog, rest_s3).list_namespaces()
