"""`gluecat apply FILE`: a saved plan read back and held to the project it was made for, then to the
catalog it was made against, before anything is written. The command renders it and asks between."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from gluecat.apply.run import verify_unchanged
from gluecat.backends.connect import Connection
from gluecat.changes.model import Plan
from gluecat.errors import GluecatError
from gluecat.plan import saved, serialize
from gluecat.plan.identity import catalog_binding
from gluecat.project.load import CATALOG_FILE, Project, load_project
from gluecat.project.targets import Targets


@dataclass(frozen=True)
class SavedPlan:
    path: Path
    plan: Plan  # with the environment's secrets back in place
    binding: saved.Binding  # the project and catalog it was made for
    project: Project


def open_saved(path: Path, env: str | None, targets: Targets) -> SavedPlan:
    """The plan in `path`, refused when it was made for another environment, other targets, or a
    project that is no longer where it was."""
    masked_plan, binding = saved.read(path)
    plan = serialize.with_env_secrets(masked_plan)
    if env and env != plan.env:
        raise GluecatError(f"{path} was planned for environment {plan.env or '(none)'}, not {env}: plan again")
    if targets.texts() and sorted(targets.texts()) != sorted(plan.targets):
        planned = " ".join(f"--target {t}" for t in plan.targets) or "no --target"
        raise GluecatError(
            f"{path} applies as it was planned ({planned}): a saved plan cannot be narrowed; plan again"
            f" with {' '.join(f'--target {t}' for t in targets.texts())} --out {path}"
        )
    root = Path(binding.root)
    if not (root / CATALOG_FILE).is_file():
        raise GluecatError(
            f"{path} was made for the catalog project at {root}, which is not there: make the plan again"
        )
    return SavedPlan(path, plan, binding, load_project(root, plan.env))


def check_saved(connection: Connection, opened: SavedPlan) -> None:
    """Refused whole, before any change, when the catalog is not the one the plan was made against,
    or anything the plan writes changed since."""
    saved.check_binding(opened.path, opened.binding, catalog_binding(opened.project, connection))
    verify_unchanged(connection, opened.plan)
