"""A plan saved by `plan --out`: bound to its catalog, tamper-evident, readable by its owner only.

The file is the JSON plan plus `binding` (the catalog project's absolute path and
the identity of the catalog it was planned against) and `digest`, a SHA-256 over
everything else. `apply FILE` refuses a file whose digest does not match (edited
by hand: an `update` that was a `replace` must not slip past --allow-destroy) and
a binding that does not match the catalog it would write to. The digest catches
edits, not forgery: anyone who can write the file can recompute it.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import shlex
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import ConfigDict

from gluecat.changes.model import Action, PartitionWrite, Plan
from gluecat.errors import ConflictError, GluecatError
from gluecat.plan import serialize
from gluecat.secrets import held, redact
from gluecat.secrets import values as secret_values


@dataclass(frozen=True)
class Binding:
    """Which catalog a plan was made for."""

    root: str  # the catalog project directory, absolute
    catalog: str  # the catalog id: catalog.yaml's catalog_id, else the caller's account
    region: str
    endpoint: str  # "sandbox", "aws" (the default endpoints) or endpoint_url with any password masked

    # how a saved plan's `binding` is read back: exactly these four strings
    __pydantic_config__ = ConfigDict(extra="forbid")

    def identity(self) -> str:
        return f"catalog {self.catalog} in {self.region} at {self.endpoint}"


def check_destination(out: Path) -> None:
    """`--out` must name a file in an existing directory: checked before anything is read."""
    if out.is_dir():
        raise GluecatError(f"--out {out}: that is a directory; name a file, e.g. --out {out / 'plan.json'}")
    parent = out.parent
    if not parent.is_dir():
        raise GluecatError(f"--out {out}: directory {parent} does not exist; create it first (mkdir -p {parent})")


def write(out: Path, plan: Plan, binding: Binding) -> None:
    """`plan` with its `${env.NAME}` values already masked; each NAME it holds is recorded with a
    verifier of the value it was planned with."""
    document: dict[str, Any] = {**serialize.to_json(_held_back(plan)), "binding": dataclasses.asdict(binding)}
    used = secret_values.placeholders(json.dumps(document))
    planned = secret_values.by_name()
    document["secrets"] = {name: secret_values.verifier(planned[name]) for name in sorted(used) if name in planned}
    document["digest"] = _digest(document)
    try:
        _write_private(out, json.dumps(document, indent=1) + "\n")
    except OSError as exc:
        raise GluecatError(f"--out {out}: cannot write the plan ({exc.strerror or exc})") from exc


def _held_back(plan: Plan) -> Plan:
    """The plan with each secret an update carries from the live object unchanged held back (apply
    takes it from the live object again), and the old side of every diff masked as plans show it:
    only values the plan itself writes are in the file."""
    changes = tuple(
        dataclasses.replace(change, desired=held.hold_back(change.desired, [(d.path, d.after) for d in change.diffs]))
        if change.action is Action.UPDATE and change.kind in ("table", "database") and isinstance(change.desired, dict)
        else change
        for change in plan.changes
    )
    changes = tuple(
        dataclasses.replace(change, diffs=tuple(serialize.live_side_masked(d) for d in change.diffs))
        for change in changes
    )
    partitions = tuple(
        dataclasses.replace(group, updates=tuple(_held_move(write) for write in group.updates))
        for group in plan.partitions
    )
    return dataclasses.replace(plan, changes=changes, partitions=partitions)


def _held_move(write: PartitionWrite) -> PartitionWrite:
    """A partition the plan moves carries all it holds live: its secrets are held back too, and a
    password in the location it moves from is masked."""
    before = None if write.before is None else redact.scrub(write.before)
    if write.live is None and before == write.before:
        return write
    live = None if write.live is None else held.hold_back(write.live, [])
    return dataclasses.replace(write, live=live, before=before)


def _write_private(path: Path, text: str) -> None:
    """Mode 0600 (a plan holds parameter values as they will be written), replaced atomically."""
    descriptor, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def read(path: Path) -> tuple[Plan, Binding]:
    """The plan and its binding; refused when the file is not intact."""
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise GluecatError(f"{path}: not a readable plan file ({exc})") from exc
    if not isinstance(document, dict) or "digest" not in document or "binding" not in document:
        raise GluecatError(f"{path}: not a plan saved by `gluecat plan --out` (no digest or binding): make it again")
    digest = document.pop("digest")
    if digest != _digest(document):
        raise GluecatError(
            f"{path} was changed after gluecat saved it (its digest does not match); a saved plan is applied"
            f" exactly as reviewed: make it again with"
            f" `gluecat plan {_project_named(document)} --out {shlex.quote(str(path))}`"
        )
    from gluecat.plan import document as shapes  # the saved plan's schema loads only to read one

    try:
        shapes.check_saved(document)
    except GluecatError as exc:
        raise GluecatError(f"{path}: {exc}") from None
    _check_secrets(path, document.pop("secrets", {}))
    binding = Binding(**document.pop("binding"))
    try:
        return serialize.from_json(document), binding
    except GluecatError as exc:
        raise GluecatError(f"{path}: {exc}") from None


def _project_named(document: dict[str, Any]) -> str:
    """The project the plan names in its binding, from where the command runs; PROJECT when it names
    none that is there (the file was changed: it is advice, not trusted)."""
    binding = document.get("binding")
    root = binding.get("root") if isinstance(binding, dict) else None
    if not isinstance(root, str) or not root or not Path(root).is_dir():
        return "PROJECT"
    relative = os.path.relpath(root)
    return shlex.quote(relative if not relative.startswith("../../") else root)


def _check_secrets(path: Path, recorded: dict[str, str]) -> None:
    """Each `${env.NAME}` value must be the one the plan was made with: the plan holds a placeholder
    wherever that value appeared, and a different value would write what nobody reviewed."""
    changed = [
        name
        for name, verifier in recorded.items()
        if name in os.environ and not secret_values.matches(os.environ[name], verifier)
    ]
    if changed:
        names = ", ".join(changed)
        raise GluecatError(
            f"{path}: environment variable {names} now holds a different value than when the plan was made;"
            f" nothing was changed. Set the value the plan was made with, or make the plan again"
        )


def check_binding(path: Path, saved: Binding, current: Binding) -> None:
    """Refuse a plan made for another catalog project or another catalog."""
    if saved.root != current.root:
        raise ConflictError(
            f"{path} was made for the catalog project at {saved.root}, not {current.root}: make the plan again there"
        )
    if saved != current:
        raise ConflictError(
            f"{path} was made for {saved.identity()}, but the credentials and settings now reach"
            f" {current.identity()}; nothing was changed. Check AWS_PROFILE and catalog.yaml, or make the plan again"
        )


def _digest(document: dict[str, Any]) -> str:
    canonical = json.dumps(document, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return "sha256:" + hashlib.sha256(canonical.encode("utf-8")).hexdigest()
