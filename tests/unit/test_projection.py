"""Typed partition projection: Athena's exact parameters, both directions, and the query-time mistakes validate catches."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from typer.testing import CliRunner

from gluecat.cli import app
from gluecat.convert.hive import hive_table_from_glue, hive_table_input
from gluecat.convert.projection import split_projection
from gluecat.model import HiveTable
from gluecat.project.projection_check import finer_than_day, strptime_pattern
from tests.corpus import load_corpus
from tests.unit.test_validate import make_project

GOOD = """\
storage: parquet
location: s3://lake/sales/events/
columns:
  - {name: id, type: bigint}
partition_keys:
  - {name: dt, type: string}
  - {name: region, type: string}
  - {name: hr, type: int}
  - {name: tenant, type: string}
projection:
  location_template: "s3://lake/sales/events/${tenant}/${region}/${dt}/${hr}/"
  keys:
    dt: {type: date, range: [2023-01-01, NOW], format: yyyy-MM-dd, interval: 1, unit: DAYS}
    region: {type: enum, values: [us-east-1, eu-west-1]}
    hr: {type: integer, range: [0, 23], digits: 2}
    tenant: {type: injected}
"""


def _validate(tmp_path: Path, table: str) -> tuple[int, list[dict[str, Any]]]:
    root = make_project(tmp_path, {"sales/tables/orders.yaml": table})
    result = CliRunner().invoke(app, ["validate", str(root), "--format", "json"])
    return result.exit_code, json.loads(result.output)["findings"]


def test_typed_projection_becomes_exactly_athenas_parameters() -> None:
    table = HiveTable.model_validate({**yaml.safe_load(GOOD), "name": "events"})
    shape = hive_table_input(table, "s3://lake/sales/events/")
    parameters = shape["Parameters"]
    assert parameters == {
        "projection.enabled": "true",
        "projection.dt.type": "date",
        "projection.dt.range": "2023-01-01,NOW",
        "projection.dt.format": "yyyy-MM-dd",
        "projection.dt.interval": "1",
        "projection.dt.interval.unit": "DAYS",
        "projection.region.type": "enum",
        "projection.region.values": "us-east-1,eu-west-1",
        "projection.hr.type": "integer",
        "projection.hr.range": "0,23",
        "projection.hr.digits": "2",
        "projection.tenant.type": "injected",
        "storage.location.template": "s3://lake/sales/events/${tenant}/${region}/${dt}/${hr}/",
    }
    back = hive_table_from_glue(dict(shape))
    assert back.projection == table.projection
    assert back.parameters == {}


def test_a_good_projection_validates_with_only_the_engine_warning(tmp_path: Path) -> None:
    code, findings = _validate(tmp_path, GOOD)
    assert code == 0, findings
    assert [f["rule"] for f in findings] == ["projection-engines"]
    assert findings[0]["severity"] == "warning" and "Spark and EMR ignore" in findings[0]["message"]


MISTAKES = [
    # (case, old text, new text, rule, words, line, column)
    ("key without projection", "    tenant: {type: injected}\n", "", "projection-keys", "'tenant' has no projection", 9, 12),
    ("projection of no key", "    tenant: {type: injected}\n", "    tenant: {type: injected}\n    zone: {type: injected}\n",
     "projection-keys", "'zone' is not a partition key", 17, 11),
    ("template misses a key", "${tenant}/", "", "projection-template", "does not name ${tenant}", 11, 22),
    ("empty enum", "values: [us-east-1, eu-west-1]", "values: []", "projection-enum", "at least one value", 14, 34),
    ("empty enum value", "values: [us-east-1, eu-west-1]", "values: [us-east-1, '']", "projection-enum", "may not be empty", 14, 46),
    ("integer range not ints", "range: [0, 23]", "range: [0, x23]", "projection-range", "'x23' is not an integer", 15, 36),
    ("integer range reversed", "range: [0, 23]", "range: [23, 0]", "projection-range", "min 23 is above max 0", 15, 32),
    ("date does not parse", "range: [2023-01-01, NOW]", "range: [2023/01/01, NOW]", "projection-range",
     "does not parse with format 'yyyy-MM-dd'", 13, 30),
    ("bad relative date", "range: [2023-01-01, NOW]", "range: [2023-01-01, NOW-3FORTNIGHTS]", "projection-range",
     "'NOW-3FORTNIGHTS' does not parse", 13, 42),
    ("hourly format without interval", "format: yyyy-MM-dd, interval: 1, unit: DAYS", "format: yyyy-MM-dd-HH",
     "projection-interval", "finer than a day", 13, 56),
    ("setting of another type", "{type: injected}", "{type: injected, digits: 2}", "projection-settings",
     "injected projection has no `digits`", 16, 38),
    ("missing required setting", "{type: enum, values: [us-east-1, eu-west-1]}", "{type: enum}", "projection-settings",
     "an enum projection needs `values`", 14, 20),
    ("hourly format names its key", "format: yyyy-MM-dd, interval: 1, unit: DAYS", "format: yyyy-MM-dd-HH",
     "projection-interval", "unit: HOURS) for 'dt'", 13, 56),
    ("strftime format", "format: yyyy-MM-dd,", "format: '%Y-%m-%d',", "projection-format",
     "strftime format; Athena reads a Java DateTimeFormatter pattern: write 'yyyy-MM-dd'", 13, 56),
    ("week-based year", "format: yyyy-MM-dd,", "format: YYYY-MM-dd,", "projection-format", "week-based year", 13, 56),
    ("day of the year", "format: yyyy-MM-dd,", "format: yyyy-MM-DD,", "projection-format", "day of the year", 13, 56),
    ("minutes for months", "format: yyyy-MM-dd,", "format: yyyy-mm-dd,", "projection-format", "months are 'MM'", 13, 56),
    ("date bound after NOW", "range: [2023-01-01, NOW]", "range: [9999-12-31, NOW]", "projection-range",
     "range min 9999-12-31 is after max NOW", 13, 29),
    ("relative bounds reversed", "range: [2023-01-01, NOW]", "range: [NOW+1MONTH, NOW-1MONTH]", "projection-range",
     "range min NOW+1MONTH is after max NOW-1MONTH", 13, 29),
    ("non-ASCII digits in a date", "range: [2023-01-01, NOW]", "range: [\uff12\uff10\uff12\uff13-01-01, NOW]", "projection-range",
     "does not parse with format 'yyyy-MM-dd'", 13, 30),
    ("template not on S3", '"s3://lake/sales/events/${tenant}', '"lake/sales/events/${tenant}', "projection-template",
     "is not an s3:// URI", 11, 22),
]  # fmt: skip


@pytest.mark.parametrize(
    ("case", "old", "new", "rule", "words", "line", "column"), MISTAKES, ids=[m[0] for m in MISTAKES]
)
def test_query_time_mistakes_are_caught_at_their_position(
    tmp_path: Path, case: str, old: str, new: str, rule: str, words: str, line: int, column: int
) -> None:
    assert old in GOOD
    code, findings = _validate(tmp_path, GOOD.replace(old, new))
    assert code == 1, findings
    matching = [f for f in findings if f["rule"] == rule and words in f["message"] and f["severity"] == "error"]
    assert matching, findings
    assert (matching[0]["line"], matching[0]["column"]) == (line, column), matching[0]
    assert matching[0]["path"].endswith("sales/tables/orders.yaml")


def test_projection_parameters_over_glues_value_limit_are_caught_offline(tmp_path: Path) -> None:
    many = ", ".join(f"tenant-{i:06d}" for i in range(40_000))  # 559,999 bytes once comma-joined
    table = GOOD.replace("values: [us-east-1, eu-west-1]", f"values: [{many}]")
    code, findings = _validate(tmp_path, table)
    assert code == 1, findings
    (finding,) = [f for f in findings if f["severity"] == "error"]
    assert finding["rule"] == "projection-settings", finding
    assert "projection.region.values would be 559,999 bytes long; Glue allows at most 512,000" in finding["message"]
    assert (finding["line"], finding["column"]) == (14, 34)
    disabled = table.replace("projection:\n", "projection:\n  enabled: false\n")
    code, findings = _validate(tmp_path / "disabled", disabled)
    assert code == 1 and any("559,999 bytes" in f["message"] for f in findings), findings


def test_real_world_formats_pass_the_format_checks(tmp_path: Path) -> None:
    for java in ("yyyy/MM/dd/HH", "yyyyMMdd", "yyyy-MM-dd HH:mm", "yyyy-MM-dd'T'HH", "'year='yyyy/'month='MM/'day='dd",
                 "yyyy-MM-dd-HH-mm"):  # fmt: skip
        table = GOOD.replace("format: yyyy-MM-dd,", f'format: "{java}",').replace(
            "[2023-01-01, NOW]", "[NOW-3YEARS, NOW]"
        )
        code, findings = _validate(tmp_path / str(abs(hash(java))), table)
        assert code == 0, (java, findings)


def test_template_naming_a_non_key_is_a_warning(tmp_path: Path) -> None:
    code, findings = _validate(tmp_path, GOOD.replace("${tenant}/", "${tenant}/${account}/"))
    assert code == 0
    (finding,) = [f for f in findings if f["rule"] == "projection-template"]
    assert finding["severity"] == "warning" and "${account}" in finding["message"]
    assert (finding["line"], finding["column"]) == (11, 22)


def test_unknown_unit_is_refused_with_athenas_list(tmp_path: Path) -> None:
    code, findings = _validate(tmp_path, GOOD.replace("unit: DAYS", "unit: FORTNIGHTS"))
    assert code == 1
    (finding,) = [f for f in findings if "FORTNIGHTS" in f["message"] or "MILLISECONDS" in f["message"]]
    assert "'YEARS'" in finding["message"] and "'MILLISECONDS'" in finding["message"]
    assert (finding["line"], finding["column"]) == (13, 87)


def test_projection_and_raw_projection_parameters_together_are_refused(tmp_path: Path) -> None:
    code, findings = _validate(tmp_path, GOOD + "parameters: {projection.dt.digits: '2'}\n")
    assert code == 1
    assert any("remove projection.dt.digits from `parameters`" in f["message"] for f in findings), findings


def test_java_date_patterns() -> None:
    assert strptime_pattern("yyyy/MM/dd") == "%Y/%m/%d"
    assert strptime_pattern("yyyy-MM-dd-HH-mm") == "%Y-%m-%d-%H-%M"
    assert strptime_pattern("yyyyMMdd'T'HH") == "%Y%m%dT%H"
    assert strptime_pattern("yyyy-MM-dd VV") is None  # a zone id: cannot check offline, so not checked
    assert finer_than_day("yyyy/MM/dd/HH") and not finer_than_day("yyyy/MM/dd") and not finer_than_day("'H'yyyy")


def test_import_normalises_case_and_white_space() -> None:
    projection, rest = split_projection({
        "EXTERNAL": "TRUE", "projection.enabled": " TRUE ", "projection.dt.type": " Date ",
        "projection.dt.range": "2020/01/01, NOW - 1 DAYS ", "projection.dt.format": "yyyy/MM/dd",
        "projection.dt.interval": " 1", "projection.dt.interval.unit": "days",
        "projection.n.type": "INTEGER", "projection.n.range": " 1 , 9 ",
    })  # fmt: skip
    assert rest == {"EXTERNAL": "TRUE"}
    assert projection is not None and projection.enabled
    dt, n = projection.keys["dt"], projection.keys["n"]
    assert (dt.type, dt.range, dt.interval, dt.unit) == ("date", ["2020/01/01", "NOW - 1 DAYS"], 1, "DAYS")
    assert (n.type, n.range) == ("integer", ["1", "9"])


def test_untypable_projection_parameters_stay_raw() -> None:
    live = {"projection.enabled": "true", "projection.dt.type": "date", "projection.dt.colour": "blue"}
    assert split_projection(live) == (None, live)


CORPUS_PROJECTED = [e for e in load_corpus() if "projection.enabled" in (e["table_input"].get("Parameters") or {})]


@pytest.mark.parametrize("entry", CORPUS_PROJECTED, ids=[e["file"] for e in CORPUS_PROJECTED])
def test_real_world_projection_parameters_type_and_write_back_the_same(entry: dict[str, Any]) -> None:
    parameters = entry["table_input"]["Parameters"]
    projection, rest = split_projection(parameters)
    assert projection is not None, entry["file"]
    assert not any(k.startswith("projection.") for k in rest)
    live = entry["table_input"]  # as Glue holds it: top-level column names folded to lower case
    columns = [{**c, "Name": c["Name"].lower()} for c in live["StorageDescriptor"]["Columns"]]
    table = hive_table_from_glue({**live, "StorageDescriptor": {**live["StorageDescriptor"], "Columns": columns}})
    assert table.projection == projection
    assert hive_table_input(table, None)["Parameters"] == parameters
