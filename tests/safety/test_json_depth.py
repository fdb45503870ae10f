"""The JSON-RPC layer's nesting bound (pwc_mcp.edge.jsonrpc._too_deep, run on every request) against a
recursive oracle, on random documents around the bound."""

from __future__ import annotations

import random
from typing import Any

import pytest

from pwc_mcp.edge.jsonrpc import MAX_JSON_DEPTH, BadMessage, _too_deep, parse_message


def deepest(value: Any, depth: int = 1) -> int:
    """The depth of the deepest container that holds something (0: none does)."""
    children = list(value.values()) if isinstance(value, dict) else value
    if not isinstance(value, dict | list) or not children:
        return 0
    return max([depth, *(deepest(child, depth + 1) for child in children)])


def document(rng: random.Random, depth: int = 0) -> Any:
    roll = rng.random()
    if depth > 12 or roll < 0.3:
        return rng.choice([1, "x", None, [], {}])
    if roll < 0.65:
        return [document(rng, depth + 1) for _ in range(rng.randint(0, 3))]
    return {str(i): document(rng, depth + 1) for i in range(rng.randint(0, 3))}


@pytest.mark.parametrize("seed", range(5))
def test_the_bound_is_the_deepest_non_empty_container(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(2_000):
        value, limit = document(rng), rng.randint(1, 10)
        assert _too_deep(value, limit) == (deepest(value) >= limit), (value, limit)


def test_at_the_bound_and_one_past_it() -> None:
    def nested(levels: int) -> Any:
        value: Any = 1
        for _ in range(levels):
            value = [value]
        return value

    assert not _too_deep(nested(MAX_JSON_DEPTH - 1))
    assert _too_deep(nested(MAX_JSON_DEPTH))
    assert not _too_deep(nested(MAX_JSON_DEPTH - 1) + [[]])  # an empty container holds nothing


@pytest.mark.parametrize("encoding", ["utf-8", "utf-16-le", "utf-16-be", "utf-32-le"])
def test_a_body_at_the_bound_is_refused_in_every_json_encoding(encoding: str) -> None:
    """parse_message skips the walk when the body has fewer opening brackets than the bound
    (each level needs one): at the bound it still walks, whatever encoding the body is in."""

    def body(levels: int) -> bytes:  # the message object and params are two levels already
        inner = "[" * levels + "1" + "]" * levels
        text = f'{{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{{"x":{inner}}}}}'
        return text.encode(encoding)

    parse_message(body(MAX_JSON_DEPTH - 3))
    with pytest.raises(BadMessage, match="nested too deeply"):
        parse_message(body(MAX_JSON_DEPTH - 2))
