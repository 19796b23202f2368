"""The shipped CI workflow lints clean (actionlint, zizmor) and keeps its promises."""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest
import yaml  # type: ignore[import-untyped]

ROOT = Path(__file__).resolve().parents[2]
WORKFLOW = ROOT / ".github/workflows/gluecat.yml"
LOCK = ROOT / "requirements-ci.txt"
BIN = Path(sys.executable).parent


def _tool(name: str) -> str:
    path = BIN / name
    if not path.exists():
        pytest.fail(f"{name} is not installed: pip install -e '.[dev]'")
    return str(path)


def _run(*command: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)


def _workflow() -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load(WORKFLOW.read_text())
    return data


def test_actionlint_passes() -> None:
    result = _run(_tool("actionlint"), str(WORKFLOW))
    assert result.returncode == 0, result.stdout + result.stderr


def test_zizmor_passes_at_medium_and_above() -> None:
    result = _run(_tool("zizmor"), "--offline", "--min-severity", "medium", str(WORKFLOW))
    assert result.returncode == 0, result.stdout + result.stderr


def test_zizmor_would_catch_an_unpinned_action(tmp_path: Path) -> None:
    broken = tmp_path / "gluecat.yml"
    broken.write_text(re.sub(r"actions/checkout@[0-9a-f]{40}", "actions/checkout@v6", WORKFLOW.read_text()))
    result = _run(_tool("zizmor"), "--offline", "--min-severity", "medium", str(broken))
    assert result.returncode != 0 and "unpinned-uses" in result.stdout


def test_every_action_is_pinned_to_a_commit() -> None:
    uses = re.findall(r"uses:\s*(\S+)", WORKFLOW.read_text())
    assert uses
    for reference in uses:
        assert re.fullmatch(r"[\w.-]+/[\w.-]+@[0-9a-f]{40}", reference), reference


def test_permissions_are_granted_per_job() -> None:
    workflow = _workflow()
    assert workflow["permissions"] == {}
    for name, job in workflow["jobs"].items():
        assert "permissions" in job, name


def test_failed_plans_are_kept_and_posted() -> None:
    jobs = _workflow()["jobs"]
    upload = next(step for step in jobs["plan"]["steps"] if "upload-artifact" in step.get("uses", ""))
    assert upload["if"] == "always()"
    assert jobs["comment"]["if"].startswith("always()")
    plan_step = next(step for step in jobs["plan"]["steps"] if step.get("id") == "plan")
    assert "--detailed-exitcode" in plan_step["run"] and "stderr.txt" in plan_step["run"]


def test_only_the_manual_path_destroys_and_it_is_protected() -> None:
    workflow = _workflow()
    jobs = workflow["jobs"]
    assert "workflow_dispatch" in workflow[True]  # PyYAML reads the key `on` as True
    runs = {name: "\n".join(step.get("run", "") for step in job["steps"]) for name, job in jobs.items()}
    assert [name for name, text in runs.items() if "--allow-destroy" in text] == ["destroy"]
    assert jobs["destroy"]["if"] == "github.event_name == 'workflow_dispatch'"
    assert jobs["destroy"]["environment"] == "gluecat-destroy"
    assert "gluecat apply reviewed/plan.json" in runs["apply"]


def test_the_lock_pins_every_runtime_dependency_with_a_hash() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    entries = re.findall(r"^([a-z0-9_.-]+)==(\S+) \\\n\s+--hash=sha256:[0-9a-f]{64}$", LOCK.read_text(), re.M)
    pinned = {re.sub(r"[-_.]+", "-", name) for name, _ in entries}
    for requirement in [*project["project"]["dependencies"], *project["build-system"]["requires"]]:
        name = re.sub(r"[-_.]+", "-", re.split(r"[\[<>=!~ ]", requirement, maxsplit=1)[0].lower())
        assert name in pinned, f"{name} is missing from requirements-ci.txt: run python .ci/lock.py"


def _pins(lock: Path) -> dict[str, str]:
    entries = re.findall(r"^([a-z0-9_.-]+)==(\S+) \\\n\s+--hash=sha256:[0-9a-f]{64}$", lock.read_text(), re.M)
    return {re.sub(r"[-_.]+", "-", name): version for name, version in entries}


def test_ci_installs_the_dev_lock_which_keeps_the_runtime_pins() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    runtime, dev = _pins(LOCK), _pins(ROOT / "requirements-dev.txt")
    for requirement in project["project"]["optional-dependencies"]["dev"]:
        name = re.sub(r"[-_.]+", "-", re.split(r"[\[<>=!~ ]", requirement, maxsplit=1)[0].lower())
        assert name in dev, f"{name} is missing from requirements-dev.txt: run python .ci/lock.py"
    drifted = {name: (version, dev.get(name)) for name, version in runtime.items() if dev.get(name) != version}
    assert not drifted, f"requirements-dev.txt differs from requirements-ci.txt: {drifted}"
    ci = (ROOT / ".ci/run").read_text()
    assert "--require-hashes -r requirements-dev.txt" in ci
    assert "pip install --quiet -e '.[dev]'" not in ci, "an unlocked install would take whatever PyPI serves today"


def test_pull_requests_plan_only_what_they_change_and_drift_is_planned_in_full() -> None:
    jobs = _workflow()["jobs"]
    plan_steps = jobs["plan"]["steps"]
    checkout = next(step for step in plan_steps if step.get("uses", "").startswith("actions/checkout"))
    assert checkout["with"]["fetch-depth"] == 2, "--changed-since HEAD^1 needs the merge commit's base parent"
    (plan,) = [step for step in plan_steps if step.get("id") == "plan"]
    assert "--changed-since HEAD^1" in plan["run"]
    triggers = _workflow()[True]  # PyYAML reads the key `on` as True
    assert "schedule" in triggers
    drift = jobs["drift"]
    assert "schedule" in drift["if"]
    (full,) = [step for step in drift["steps"] if "gluecat plan" in step.get("run", "")]
    assert "--changed-since" not in full["run"] and "--detailed-exitcode" in full["run"]
    apply_runs = " ".join(step.get("run", "") for step in jobs["apply"]["steps"])
    assert 'gluecat plan "$CATALOG" --detailed-exitcode' in apply_runs, "a full plan after every merge"
