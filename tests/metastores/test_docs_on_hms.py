"""`gluecat docs --live` on real Hive Metastores (2.3.9 and 4.0.1): the site builds from the live
catalog, each declared table has its page with what the metastore adds, and an Iceberg table its
snapshots summary; a metastore keeps no table versions and has no Lake Formation, and says so by
leaving them out."""

from __future__ import annotations

import json
import re
from pathlib import Path

from tests.integration.helpers import gluecat
from tests.metastores.conftest import LocalS3
from tests.metastores.hms_server import Metastore
from tests.metastores.test_gluecat_on_hms import _project, _version_tag


def test_the_site_builds_from_the_live_metastore(hms: Metastore, metastores_s3: LocalS3, tmp_path: Path) -> None:
    db = f"gc_docs_{_version_tag(hms)}"
    root = _project(tmp_path / "project", hms, metastores_s3, db)
    applied = gluecat("apply", str(root), "--auto-approve")
    assert applied.exit_code == 0, applied.output

    site = tmp_path / "site"
    built = gluecat("docs", str(root), "--live", "--out", str(site))
    assert built.exit_code == 0, built.output
    document = json.loads((site / "catalog.json").read_text())
    # The metastore is the session's: other tests' databases are live there too, and --live shows them.
    written = re.search(r"Wrote (\d+) table and view pages", built.output)
    assert written and int(written[1]) == sum(len(d["tables"]) for d in document["databases"])
    assert document["catalog"]["backend"] == "hive" and document["catalog"]["live"] is True
    assert document["catalog"]["live_grants"] is False
    pages = {t["id"]: t for d in document["databases"] if d["name"] == db for t in d["tables"]}
    assert set(pages) == {f"{db}.orders", f"{db}.customers", f"{db}.events"}
    orders = pages[f"{db}.orders"]
    assert orders["live"]["Partitions"] == 2 and "Versions" not in orders["live"]
    assert not orders.get("unmanaged")
    snapshots = pages[f"{db}.events"]["live"]["Snapshots"]
    assert snapshots == {"count": 0, "current": None, "latest": []}  # created, nothing written yet
    assert (site / "index.html").is_file() and (site / "data" / "catalog.js").is_file()
