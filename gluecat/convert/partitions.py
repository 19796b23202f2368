"""What a partition holds of its own ↔ the `parameters`, `storage_parameters` and `extra` of its entry.

A partition copies its table's storage descriptor when it is added (as Athena and Hive do);
what it holds beyond that — its own parameters, StorageDescriptor parameters, columns or SerDe
that drifted — is written in its YAML entry so that a rebuilt catalog holds it too. A partition
stored without a descriptor of its own (BatchCreatePartition takes values alone) is written
`extra: {StorageDescriptor: null}`, and is created without one again.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from gluecat.convert.extra import meaningful
from gluecat.convert.parameters import managed
from gluecat.model.partitions import PartitionOwn

Shape = dict[str, Any]
SKIPPED = ("Location", "Parameters")  # the location is the entry's own key; parameters compare key by key


def own_input(item: PartitionOwn) -> Shape:
    """The partial PartitionInput an entry or generator lays over the table's template."""
    own: Shape = {}
    if item.parameters:
        own["Parameters"] = dict(item.parameters)
    if "StorageDescriptor" in item.extra and item.extra["StorageDescriptor"] is None:
        own["StorageDescriptor"] = None  # none of its own
        return own
    descriptor = dict(item.extra.get("StorageDescriptor") or {})
    if item.storage_parameters is not None:
        descriptor["Parameters"] = dict(item.storage_parameters)
    if descriptor:
        own["StorageDescriptor"] = descriptor
    return own


def created(storage: Mapping[str, Any], values: Sequence[str], location: str, own: Mapping[str, Any] | None) -> Shape:
    """A new partition: the table's storage descriptor, its own fields laid over, its location."""
    own = own or {}
    shape: Shape = {"Values": list(values)}
    if not _descriptorless(own):
        shape["StorageDescriptor"] = {**storage, **(own.get("StorageDescriptor") or {}), "Location": location}
    if own.get("Parameters"):
        shape["Parameters"] = dict(own["Parameters"])
    return shape


def updated(live: Mapping[str, Any], own: Mapping[str, Any] | None, location: str) -> Shape:
    """A live partition at `location` with its declared fields laid over; parameters merge key by key,
    so what it holds beyond the YAML is kept (safety rule 6)."""
    own = own or {}
    own_sd = dict(own.get("StorageDescriptor") or {})
    live_sd = live.get("StorageDescriptor") or {}
    if "Parameters" in own_sd:
        own_sd["Parameters"] = {**(live_sd.get("Parameters") or {}), **own_sd["Parameters"]}
    shape: Shape = {**live, "StorageDescriptor": {**live_sd, **own_sd, "Location": location}}
    if _descriptorless(own):
        del shape["StorageDescriptor"]
    if own.get("Parameters"):
        shape["Parameters"] = {**(live.get("Parameters") or {}), **own["Parameters"]}
    return shape


def own_differs(own: Mapping[str, Any], live: Mapping[str, Any]) -> bool:
    """Whether a live partition lacks something its entry declares (undeclared keys are not compared)."""
    if any((live.get("Parameters") or {}).get(k) != v for k, v in (own.get("Parameters") or {}).items()):
        return True
    if _descriptorless(own):
        return bool(live.get("StorageDescriptor"))
    live_sd = live.get("StorageDescriptor") or {}
    for key, value in (own.get("StorageDescriptor") or {}).items():
        if key == "Parameters":
            if any((live_sd.get("Parameters") or {}).get(k) != v for k, v in value.items()):
                return True
        elif _normal(key, live_sd.get(key)) != _normal(key, value):
            return True
    return False


def _descriptorless(own: Mapping[str, Any]) -> bool:
    return "StorageDescriptor" in own and own["StorageDescriptor"] is None


def own_from_glue(partition: Mapping[str, Any], template: Mapping[str, Any], ignore: Iterable[str] = ()) -> Shape:
    """The entry keys (`parameters`, `storage_parameters`, `extra`) that rebuild a live partition
    from its table's storage descriptor; empty when it holds nothing of its own."""
    return OwnReader(template, ignore)(partition)


class OwnReader:
    """`own_from_glue` for one table's many partitions: the table's side is worked out once, and a
    partition whose descriptor is the table's as Glue holds it, but for the location (most of them),
    is compared whole in one step."""

    def __init__(self, template: Mapping[str, Any], ignore: Iterable[str] = ()) -> None:
        self._template = template
        self._patterns = tuple(ignore)
        self._template_parameters = managed(template.get("Parameters") or {}, self._patterns)
        self._fields = {key: value for key, value in template.items() if key not in SKIPPED}
        self._copied = tuple(key for key in template if key != "Location")
        self._copied_values = tuple(template[key] for key in self._copied)

    def __call__(self, partition: Mapping[str, Any]) -> Shape:
        descriptor = partition.get("StorageDescriptor") or {}
        if not partition.get("Parameters") and self._copies_template(descriptor):
            return {}
        own: Shape = {}
        raw = partition.get("Parameters")
        parameters = managed(raw, self._patterns) if raw else {}
        if parameters:
            own["parameters"] = parameters
        if "StorageDescriptor" not in partition and self._template:  # none of its own
            own["extra"] = {"StorageDescriptor": None}
            return own
        raw = descriptor.get("Parameters")
        mine = managed(raw, self._patterns) if raw else {}
        if mine != self._template_parameters:
            own["storage_parameters"] = mine
        if self._fields_differ(descriptor):
            template = self._template
            differing = {
                key: descriptor[key] if key in descriptor else _unset(template[key])
                for key in sorted((set(descriptor) | set(template)) - set(SKIPPED))
                if descriptor.get(key) != template.get(key)
                and _normal(key, descriptor.get(key)) != _normal(key, template.get(key))
            }
            if differing:
                own["extra"] = {"StorageDescriptor": differing}
        return own

    def _copies_template(self, descriptor: Mapping[str, Any]) -> bool:
        """The table's descriptor fields, no more and no fewer, but for the location: compared in C
        (a million partitions pass here)."""
        if len(descriptor) - ("Location" in descriptor) != len(self._copied):
            return False
        try:
            return tuple(map(descriptor.__getitem__, self._copied)) == self._copied_values
        except KeyError:
            return False

    def _fields_differ(self, descriptor: Mapping[str, Any]) -> bool:
        fields = dict(descriptor)
        for key in SKIPPED:
            fields.pop(key, None)
        return fields != self._fields


def _normal(key: str, value: Any) -> Any:
    """Glue's unset spellings (-1 buckets, False, empty) as None; a SerDe without its empty parameters."""
    if not meaningful(key, value):
        return None
    if key == "SerdeInfo" and isinstance(value, Mapping):
        return {k: v for k, v in value.items() if meaningful(k, v)}
    return value


def _unset(value: Any) -> Any:
    """The value a partition holds for a field it lacks and its table sets."""
    if isinstance(value, bool):
        return False
    if isinstance(value, int):
        return -1
    return type(value)() if isinstance(value, list | dict | str) else None
