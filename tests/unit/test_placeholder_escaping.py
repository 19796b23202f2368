"""The escaping rule, generated: any text, wrapped in any encoding gluecat reads (an Athena view's
base64 payload, JSON, %-escapes, payloads inside payloads and beside plain text), goes through a saved
plan's masking and comes back from `restore_data` exactly, and never takes a value from the
environment, whatever placeholders were planted in it; registered secrets never survive masking."""

from __future__ import annotations

import base64
import json
import urllib.parse
from collections.abc import Callable, Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gluecat.convert import locations  # noqa: F401  (registers the partition-path spelling)
from gluecat.secrets import redact
from gluecat.secrets import values as secret_values

ENV = {"ANY_VAR": "LEAKED-ENV-VALUE", "AWS_SECRET_ACCESS_KEY": "LEAKED-AWS-KEY", "X": "LEAKED-X"}
OPENINGS = ["(sensitive:", "(sensitive::", "(sensitive:::", "(sensitive:@live)", "(sensitive:"]
PLANTS = [f"(sensitive:{name})" for name in ENV] + [
    "(sensitive:ANY_VAR@path)",
    "(sensitive:X@json)",
    "(sensitive::ANY_VAR)",
    *OPENINGS,
]


@pytest.fixture(autouse=True)
def _empty_registry() -> Iterator[None]:
    redact.forget_all()
    yield
    redact.forget_all()


def _payload(body: str) -> str:
    return "/* Presto View: " + base64.b64encode(body.encode("utf-8")).decode("ascii") + " */"


Wrap = Callable[[str], str]
WRAPS: list[Wrap] = [
    lambda t: t,
    lambda t: _payload(json.dumps({"originalSql": t, "catalog": "awsdatacatalog"}, separators=(",", ":"))),
    lambda t: _payload(json.dumps({"originalSql": t}, indent=2, sort_keys=True)),  # Terraform-like spacing
    lambda t: _payload(json.dumps({"originalSql": t}, ensure_ascii=True)),
    lambda t: _payload(t),  # not JSON at all
    lambda t: json.dumps({"v": t}),
    lambda t: json.dumps({"v": t}, ensure_ascii=False),
    lambda t: urllib.parse.quote(t, safe=""),
    lambda t: f"{t} /* Presto View: e30= */",  # the reported shape: a plant beside a payload
    lambda t: f"/* Presto View: e30= */ {t}",
    lambda t: _payload(json.dumps({"originalSql": _payload(json.dumps({"originalSql": t}))})),  # nested
    lambda t: t + " " + _payload(json.dumps({"originalSql": t})) + " " + t,
]

texts = st.lists(
    st.one_of(st.sampled_from(PLANTS), st.text(max_size=12), st.sampled_from([" ", ":", ")", "@", "/*", "*/"])),
    max_size=6,
).map("".join)
wrapped = st.recursive(
    st.tuples(texts, st.sampled_from(range(len(WRAPS)))).map(lambda pair: WRAPS[pair[1]](pair[0])),
    lambda inner: st.tuples(inner, st.sampled_from(range(len(WRAPS)))).map(lambda pair: WRAPS[pair[1]](pair[0])),
    max_leaves=3,
)


def _saved_and_applied(document: object, environ: dict[str, str]) -> object:
    """What apply of a saved plan gets back: masked, written as JSON, read, restored."""
    saved = json.loads(json.dumps(secret_values.mask_data(document)))
    return secret_values.restore_data(saved, environ)


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=wrapped)
def test_any_live_text_in_any_encoding_round_trips_and_never_expands(text: str) -> None:
    document = {"Parameters": {"note": text}, "Columns": [{"Comment": text}], "values": [text]}
    assert _saved_and_applied(document, ENV) == document
    assert secret_values.placeholders(json.dumps(secret_values.mask_data(document))) == set()


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    text=wrapped,
    secret=st.text(min_size=secret_values.MIN_INSIDE_TEXT, max_size=16).filter(lambda s: s.strip() == s),
)
def test_a_registered_secret_is_masked_in_every_layer_and_plants_still_do_not_expand(text: str, secret: str) -> None:
    redact.forget_all()
    secret_values.register("REAL_SECRET", secret)
    document = {"note": text + secret, "view": _payload(json.dumps({"originalSql": f"{text} {secret}"}))}
    masked = secret_values.mask_data(document)
    assert secret not in masked["note"]
    assert not any(secret in text for text in _strings(_decoded(masked["view"])))
    restored = secret_values.restore_data(json.loads(json.dumps(masked)), {**ENV, "REAL_SECRET": secret})
    if json.dumps(secret) == json.dumps(secret, ensure_ascii=False):
        assert restored["note"] == document["note"]  # the secret reads the same in every JSON: byte for byte
    else:  # spelled `\\uXXXX` in a payload's JSON, the secret is masked in the decoded text and the JSON rewritten
        assert _meaning(restored["note"]) == _meaning(document["note"])
    assert _decoded(restored["view"]) == _decoded(document["view"])
    assert not any(leaked in json.dumps(restored) for leaked in ENV.values())


def _strings(data: object) -> list[str]:
    if isinstance(data, str):
        return [data]
    if isinstance(data, dict):
        return [text for item in data.values() for text in _strings(item)]
    if isinstance(data, list):
        return [text for item in data for text in _strings(item)]
    return []


def _meaning(text: str) -> object:
    """`text` with each view payload read as the JSON it holds, payloads inside it too."""
    if "/* Presto View: " not in text:
        return text
    before, rest = text.split("/* Presto View: ", 1)
    body, after = rest.split(" */", 1) if " */" in rest else (rest, "")
    try:
        data = json.loads(base64.b64decode(body, validate=True).decode("utf-8"))
    except ValueError:
        return [before, body, _meaning(after)]
    return [before, _map(data, _meaning), _meaning(after)]


def _map(data: object, change: Callable[[str], object]) -> object:
    if isinstance(data, str):
        return change(data)
    if isinstance(data, dict):
        return {key: _map(item, change) for key, item in data.items()}
    if isinstance(data, list):
        return [_map(item, change) for item in data]
    return data


def _decoded(view: str) -> object:
    body = view.split("Presto View: ", 1)[1].split(" */", 1)[0]
    return json.loads(base64.b64decode(body).decode("utf-8"))


def test_the_reported_plant_beside_a_payload_is_escaped() -> None:
    planted = "(sensitive:ANY_VAR) /* Presto View: e30= */"
    saved = secret_values.mask_data({"note": planted})
    assert saved == {"note": "(sensitive::ANY_VAR) /* Presto View: e30= */"}
    assert secret_values.restore_data(saved, ENV) == {"note": planted}


def test_a_secret_beside_a_payload_is_masked_outside_it_too() -> None:
    secret_values.register("TOKEN", "Tiger-Lily-77")
    saved = secret_values.mask_data({"note": "token=Tiger-Lily-77 /* Presto View: e30= */"})
    assert saved == {"note": "token=(sensitive:TOKEN) /* Presto View: e30= */"}
    assert secret_values.restore_data(saved, {"TOKEN": "Tiger-Lily-77"}) == {
        "note": "token=Tiger-Lily-77 /* Presto View: e30= */"
    }


def test_a_value_put_back_is_never_read_again() -> None:
    secret_values.register("A", "value-of-a")
    saved = secret_values.mask_data({"note": "value-of-a"})
    assert secret_values.restore_data(saved, {"A": "(sensitive:X)(sensitive::Y)"}) == {
        "note": "(sensitive:X)(sensitive::Y)"
    }


def test_a_secret_with_quotes_inside_a_payload_is_restored_as_json() -> None:
    secret = 'pa"ss\\word-99'
    secret_values.register("PW", secret)
    view = _payload(json.dumps({"originalSql": f"SELECT '{secret}'"}, separators=(",", ":"), ensure_ascii=False))
    saved = secret_values.mask_data({"view": view})
    assert secret not in json.dumps(saved) and "PW" in secret_values.placeholders(json.dumps(saved))
    assert secret_values.restore_data(saved, {"PW": secret}) == {"view": view}
