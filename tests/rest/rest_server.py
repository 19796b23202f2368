"""Fetch, start and stop Apache Iceberg's own REST catalog server for the REST tests.

`org.apache.iceberg.rest.RESTCatalogServer` (the server behind the `apache/iceberg-rest-fixture`
image) runs from Maven Central jars on Java 17: a generated POM lists them (the `iceberg-open-api`
POM declares no dependencies) and `mvn dependency:copy-dependencies` copies them, once, into the
engines cache. The server keeps its catalog in SQLite (a JdbcCatalog, schema V1 so views work) and
its tables' files on a given S3 endpoint through S3FileIO, path-style, with the given keys. It
checks no credentials; it runs in its own session on a free port and is stopped by its process id.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from xml.sax.saxutils import escape

from tests.engines.trino_server import CACHE, EngineUnavailable
from tests.metastores.hms_server import java_command, preparing
from tests.processes import free_port, stop_group

ICEBERG = "1.10.0"
JETTY = "11.0.25"  # the fixture is compiled against Jetty 11
# (group, artifact, version, classifier, transitive): the server, Iceberg with S3FileIO, Jetty, SQLite,
# and hadoop-common alone (its own dependencies bring Jetty 9) with the few jars it needs at run time.
ARTIFACTS = (
    ("org.apache.iceberg", "iceberg-open-api", ICEBERG, "test-fixtures", False),
    ("org.apache.iceberg", "iceberg-core", ICEBERG, None, True),
    ("org.apache.iceberg", "iceberg-core", ICEBERG, "tests", False),
    ("org.apache.iceberg", "iceberg-aws", ICEBERG, None, True),
    ("org.apache.iceberg", "iceberg-aws-bundle", ICEBERG, None, True),
    ("org.eclipse.jetty", "jetty-server", JETTY, None, True),
    ("org.eclipse.jetty", "jetty-servlet", JETTY, None, True),
    ("org.xerial", "sqlite-jdbc", "3.50.3.0", None, True),
    ("org.slf4j", "slf4j-simple", "2.0.17", None, True),
    ("org.apache.hadoop", "hadoop-common", "3.4.1", None, False),
    ("com.fasterxml.woodstox", "woodstox-core", "5.4.0", None, False),
    ("org.codehaus.woodstox", "stax2-api", "4.2.1", None, False),
    ("org.apache.hadoop.thirdparty", "hadoop-shaded-guava", "1.3.0", None, False),
    ("commons-collections", "commons-collections", "3.2.2", None, False),
)
MAIN = "org.apache.iceberg.rest.RESTCatalogServer"
STARTUP_SECONDS = 60
STOP_SECONDS = 20
HEAP = "-Xmx512m"


class RestCatalogUnavailable(EngineUnavailable):
    """One line saying why the Iceberg REST catalog server could not be fetched or started."""


def _dependency(group: str, artifact: str, version: str, classifier: str | None, transitive: bool) -> str:
    lines = [f"<groupId>{group}</groupId>", f"<artifactId>{artifact}</artifactId>", f"<version>{version}</version>"]
    if classifier:
        lines.append(f"<classifier>{classifier}</classifier>")
    if not transitive:
        lines.append("<exclusions><exclusion><groupId>*</groupId><artifactId>*</artifactId></exclusion></exclusions>")
    return "<dependency>" + "".join(lines) + "</dependency>"


def pom() -> str:
    """A POM whose dependencies are the server's class path (runtime scope, as Maven resolves it)."""
    dependencies = "\n    ".join(_dependency(*a) for a in ARTIFACTS)
    return f"""<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>{escape("gluecat.tests")}</groupId>
  <artifactId>iceberg-rest-server</artifactId>
  <version>{ICEBERG}</version>
  <packaging>pom</packaging>
  <dependencies>
    {dependencies}
  </dependencies>
</project>
"""


def server_jars() -> Path:
    """The folder of the server's jars, fetched from Maven Central on first use."""
    home = CACHE / f"iceberg-rest-server-{ICEBERG}"
    if not (home / "complete").is_file():
        with preparing(home.name):
            if not (home / "complete").is_file():
                _fetch(home)
    return home / "lib"


def _fetch(home: Path) -> None:
    if shutil.which("mvn") is None:
        raise RestCatalogUnavailable(
            f"Iceberg REST server {ICEBERG}: mvn is not installed, so its jars cannot be fetched"
        )
    partial = CACHE / f".iceberg-rest-server-{ICEBERG}.partial"
    shutil.rmtree(partial, ignore_errors=True)
    partial.mkdir(parents=True)
    (partial / "pom.xml").write_text(pom())
    copied = subprocess.run(
        ["mvn", "-B", "-q", "-f", str(partial / "pom.xml"), "dependency:copy-dependencies",
         "-DincludeScope=runtime", f"-DoutputDirectory={partial / 'lib'}"],
        capture_output=True, text=True, check=False, timeout=1800, cwd=partial,
    )  # fmt: skip
    jars = sorted((partial / "lib").glob("*.jar")) if (partial / "lib").is_dir() else []
    if copied.returncode != 0 or not any(j.name.startswith("iceberg-open-api") for j in jars):
        last = (copied.stdout + copied.stderr).strip().splitlines()[-1:] or ["no output"]
        raise RestCatalogUnavailable(f"Iceberg REST server {ICEBERG}: mvn could not fetch its jars: {last[0]}")
    (partial / "complete").write_text("\n".join(j.name for j in jars) + "\n")
    shutil.rmtree(home, ignore_errors=True)
    partial.rename(home)


class RestCatalogServer:
    """One Iceberg REST catalog on a free port: SQLite in `workdir`, tables' files on the given S3."""

    def __init__(self, workdir: Path, s3_endpoint: str, access_key: str, secret_key: str, warehouse: str) -> None:
        self.workdir = workdir
        self.host = "127.0.0.1"
        self.port = 0
        self.log = workdir / "rest-catalog.log"
        self.warehouse = warehouse
        self._s3 = (s3_endpoint, access_key, secret_key)
        self._process: subprocess.Popen[bytes] | None = None
        self.boot_seconds = 0.0

    @property
    def uri(self) -> str:
        """The catalog's base URI (without `/v1`), as `rest_uri:` names it."""
        return f"http://{self.host}:{self.port}"

    @property
    def pid(self) -> int:
        assert self._process is not None, "start() first"
        return self._process.pid

    def _environment(self) -> dict[str, str]:
        endpoint, access_key, secret_key = self._s3
        return {
            **{k: v for k, v in os.environ.items() if not k.startswith("CATALOG_")},
            "CATALOG_REST_PORT": str(self.port),
            "CATALOG_CATALOG__IMPL": "org.apache.iceberg.jdbc.JdbcCatalog",
            "CATALOG_URI": f"jdbc:sqlite:{self.workdir / 'catalog.db'}",
            "CATALOG_JDBC_SCHEMA__VERSION": "V1",
            "CATALOG_WAREHOUSE": self.warehouse,
            "CATALOG_IO__IMPL": "org.apache.iceberg.aws.s3.S3FileIO",
            "CATALOG_S3_ENDPOINT": endpoint,
            "CATALOG_S3_PATH__STYLE__ACCESS": "true",
            "CATALOG_S3_ACCESS__KEY__ID": access_key,
            "CATALOG_S3_SECRET__ACCESS__KEY": secret_key,
            "CATALOG_CLIENT_REGION": "us-east-1",
            "AWS_REGION": "us-east-1",
        }

    def start(self) -> RestCatalogServer:
        jars = server_jars()
        self.port = free_port()
        command = [java_command(), HEAP, "-cp", f"{jars}/*", MAIN]
        started = time.monotonic()
        with self.log.open("wb") as log:
            self._process = subprocess.Popen(
                command, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                cwd=self.workdir, env=self._environment(), start_new_session=True,
            )  # fmt: skip
        self._wait_until_ready()
        self.boot_seconds = time.monotonic() - started
        return self

    def _tail(self, lines: int = 5) -> str:
        text = self.log.read_text(errors="replace") if self.log.is_file() else ""
        return " | ".join(line.strip() for line in text.strip().splitlines()[-lines:]) or "no output"

    def _wait_until_ready(self) -> None:
        deadline = time.monotonic() + STARTUP_SECONDS
        answer = "not started"
        while time.monotonic() < deadline:
            assert self._process is not None
            if self._process.poll() is not None:
                raise RestCatalogUnavailable(f"Iceberg REST server exited while starting: {self._tail()}")
            try:
                with urllib.request.urlopen(f"{self.uri}/v1/config", timeout=5) as reply:
                    if reply.status == 200:
                        return
                    answer = f"HTTP {reply.status}"
            except (OSError, urllib.error.URLError) as exc:
                answer = str(exc)
            time.sleep(0.2)
        self.stop()
        raise RestCatalogUnavailable(
            f"Iceberg REST server did not answer in {STARTUP_SECONDS} s ({answer}): {self._tail()}"
        )

    def stop(self) -> None:
        stop_group(self._process, STOP_SECONDS)


@contextmanager
def running_rest_catalog(
    workdir: Path, s3_endpoint: str, access_key: str, secret_key: str, warehouse: str
) -> Iterator[RestCatalogServer]:
    """An Iceberg REST catalog answering for the block, stopped by its process id at its end."""
    workdir.mkdir(parents=True, exist_ok=True)
    server = RestCatalogServer(workdir, s3_endpoint, access_key, secret_key, warehouse)
    try:
        yield server.start()
    finally:
        server.stop()


def main() -> int:
    """`python -m tests.rest.rest_server`: fetch the server's jars now, saying in one line what could
    not be had (.ci/run calls it before the tests)."""
    try:
        jars = server_jars()
    except EngineUnavailable as exc:
        print(f"iceberg rest: {exc}")
        return 1
    print(f"iceberg rest: Iceberg REST server {ICEBERG}, {len(list(jars.glob('*.jar')))} jars in {jars}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
