"""SparkSettings in each output format: spark-defaults.conf, JSON, PySpark, EMR, Glue job, Trino."""

from __future__ import annotations

import json

from gluecat.convert import presto_view
from gluecat.spark.rest import trino_catalog
from gluecat.spark.settings import SparkSettings

HIVE_SITE_PREFIXES = ("spark.hadoop.hive.", "spark.hadoop.aws.")
S3A_ENDPOINT = "spark.hadoop.fs.s3a.endpoint"
S3A_ACCESS_KEY = "spark.hadoop.fs.s3a.access.key"
S3A_SECRET_KEY = "spark.hadoop.fs.s3a.secret.key"
GLUE_JOB_DROPS = ("spark.jars.packages",)  # Glue jobs bring their jars through --datalake-formats


def conf(settings: SparkSettings) -> str:
    lines = ["# spark-defaults.conf written by gluecat spark-conf", f"# table formats: {', '.join(settings.formats)}"]
    width = max((len(k) for k in settings.conf), default=0)
    lines += [f"{key:<{width}}  {value}" for key, value in settings.conf.items()]
    return "\n".join(lines) + "\n"


def as_json(settings: SparkSettings) -> str:
    return json.dumps(settings.conf, indent=2) + "\n"


def pyspark(settings: SparkSettings) -> str:
    lines = ["from pyspark.sql import SparkSession", "", "spark = (", "    SparkSession.builder"]
    lines += [f"    .config({json.dumps(key)}, {json.dumps(value)})" for key, value in settings.conf.items()]
    lines += ["    .getOrCreate()", ")"]
    return "\n".join(lines) + "\n"


def emr(settings: SparkSettings) -> str:
    """EMR configuration classifications: metastore settings in spark-hive-site, the rest in spark-defaults."""
    defaults = {k: v for k, v in settings.conf.items() if not k.startswith(HIVE_SITE_PREFIXES)}
    hive_site = {
        k.removeprefix("spark.hadoop."): v for k, v in settings.conf.items() if k.startswith(HIVE_SITE_PREFIXES)
    }
    classifications = [{"Classification": "spark-defaults", "Properties": defaults}]
    if hive_site:
        classifications.append({"Classification": "spark-hive-site", "Properties": hive_site})
    return json.dumps(classifications, indent=2) + "\n"


def glue_job(settings: SparkSettings) -> str:
    """Glue job DefaultArguments: one --conf holding `k=v --conf k=v ...`, as Glue expects."""
    pairs = [f"{k}={v}" for k, v in settings.conf.items() if k not in GLUE_JOB_DROPS]
    arguments: dict[str, str] = {}
    if pairs:
        arguments["--conf"] = " --conf ".join(pairs)
    lake_formats = [f for f in settings.formats if f in ("iceberg", "delta")]
    if lake_formats:
        arguments["--datalake-formats"] = ",".join(lake_formats)
    if "hive" in settings.formats and not settings.metastore:
        arguments["--enable-glue-datacatalog"] = "true"
    return json.dumps(arguments, indent=2) + "\n"


def trino(settings: SparkSettings) -> str:
    """Catalog properties files for Trino's connectors on Glue (and its native S3 file system)."""
    if settings.rest:  # an Iceberg REST catalog holds Iceberg tables alone
        return _properties_files([("iceberg", trino_catalog(settings.rest))])
    if settings.metastore:
        return _trino_on_metastore(settings, settings.metastore)
    glue = []
    if settings.region:
        glue.append(f"hive.metastore.glue.region={settings.region}")
    if settings.account:
        glue.append(f"hive.metastore.glue.catalogid={settings.account}")
    glue += _trino_s3(settings)
    hive = ["connector.name=hive", "hive.metastore=glue"]
    if "projection" in settings.features:  # off by default: Trino would list no partitions at all
        hive.append("hive.partition-projection-enabled=true")
    if "spark-views" in settings.features:  # run as the querying user, as Spark runs them
        hive += ["hive.hive-views.enabled=true", "hive.hive-views.run-as-invoker=true"]
    files = []
    if "hive" in settings.formats:
        files.append(("hive", [*hive, *glue]))
    if "athena-views" in settings.features:
        # An Athena view names its tables in Athena's catalog, `awsdatacatalog`: Trino resolves them
        # only through a catalog of that name, the same Glue again.
        files.append((presto_view.CATALOG, [*hive, *glue]))
    if "iceberg" in settings.formats:
        files.append(("iceberg", ["connector.name=iceberg", "iceberg.catalog.type=glue", *glue]))
    if "delta" in settings.formats:
        files.append(("delta", ["connector.name=delta_lake", "hive.metastore=glue", *glue]))
    return _properties_files(files)


def _trino_on_metastore(settings: SparkSettings, uri: str) -> str:
    """The same catalogs on a Hive Metastore (`backend: hive`): its Thrift URI, S3 as configured."""
    shared = [f"hive.metastore.uri={uri}", *_trino_s3(settings, glue=False)]
    hive = ["connector.name=hive", "hive.metastore=thrift"]
    if "spark-views" in settings.features:
        hive += ["hive.hive-views.enabled=true", "hive.hive-views.run-as-invoker=true"]
    files = []
    if "hive" in settings.formats:
        files.append(("hive", [*hive, *shared]))
    if "iceberg" in settings.formats:
        files.append(("iceberg", ["connector.name=iceberg", "iceberg.catalog.type=hive_metastore", *shared]))
    if "delta" in settings.formats:
        files.append(("delta", ["connector.name=delta_lake", "hive.metastore=thrift", *shared]))
    return _properties_files(files)


def _properties_files(files: list[tuple[str, list[str]]]) -> str:
    return "\n".join(f"# etc/catalog/{name}.properties\n" + "\n".join(lines) + "\n" for name, lines in files)


def _trino_s3(settings: SparkSettings, glue: bool = True) -> list[str]:
    """Trino's native S3 file system (Trino 470 and later have no other), at the custom Glue/S3
    endpoint (and with the sandbox's placeholder keys) when the Spark settings carry one."""
    lines = ["fs.native-s3.enabled=true"]
    if settings.region:
        lines.append(f"s3.region={settings.region}")
    endpoint = settings.conf.get(S3A_ENDPOINT)
    if not endpoint:
        return lines
    lines = [
        *([f"hive.metastore.glue.endpoint-url={endpoint}"] if glue else []),
        *lines,
        f"s3.endpoint={endpoint}",
        "s3.path-style-access=true",
    ]
    access_key, secret_key = settings.conf.get(S3A_ACCESS_KEY), settings.conf.get(S3A_SECRET_KEY)
    if access_key and secret_key:
        if glue:
            lines += [
                f"hive.metastore.glue.aws-access-key={access_key}",
                f"hive.metastore.glue.aws-secret-key={secret_key}",
            ]
        lines += [f"s3.aws-access-key={access_key}", f"s3.aws-secret-key={secret_key}"]
    return lines


RENDERERS = {"conf": conf, "json": as_json, "pyspark": pyspark, "emr": emr, "glue-job": glue_job, "trino": trino}
