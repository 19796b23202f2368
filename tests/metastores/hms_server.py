"""Fetch, start and stop real Hive Metastores (2.3.9 and 4.0.1) for the metastores tests.

HMS 4.0.1 comes from Maven Central as `hive-standalone-metastore-server:4.0.1` (the `bin` tarball),
with the Hadoop, S3A and logging jars its `lib/` leaves out, unpacked once into the engines cache;
its Derby schema is made once by its own schema tool and copied for every metastore started.
HMS 2.3.9 runs from the jars of the installed pyspark wheel (Spark's own Hive), with the S3A jars
that match pyspark's Hadoop; its Derby template is one boot with `hive.in.test=true`, which makes
the transaction and lock tables pyiceberg-style commits need (the schema tool is not in the wheel).

Both reach S3 through S3A (`s3://` too) at a given endpoint, path-style, with the given keys. Each
runs in its own session on a free loopback port and is stopped by its process id. Java 17, the
`java` on PATH, runs both.
"""

from __future__ import annotations

import fcntl
import os
import shutil
import socket
import struct
import subprocess
import sys
import tarfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from xml.sax.saxutils import escape

from tests.engines.trino_server import CACHE, EngineUnavailable
from tests.processes import free_port, stop_group

HMS2 = "2.3.9"
HMS4 = "4.0.1"
VERSIONS = (HMS2, HMS4)
HMS4_ARTIFACT = f"org.apache.hive:hive-standalone-metastore-server:{HMS4}:tar.gz:bin"
# What HMS 4.0.1's lib/ lacks to run on its own and reach S3 (its tarball expects a Hadoop install).
HMS4_EXTRA_JARS = (
    "org.apache.hadoop:hadoop-client-api:3.3.6",
    "org.apache.hadoop:hadoop-client-runtime:3.3.6",
    "org.apache.hadoop:hadoop-hdfs:3.3.6",
    "org.apache.hadoop:hadoop-aws:3.3.6",
    "com.amazonaws:aws-java-sdk-bundle:1.12.367",
    "commons-io:commons-io:2.8.0",
    "org.slf4j:slf4j-api:1.7.36",
    "javax.servlet:javax.servlet-api:3.1.0",
    "commons-collections:commons-collections:3.2.2",
    "org.apache.httpcomponents:httpclient:4.5.13",
    "com.google.code.gson:gson:2.9.0",
)
# hadoop-aws must match the Hadoop in pyspark's jars exactly, with the AWS SDK that Hadoop built with.
AWS_SDK_FOR_HADOOP = {"3.3.4": "1.12.262", "3.3.6": "1.12.367"}
SPARK_HIVE_CLIENT = "3.1.3"  # Spark's Hive client for HMS 4 (its built-in 2.3.9 client calls get_table)
STARTUP_SECONDS = 120
STOP_SECONDS = 30
HEAP = "-Xmx1g"


class MetastoreUnavailable(EngineUnavailable):
    """One line saying which metastore could not be fetched or started, and why."""


def java_command() -> str:
    java = shutil.which("java")
    if java is None:
        raise MetastoreUnavailable("Hive Metastore: no `java` on PATH (Java 17 runs both versions)")
    return java


def _maven_copy(coordinates: str, into: Path, what: str) -> None:
    """`mvn dependency:copy` of one artifact (G:A:V[:type[:classifier]]) into a folder."""
    if shutil.which("mvn") is None:
        raise MetastoreUnavailable(f"{what}: mvn is not installed, so {coordinates} cannot be fetched")
    copied = subprocess.run(
        ["mvn", "-B", "-q", "dependency:copy", f"-Dartifact={coordinates}", f"-DoutputDirectory={into}"],
        capture_output=True, text=True, check=False, timeout=1800,
    )  # fmt: skip
    if copied.returncode != 0:
        last = (copied.stdout + copied.stderr).strip().splitlines()[-1:] or ["no output"]
        raise MetastoreUnavailable(f"{what}: mvn could not fetch {coordinates}: {last[0]}")


@contextmanager
def preparing(name: str) -> Iterator[None]:
    """One process at a time makes a cache entry (pytest-xdist workers, two sessions on one machine);
    each checks again, inside, whether another made it meanwhile."""
    CACHE.mkdir(parents=True, exist_ok=True)
    with (CACHE / f".{name}.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        yield


def _jar_name(coordinates: str) -> str:
    _, artifact, version = coordinates.split(":")[:3]
    return f"{artifact}-{version}.jar"


# ---------------------------------------------------------------------------------------------
# HMS 4.0.1: the standalone tarball, its missing jars, a schema made by its schema tool


def hms4_home() -> Path:
    """The unpacked standalone metastore with the jars it lacks in `lib/`, fetched on first use."""
    home = CACHE / f"hive-metastore-{HMS4}"
    if not _hms4_complete(home):
        with preparing(home.name):
            if not _hms4_complete(home):
                _unpack_hms4(home)
    return home


def _hms4_complete(home: Path) -> bool:
    return (home / "lib").is_dir() and all((home / "lib" / _jar_name(c)).is_file() for c in HMS4_EXTRA_JARS)


def _unpack_hms4(home: Path) -> None:
    partial = CACHE / f".hive-metastore-{HMS4}.partial"
    shutil.rmtree(partial, ignore_errors=True)
    partial.mkdir(parents=True)
    what = f"Hive Metastore {HMS4}"
    _maven_copy(HMS4_ARTIFACT, partial, what)
    tarball = partial / f"hive-standalone-metastore-server-{HMS4}-bin.tar.gz"
    if not tarball.is_file():
        raise MetastoreUnavailable(f"{what}: mvn fetched {HMS4_ARTIFACT} but left no {tarball.name}")
    prefix = f"apache-hive-metastore-{HMS4}-bin/"
    wanted = tuple(f"{prefix}{folder}/" for folder in ("bin", "conf", "lib", "scripts/metastore/upgrade/derby"))
    with tarfile.open(tarball) as archive:
        members = [m for m in archive.getmembers() if m.name.startswith(wanted)]
        archive.extractall(partial, members=members, filter="tar")
    tarball.unlink()
    unpacked = partial / prefix.rstrip("/")
    for coordinates in HMS4_EXTRA_JARS:
        _maven_copy(coordinates, unpacked / "lib", what)
    shutil.rmtree(home, ignore_errors=True)
    unpacked.rename(home)
    shutil.rmtree(partial, ignore_errors=True)


def hms4_template() -> Path:
    """A Derby metastore with HMS 4's whole schema (lock and transaction tables included), made once
    by `MetastoreSchemaTool -initSchema`; every metastore started copies it."""
    home = hms4_home()
    template = CACHE / f"hive-metastore-{HMS4}-derby"
    if not _made(template):
        with preparing(template.name):
            if not _made(template):
                _init_schema(home, template)
    return template


def _made(template: Path) -> bool:
    return (template / "metastore_db" / "service.properties").is_file()


def _init_schema(home: Path, template: Path) -> None:
    partial = CACHE / f".hive-metastore-{HMS4}-derby.partial"
    shutil.rmtree(partial, ignore_errors=True)
    (partial / "conf").mkdir(parents=True)
    _write_site(partial / "conf" / "metastore-site.xml", _derby(partial / "metastore_db"))
    command = [
        java_command(), HEAP, f"-Dderby.stream.error.file={partial / 'derby.log'}",
        "-cp", f"{partial / 'conf'}:{home / 'lib'}/*",
        "org.apache.hadoop.hive.metastore.tools.schematool.MetastoreSchemaTool", "-initSchema", "-dbType", "derby",
    ]  # fmt: skip
    env = {**os.environ, "METASTORE_HOME": str(home)}
    made = subprocess.run(command, capture_output=True, text=True, check=False, timeout=600, env=env, cwd=partial)
    if made.returncode != 0 or not (partial / "metastore_db").is_dir():
        last = (made.stdout + made.stderr).strip().splitlines()[-3:] or ["no output"]
        raise MetastoreUnavailable(f"Hive Metastore {HMS4}: the schema tool failed: {' | '.join(last)}")
    shutil.rmtree(template, ignore_errors=True)
    template.mkdir(parents=True)
    (partial / "metastore_db").rename(template / "metastore_db")
    shutil.rmtree(partial, ignore_errors=True)


# ---------------------------------------------------------------------------------------------
# HMS 2.3.9: pyspark's jars, S3A jars for pyspark's Hadoop, a template booted once in test mode


def pyspark_jars() -> Path:
    """The `jars/` folder of the installed pyspark wheel (Spark's Hive 2.3.9 and Hadoop)."""
    try:
        import pyspark
    except ImportError as exc:
        raise MetastoreUnavailable(f"Hive Metastore {HMS2}: pyspark is not installed ({exc})") from exc
    jars = Path(pyspark.__file__).parent / "jars"
    if not (jars / f"hive-metastore-{HMS2}.jar").is_file():
        raise MetastoreUnavailable(f"Hive Metastore {HMS2}: pyspark {pyspark.__version__} does not ship it")
    return jars


def pyspark_hadoop() -> str:
    """The Hadoop version in pyspark's jars (what hadoop-aws must match)."""
    found = sorted(pyspark_jars().glob("hadoop-client-api-*.jar"))
    if not found:
        raise MetastoreUnavailable(f"Hive Metastore {HMS2}: no hadoop-client-api jar among pyspark's jars")
    return found[0].name.removeprefix("hadoop-client-api-").removesuffix(".jar")


def s3a_jars() -> list[Path]:
    """hadoop-aws and the AWS SDK bundle for pyspark's Hadoop (HMS 2.3.9's and Spark's S3A)."""
    hadoop = pyspark_hadoop()
    if hadoop not in AWS_SDK_FOR_HADOOP:
        raise MetastoreUnavailable(f"S3A: no AWS SDK version known for pyspark's Hadoop {hadoop}")
    folder = CACHE / f"s3a-hadoop-{hadoop}"
    sdk = AWS_SDK_FOR_HADOOP[hadoop]
    wanted = (f"org.apache.hadoop:hadoop-aws:{hadoop}", f"com.amazonaws:aws-java-sdk-bundle:{sdk}")
    jars = [folder / _jar_name(c) for c in wanted]
    if all(jar.is_file() for jar in jars):
        return jars
    with preparing(folder.name):
        if not all(jar.is_file() for jar in jars):
            partial = CACHE / f".s3a-hadoop-{hadoop}.partial"
            shutil.rmtree(partial, ignore_errors=True)
            partial.mkdir(parents=True)
            for coordinates in wanted:
                _maven_copy(coordinates, partial, f"S3A for Hadoop {hadoop}")
            shutil.rmtree(folder, ignore_errors=True)
            partial.rename(folder)
    return jars


def hms2_template() -> Path:
    """A Derby metastore booted once by HMS 2.3.9 with `hive.in.test=true` and asked for its open
    transactions, which makes the transaction and lock tables (`TxnDbUtil.prepDb`); made once per
    pyspark version, copied for every metastore started."""
    import pyspark

    template = CACHE / f"hive-metastore-{HMS2}-pyspark-{pyspark.__version__}-derby"
    if not _made(template):
        with preparing(template.name):
            if not _made(template):
                _boot_in_test_mode(template)
    return template


def _boot_in_test_mode(template: Path) -> None:
    partial = CACHE / f".hive-metastore-{HMS2}-derby.partial"
    shutil.rmtree(partial, ignore_errors=True)
    partial.mkdir(parents=True)
    server = Metastore(HMS2, partial, None, "", "", in_test=True)
    try:
        server.start()
        reply = _thrift_call(server.port, "get_open_txns")
        if reply != "ok":
            raise MetastoreUnavailable(f"Hive Metastore {HMS2}: making the lock tables failed ({reply})")
    finally:
        server.stop()
    shutil.rmtree(template, ignore_errors=True)
    template.mkdir(parents=True)
    (partial / "metastore_db").rename(template / "metastore_db")
    shutil.rmtree(partial, ignore_errors=True)


# ---------------------------------------------------------------------------------------------
# Configuration


def _derby(database: Path) -> dict[str, str]:
    return {
        "javax.jdo.option.ConnectionURL": f"jdbc:derby:;databaseName={database};create=true",
        "javax.jdo.option.ConnectionDriverName": "org.apache.derby.jdbc.EmbeddedDriver",
    }


def s3a_settings(endpoint: str, access_key: str, secret_key: str) -> dict[str, str]:
    """Hadoop's S3A against a local S3: path-style, plain HTTP when the endpoint is, fixed keys, and
    `s3://` served by S3A as well."""
    return {
        "fs.s3.impl": "org.apache.hadoop.fs.s3a.S3AFileSystem",
        "fs.s3a.impl": "org.apache.hadoop.fs.s3a.S3AFileSystem",
        "fs.s3a.endpoint": endpoint,
        "fs.s3a.endpoint.region": "us-east-1",
        "fs.s3a.path.style.access": "true",
        "fs.s3a.connection.ssl.enabled": str(endpoint.startswith("https://")).lower(),
        "fs.s3a.aws.credentials.provider": "org.apache.hadoop.fs.s3a.SimpleAWSCredentialsProvider",
        "fs.s3a.access.key": access_key,
        "fs.s3a.secret.key": secret_key,
    }


def _site(version: str, workdir: Path, in_test: bool) -> dict[str, str]:
    warehouse = (workdir / "warehouse").as_uri()
    settings = _derby(workdir / "metastore_db")
    if version == HMS2:
        settings |= {
            "datanucleus.schema.autoCreateAll": "true",
            "hive.metastore.schema.verification": "false",
            "hive.metastore.warehouse.dir": warehouse,
            "hive.async.log.enabled": "false",
            "hive.metastore.server.min.threads": "5",
        }
        if in_test:  # TxnHandler then creates the transaction and lock tables (TxnDbUtil.prepDb)
            settings["hive.in.test"] = "true"
    else:
        settings |= {
            "metastore.thrift.bind.host": "127.0.0.1",  # HMS 2.3.9 has no such setting: it listens everywhere
            "metastore.warehouse.dir": warehouse,
            "metastore.warehouse.external.dir": warehouse,
            "metastore.async.log.enabled": "false",
            "metastore.server.min.threads": "5",
            # One space, not empty: an empty value keeps the default transformer, which turns MANAGED
            # tables EXTERNAL (TRANSLATED_TO_EXTERNAL=TRUE, external.table.purge=TRUE).
            "metastore.metadata.transformer.class": " ",
        }
    return settings


def _write_site(path: Path, settings: dict[str, str]) -> None:
    properties = "".join(
        f"  <property><name>{escape(k)}</name><value>{escape(v)}</value></property>\n" for k, v in settings.items()
    )
    path.write_text(f'<?xml version="1.0"?>\n<configuration>\n{properties}</configuration>\n')


# Everything to the console (the metastore's log file): INFO from the metastore, WARN from the rest.
LOG4J2 = """\
status = WARN
name = gluecat-metastore
appender.console.type = Console
appender.console.name = console
appender.console.target = SYSTEM_ERR
appender.console.layout.type = PatternLayout
appender.console.layout.pattern = %d{HH:mm:ss.SSS} %p [%t] %c{1}: %m%n
rootLogger.level = WARN
rootLogger.appenderRef.console.ref = console
logger.hms.name = org.apache.hadoop.hive.metastore
logger.hms.level = INFO
"""


# ---------------------------------------------------------------------------------------------
# The running metastore


def _thrift_call(port: int, method: str, timeout: float = 10) -> str:
    """Call an argument-less metastore method over plain binary Thrift: "ok" when it returned a
    value, otherwise what went wrong. Needs no Thrift library: it is how readiness is checked."""
    name = method.encode()
    call = struct.pack("!iI", -2147418111, len(name)) + name + struct.pack("!i", 1) + b"\x00"  # CALL, no args
    header = 8 + len(name) + 4  # message type, name, sequence id; then the result struct's first field
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=timeout) as connection:
            connection.sendall(call)
            reply = b""
            while len(reply) < header + 3 and not (len(reply) > header and reply[header] == 0):
                chunk = connection.recv(65536)
                if not chunk:
                    break
                reply += chunk
    except OSError as exc:
        return str(exc) or type(exc).__name__
    if len(reply) < header + 1:
        return "the connection closed without a reply"
    if reply[3] != 2:  # not a REPLY: an application exception (unknown method, internal error)
        return f"{method} raised an application exception"
    if reply[header] == 0 or struct.unpack("!h", reply[header + 1 : header + 3])[0] != 0:
        return f"{method} answered with an exception"
    return "ok"


class Metastore:
    """One Hive Metastore on a free loopback port, with its own Derby database, warehouse and log."""

    def __init__(
        self,
        version: str,
        workdir: Path,
        s3_endpoint: str | None,
        access_key: str,
        secret_key: str,
        in_test: bool = False,
    ) -> None:
        if version not in VERSIONS:
            raise ValueError(f"Hive Metastore {version}: known versions are {', '.join(VERSIONS)}")
        self.version = version
        self.workdir = workdir
        self.host = "127.0.0.1"
        self.port = 0
        self.log = workdir / "metastore.log"
        self._s3 = s3a_settings(s3_endpoint, access_key, secret_key) if s3_endpoint else {}
        self._in_test = in_test
        self._process: subprocess.Popen[bytes] | None = None
        self.boot_seconds = 0.0

    @property
    def uri(self) -> str:
        return f"thrift://{self.host}:{self.port}"

    @property
    def pid(self) -> int:
        assert self._process is not None, "start() first"
        return self._process.pid

    def _command(self) -> list[str]:
        conf = self.workdir / "conf"
        conf.mkdir(parents=True, exist_ok=True)
        site = _site(self.version, self.workdir, self._in_test) | self._s3
        if self.version == HMS2:
            classpath = [str(conf), f"{pyspark_jars()}/*", *map(str, s3a_jars())]
            site_name, log_name = "hive-site.xml", "hive-log4j2.properties"
        else:
            classpath = [str(conf), f"{hms4_home() / 'lib'}/*"]
            site_name, log_name = "metastore-site.xml", "metastore-log4j2.properties"
        _write_site(conf / site_name, site)
        (conf / log_name).write_text(LOG4J2)
        (self.workdir / "warehouse").mkdir(exist_ok=True)
        return [
            java_command(), HEAP,
            f"-Dlog4j.configurationFile={conf / log_name}", "-Dhive.async.log.enabled=false",
            f"-Dderby.stream.error.file={self.workdir / 'derby.log'}",
            "-cp", ":".join(classpath),
            "org.apache.hadoop.hive.metastore.HiveMetaStore", "-p", str(self.port),
        ]  # fmt: skip

    def start(self) -> Metastore:
        if not self._in_test:
            template = hms2_template() if self.version == HMS2 else hms4_template()
            shutil.rmtree(self.workdir / "metastore_db", ignore_errors=True)
            shutil.copytree(template / "metastore_db", self.workdir / "metastore_db")
        self.port = free_port()
        command = self._command()
        started = time.monotonic()
        with self.log.open("wb") as log:
            self._process = subprocess.Popen(
                command, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                cwd=self.workdir, start_new_session=True,
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
                raise MetastoreUnavailable(f"Hive Metastore {self.version} exited while starting: {self._tail()}")
            answer = _thrift_call(self.port, "get_all_databases", timeout=5)
            if answer == "ok":
                return
            time.sleep(0.5)
        self.stop()
        raise MetastoreUnavailable(
            f"Hive Metastore {self.version} did not answer in {STARTUP_SECONDS} s ({answer}): {self._tail()}"
        )

    def stop(self) -> None:
        stop_group(self._process, STOP_SECONDS)


@contextmanager
def running_metastore(
    version: str, workdir: Path, s3_endpoint: str, access_key: str, secret_key: str
) -> Iterator[Metastore]:
    """A metastore answering Thrift for the block, stopped by its process id at its end."""
    workdir.mkdir(parents=True, exist_ok=True)
    server = Metastore(version, workdir, s3_endpoint, access_key, secret_key)
    try:
        yield server.start()
    finally:
        server.stop()


# ---------------------------------------------------------------------------------------------
# Spark against a metastore


def spark_hive_ivy() -> Path:
    """Spark's Ivy home for the metastores tests (`-Divy.home`): where `spark.sql.hive.metastore.jars=maven`
    caches the Hive 3.1.3 client it resolves (Spark passes that resolution no `spark.jars.ivy`)."""
    return CACHE / "spark-hive-ivy"


# What `spark.sql.hive.metastore.jars=maven` resolves for Hive 3.1 (Spark 3.5's IsolatedClientLoader
# and its `hive.v3_1`), besides hadoop-client-api and -runtime of Spark's own Hadoop.
SPARK_HIVE_CLIENT_ARTIFACTS = (
    "org.apache.logging.log4j:log4j-api:2.10.0",
    "org.apache.derby:derby:10.14.1.0",
    *(f"org.apache.hive:hive-{name}:{SPARK_HIVE_CLIENT}" for name in ("metastore", "exec", "common", "serde")),
    "com.google.guava:guava:14.0.1",
)
SPARK_HIVE_CLIENT_EXCLUSIONS = (
    "org.apache.calcite:calcite-druid",
    "org.apache.curator:*",
    "org.pentaho:pentaho-aggdesigner-algorithm",
    "org.apache.hive:hive-vector-code-gen",
)
SPARK_MAVEN_REPOSITORY = "https://maven-central.storage-download.googleapis.com/maven2/"  # Spark's default extra


def spark_hive_client() -> Path:
    """Resolve the Hive 3.1.3 client into `spark_hive_ivy()` once, as a Spark session with
    `spark.sql.hive.metastore.jars=maven` would, without starting one: `spark-submit` resolves the
    same coordinates, exclusions and repositories with the same Ivy code, then runs an empty script."""
    hadoop = pyspark_hadoop()
    ivy = spark_hive_ivy()
    resolved = ivy / f"hive-{SPARK_HIVE_CLIENT}-hadoop-{hadoop}.resolved"
    if not resolved.is_file():
        with preparing(ivy.name):
            if not resolved.is_file():
                _resolve_spark_hive_client(ivy, hadoop, resolved)
    return ivy


def _resolve_spark_hive_client(ivy: Path, hadoop: str, resolved: Path) -> None:
    ivy.mkdir(parents=True, exist_ok=True)
    empty = ivy / "resolve-only.py"
    empty.write_text("")
    import pyspark

    hadoop_client = [f"org.apache.hadoop:hadoop-client-{part}:{hadoop}" for part in ("api", "runtime")]
    packages = [*SPARK_HIVE_CLIENT_ARTIFACTS, *hadoop_client]
    command = [
        str(Path(pyspark.__file__).parent / "bin" / "spark-submit"),
        "--master", "local[1]", "--conf", f"spark.jars.ivy={ivy}", "--repositories", SPARK_MAVEN_REPOSITORY,
        "--packages", ",".join(packages), "--exclude-packages", ",".join(SPARK_HIVE_CLIENT_EXCLUSIONS), str(empty),
    ]  # fmt: skip
    env = {k: v for k, v in os.environ.items() if k != "SPARK_CONF_DIR"} | {"PYSPARK_PYTHON": sys.executable}
    done = subprocess.run(command, capture_output=True, text=True, check=False, timeout=1800, env=env)
    if done.returncode != 0:
        last = [line for line in (done.stdout + done.stderr).strip().splitlines() if line.strip()][-2:]
        raise MetastoreUnavailable(
            f"Spark's Hive {SPARK_HIVE_CLIENT} client: resolving it failed: {' | '.join(last) or 'no output'}"
        )
    resolved.write_text(" ".join(packages) + "\n")


def prefetch() -> list[str]:
    """Everything the metastores need before a test starts one, each fetched or made once."""
    home, template4 = hms4_home(), hms4_template()
    jars, template2 = s3a_jars(), hms2_template()
    ivy = spark_hive_client()
    return [
        f"Hive Metastore {HMS4} at {home} (schema template {template4})",
        f"Hive Metastore {HMS2} from {pyspark_jars()} with {', '.join(j.name for j in jars)} (template {template2})",
        f"Spark's Hive {SPARK_HIVE_CLIENT} client (for HMS {HMS4}) resolved into {ivy}",
    ]


def main() -> int:
    """`python -m tests.metastores.hms_server`: fetch and prepare both metastores now, saying in one
    line what could not be had (.ci/run calls it before the tests)."""
    try:
        lines = prefetch()
    except EngineUnavailable as exc:
        print(f"metastores: {exc}")
        return 1
    for line in lines:
        print(f"metastores: {line}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
