"""The Spark session configuration a catalog's tables need (SPEC §7), as plain settings.

Only what the tables need: an Iceberg GlueCatalog when there are Iceberg tables,
the Hive-on-Glue metastore client (as EMR and Glue jobs use it) for Hive tables,
the Delta extension and session catalog for Delta tables; with `backend: hive`,
Spark's own Hive catalog and Iceberg's Hive catalog on the Metastore instead; with
`backend: iceberg-rest`, Iceberg's REST catalog alone (gluecat/spark/rest.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from gluecat.backends.registry import capabilities
from gluecat.errors import GluecatError
from gluecat.kinds.registry import kind_of
from gluecat.model import Table
from gluecat.project.load import Project
from gluecat.spark.rest import RestEngine, rest_engine, spark_catalog

ICEBERG_EXTENSIONS = "org.apache.iceberg.spark.extensions.IcebergSparkSessionExtensions"
DELTA_EXTENSIONS = "io.delta.sql.DeltaSparkSessionExtension"
SANDBOX_PLACEHOLDER = "sandbox"  # the sandbox's S3 keys: it accepts any, so they are not secrets
GLUE_HIVE_FACTORY = "com.amazonaws.glue.catalog.metastore.AWSGlueDataCatalogHiveClientFactory"


@dataclass(frozen=True)
class Versions:
    """Maven coordinates that match one Spark line."""

    scala: str
    iceberg: str
    delta_artifact: str
    delta: str
    hadoop: str


SPARK_VERSIONS = {
    "3.4": Versions("2.12", "1.9.2", "delta-core", "2.4.0", "3.3.4"),
    "3.5": Versions("2.12", "1.10.0", "delta-spark", "3.3.2", "3.3.4"),
    "4.0": Versions("2.13", "1.10.0", "delta-spark", "4.0.0", "3.4.1"),
}


@dataclass(frozen=True)
class SparkSettings:
    """spark-defaults settings, plus what other targets need to say the same thing."""

    conf: dict[str, str]
    formats: tuple[str, ...]  # iceberg, delta, hive: which table formats are present (views are hive's)
    region: str | None = None
    account: str | None = None  # the Glue Data Catalog's account (catalog_id), when not the credentials' own
    iceberg_catalog: str = "glue"
    features: frozenset[str] = frozenset()  # athena-views, spark-views, projection: what readers must enable
    metastore: str | None = None  # backend: hive — the Hive Metastore's URI every engine reads through
    rest: RestEngine | None = None  # backend: iceberg-rest — the REST catalog every engine reads through
    public: frozenset[str] = frozenset()  # keys whose values are not secret, however they are named


def spark_line(version: str) -> str:
    line = ".".join(version.split(".")[:2])
    if line not in SPARK_VERSIONS:
        raise GluecatError(f"--spark-version {version}: gluecat knows {', '.join(SPARK_VERSIONS)}")
    return line


def spark_settings(
    project: Project,
    spark_version: str | None = None,
    endpoint_url: str | None = None,
    packages: list[str] | None = None,
    secrets: bool = True,
) -> SparkSettings:
    """`secrets`: whether Spark's settings need the REST catalog's secret values (Trino's name them)."""
    config = project.config
    line = spark_line(spark_version or config.spark.spark_version)
    versions = SPARK_VERSIONS[line]
    if capabilities(config.backend).engine_catalog == "rest":
        return _rest(project, line, versions, endpoint_url or config.endpoint_url, packages, secrets)
    tables = [t.model for db in project.databases for t in db.tables]
    catalogs = {kind_of(table).spark_catalog for table in tables}
    present = tuple(name for name in ("iceberg", "delta", "hive") if name in catalogs)
    endpoint = endpoint_url or config.endpoint_url
    conf: dict[str, str] = {}
    extensions = []
    coordinates = []
    if "iceberg" in present:
        extensions.append(ICEBERG_EXTENSIONS)
        iceberg = config.spark.iceberg_version or versions.iceberg
        coordinates += [
            f"org.apache.iceberg:iceberg-spark-runtime-{line}_{versions.scala}:{iceberg}",
            f"org.apache.iceberg:iceberg-aws-bundle:{iceberg}",
        ]
    if "delta" in present:
        extensions.append(DELTA_EXTENSIONS)
        delta = config.spark.delta_version or versions.delta
        coordinates.append(f"io.delta:{versions.delta_artifact}_{versions.scala}:{delta}")
    if endpoint:
        coordinates.append(f"org.apache.hadoop:hadoop-aws:{versions.hadoop}")
    if extensions:
        conf["spark.sql.extensions"] = ",".join(extensions)
    conf["spark.jars.packages"] = ",".join(packages if packages is not None else coordinates)
    if not conf["spark.jars.packages"]:
        del conf["spark.jars.packages"]
    name = config.spark.catalog_name
    warehouse = config.warehouse or _first_location(project)
    settings, account = config.connection, config.connection.account
    metastore = settings.address if capabilities(config.backend).engine_catalog == "hive" else None
    if "iceberg" in present:
        conf.update(_iceberg(name, warehouse, config.region, account, endpoint, metastore))
    if "delta" in present:
        conf["spark.sql.catalog.spark_catalog"] = "org.apache.spark.sql.delta.catalog.DeltaCatalog"
    if metastore:
        conf.update(_metastore(metastore, settings.version))
    elif "hive" in present:
        conf.update(_hive(config.region, account, endpoint))
    if endpoint:
        conf.update(_s3a(endpoint, sandbox=config.sandbox))
    features = _features(tables)
    return SparkSettings(conf, present, config.region, account, name, features, metastore)


def _rest(
    project: Project, line: str, versions: Versions, endpoint: str | None, packages: list[str] | None, secrets: bool
) -> SparkSettings:
    """An Iceberg REST catalog holds Iceberg tables alone: Iceberg's runtime and AWS bundle (S3FileIO
    reads and writes the files), its extensions, and the catalog."""
    config = project.config
    engine = rest_engine(config, [db.name for db in project.databases], endpoint)
    iceberg = config.spark.iceberg_version or versions.iceberg
    coordinates = [
        f"org.apache.iceberg:iceberg-spark-runtime-{line}_{versions.scala}:{iceberg}",
        f"org.apache.iceberg:iceberg-aws-bundle:{iceberg}",
    ]
    conf = {"spark.sql.extensions": ICEBERG_EXTENSIONS}
    chosen = packages if packages is not None else coordinates
    if chosen:
        conf["spark.jars.packages"] = ",".join(chosen)
    catalog, public = spark_catalog(config.spark.catalog_name, engine, secrets)
    conf.update(catalog)
    tables = [t.model for db in project.databases for t in db.tables]
    return SparkSettings(
        conf, ("iceberg",), config.region, None, config.spark.catalog_name, _features(tables), None, engine, public
    )


def _features(tables: Sequence[Table]) -> frozenset[str]:
    return frozenset().union(*(kind_of(table).engine_features(table) for table in tables))


def _first_location(project: Project) -> str | None:
    return next((db.model.location for db in project.databases if db.model.location), None)


def _iceberg(
    name: str,
    warehouse: str | None,
    region: str | None,
    catalog_id: str | None,
    endpoint: str | None,
    metastore: str | None,
) -> dict[str, str]:
    prefix = f"spark.sql.catalog.{name}"
    conf = {prefix: "org.apache.iceberg.spark.SparkCatalog"}
    if metastore:
        conf.update({f"{prefix}.type": "hive", f"{prefix}.uri": metastore})
    else:
        conf[f"{prefix}.catalog-impl"] = "org.apache.iceberg.aws.glue.GlueCatalog"
    conf[f"{prefix}.io-impl"] = "org.apache.iceberg.aws.s3.S3FileIO"
    if warehouse:
        conf[f"{prefix}.warehouse"] = warehouse
    if catalog_id:
        conf[f"{prefix}.glue.id"] = catalog_id
    if region:
        conf[f"{prefix}.client.region"] = region
    if endpoint:
        if not metastore:
            conf[f"{prefix}.glue.endpoint"] = endpoint
        conf[f"{prefix}.s3.endpoint"] = endpoint
        conf[f"{prefix}.s3.path-style-access"] = "true"
    return conf


def _hive(region: str | None, catalog_id: str | None, endpoint: str | None) -> dict[str, str]:
    conf = {
        "spark.sql.catalogImplementation": "hive",
        "spark.hadoop.hive.metastore.client.factory.class": GLUE_HIVE_FACTORY,
    }
    if catalog_id:
        conf["spark.hadoop.hive.metastore.glue.catalogid"] = catalog_id
    if region:
        conf["spark.hadoop.aws.region"] = region
    if endpoint:
        conf["spark.hadoop.aws.glue.endpoint"] = endpoint
    return conf


def _metastore(uri: str, version: str | None) -> dict[str, str]:
    """Spark's own Hive catalog on a Hive Metastore. Spark's built-in Hive 2.3.9 client calls
    `get_table`, which Hive 4.0 no longer serves: for 3.1 and 4.0, Spark's Hive 3.1.3 client
    (resolved from Maven Central on first use)."""
    conf = {"spark.sql.catalogImplementation": "hive", "spark.hadoop.hive.metastore.uris": uri}
    if version in ("3.1", "4.0"):
        conf["spark.sql.hive.metastore.version"] = "3.1.3"
        conf["spark.sql.hive.metastore.jars"] = "maven"
    return conf


def _s3a(endpoint: str, sandbox: bool) -> dict[str, str]:
    """s3:// and s3a:// through Hadoop's S3A against a custom endpoint (the sandbox, a local S3)."""
    conf = {
        "spark.hadoop.fs.s3.impl": "org.apache.hadoop.fs.s3a.S3AFileSystem",
        "spark.hadoop.fs.s3a.endpoint": endpoint,
        "spark.hadoop.fs.s3a.path.style.access": "true",
        "spark.hadoop.fs.s3a.connection.ssl.enabled": str(endpoint.startswith("https://")).lower(),
    }
    if sandbox:  # the sandbox accepts any key; these are not credentials
        conf["spark.hadoop.fs.s3a.access.key"] = SANDBOX_PLACEHOLDER
        conf["spark.hadoop.fs.s3a.secret.key"] = SANDBOX_PLACEHOLDER
    return conf
