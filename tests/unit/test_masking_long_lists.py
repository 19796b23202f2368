"""A long list is masked (and restored) in chunks, and a chunk holding nothing masking would
touch is not walked: the result is exactly the full walk's, whatever hides in the chunk."""

from __future__ import annotations

import dataclasses
import enum
from collections import namedtuple
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gluecat.convert import locations, presto_view
from gluecat.secrets import redact, walk
from gluecat.secrets import values as secret_values

SECRETS = st.text(min_size=1, max_size=12).filter(lambda s: s.strip() == s and bool(s))
Pair = namedtuple("Pair", "left right")


class Text(str):
    pass


class Mapping(dict[str, Any]):
    pass


class Kind(enum.StrEnum):
    TABLE = "table"


@dataclasses.dataclass(frozen=True)
class Write:
    values: tuple[str, ...]
    location: str
    own: dict[str, Any] | None = None


@dataclasses.dataclass(frozen=True, slots=True)
class Hidden:
    _held: str  # orjson leaves `_` fields out of what it writes; masking reads them


def _hiding(secret: str) -> st.SearchStrategy[Any]:
    """Every place masking reads a string, each holding the secret or something masking changes."""
    texts = st.sampled_from([
        secret, f"x{secret}y", locations.partition_location("s3://t", ["k"], [secret]),
        presto_view.encode(f"SELECT '{secret}'", "db", [("c", "int")]), "(sensitive:PLANTED)", "plain",
    ])  # fmt: skip
    return st.one_of(
        texts,
        texts.map(lambda t: Pair(t, "a")),
        texts.map(Text),
        texts.map(lambda t: Mapping(k=t)),
        texts.map(lambda t: {"StorageDescriptor": {"Parameters": {"p": t}}}),
        texts.map(lambda t: Write(("v",), "s3://t/v/", {"Parameters": {"p": t}})),
        texts.map(lambda t: Write((t,), "s3://t/v/")),
        texts.map(Hidden),
        st.just(Kind.TABLE),
        texts.map(lambda t: {1: t}),
        texts.map(lambda t: {(1, 2): t}),
    )


def _plain(index: int) -> Write:
    return Write((f"2024-01-{index % 28 + 1:02d}", str(index)), f"s3://t/d={index}/", {"Parameters": {"n": str(index)}})


@pytest.fixture(autouse=True)
def _empty_registry() -> Iterator[None]:
    redact.forget_all()
    yield
    redact.forget_all()


@settings(max_examples=200, deadline=None)
@given(data=st.data(), secret=SECRETS, size=st.integers(1, 60))
def test_chunks_skipped_or_walked_give_exactly_the_full_walk(data: st.DataObject, secret: str, size: int) -> None:
    redact.forget_all()
    secret_values.register("S", secret)
    items: list[Any] = [_plain(i) for i in range(size)]
    for position in data.draw(st.lists(st.integers(0, size - 1), max_size=4)):
        items[position] = data.draw(_hiding(secret))
    document = (items, tuple(items))

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(walk, "CHUNK", 4)  # lists of a few items are judged in chunks
        masked = secret_values.mask_data(document)
        restored = secret_values.restore_data(masked, {"S": secret})
        patch.setattr(walk, "CHUNK", 10**9)  # every list walked item by item
        assert masked == secret_values.mask_data(document)
        assert restored == secret_values.restore_data(masked, {"S": secret})
    assert restored == document


def test_a_long_list_with_nothing_to_mask_is_returned_as_it_is() -> None:
    secret_values.register("S", "hunter22")
    items = tuple(_plain(i) for i in range(5000))
    assert len(items) > walk.CHUNK
    assert secret_values.mask_data(items) is items
