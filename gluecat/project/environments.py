"""Choose the environment a command runs in, and the catalog settings it sees there."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gluecat.errors import GluecatError, SpecError
from gluecat.model import CatalogConfig
from gluecat.model.backend_settings import BackendSettings
from gluecat.model.suggest import closest, either
from gluecat.project.source import SourceFile

ENV_VARIABLE = "GLUECAT_ENV"


@dataclass(frozen=True)
class Chosen:
    name: str | None  # None: the catalog declares no environments
    config: CatalogConfig  # connection keys overridden, vars merged


def choose(config: CatalogConfig, source: SourceFile, wanted: str | None) -> Chosen:
    """The environment named by `wanted` (or default_env), applied to `config`."""
    names = sorted(config.environments)
    if config.default_env is not None and config.default_env not in config.environments:
        raise SpecError(
            source.position(("default_env",)),
            f"default_env '{config.default_env}' is not one of the environments ({_listed(names)})",
        )
    if not names:
        if wanted:
            raise GluecatError(
                f"--env {wanted}: {source.path} declares no environments; drop --env (and {ENV_VARIABLE})"
            )
        return Chosen(None, config)
    name = wanted or config.default_env
    if name is None:
        raise GluecatError(
            f"{source.path} declares environments ({_listed(names)}): choose one with --env NAME or {ENV_VARIABLE},"
            " or set default_env"
        )
    if name not in config.environments:
        close = closest(name, names)
        hint = f"did you mean {either(close)}? " if close else ""
        raise GluecatError(f"unknown environment '{name}': {hint}{source.path} declares {_listed(names)}")
    return Chosen(name, effective(config, name))


def effective(config: CatalogConfig, name: str) -> CatalogConfig:
    """`config` as environment `name` sees it: its connection keys win, its vars are added.

    Its backend's own keys are the catalog's when it keeps the catalog's backend, else its own alone
    (the model resolved them with that backend: a key of another is refused where written)."""
    environment = config.environments[name]
    overrides: dict[str, Any] = environment.overrides()
    overrides["connection"] = _merged(config.connection, environment.connection)
    overrides["vars"] = {**config.vars, **environment.vars}
    return config.model_copy(update=overrides)


def _merged(catalog: BackendSettings, environment: BackendSettings | None) -> BackendSettings:
    if environment is None:
        return catalog
    if catalog.backend != environment.backend:
        return environment
    written = {key: getattr(environment, key) for key in environment.model_fields_set}
    return catalog.model_copy(update={key: value for key, value in written.items() if value is not None})


def _listed(names: list[str]) -> str:
    return ", ".join(names) if names else "none"


def matrix(root: Path) -> tuple[list[dict[str, str]], list[str]]:
    """Every catalog under `root` (or `root` itself) times each of its environments, for a CI matrix,
    and the error of each catalog whose catalog.yaml does not load.

    Environments keep their order in catalog.yaml, so a job that applies them one at a time goes
    the way the file reads (dev, staging, prod). A catalog whose catalog.yaml does not load is one
    row without an environment: its plan job fails with the error, where the pull request shows it."""
    from gluecat.project.load import CATALOG_FILE, read_catalog_config

    catalogs = [root] if (root / CATALOG_FILE).is_file() else sorted(p.parent for p in root.glob(f"*/{CATALOG_FILE}"))
    if not catalogs:
        raise GluecatError(f"no {CATALOG_FILE} in {root} or its subdirectories: nothing to plan")
    rows, errors = [], []
    for catalog in catalogs:
        title = catalog.name or catalog.resolve().name
        try:
            config, _ = read_catalog_config(catalog)
        except GluecatError as exc:
            errors.append(str(exc))
            rows.append(_row(catalog, title, "", "", False))
            continue
        for name in list(config.environments) or [""]:
            seen = effective(config, name) if name else config
            rows.append(_row(catalog, f"{title}/{name}" if name else title, name, seen.region or "", seen.sandbox))
    return rows, errors


def _row(catalog: Path, label: str, env: str, region: str, sandbox: bool) -> dict[str, str]:
    return {
        "catalog": str(catalog),
        "env": env,
        "name": label,
        "id": re.sub(r"[^A-Za-z0-9_.-]+", "-", label),  # usable in artifact and file names
        "region": region,
        "sandbox": "true" if sandbox else "false",
    }
