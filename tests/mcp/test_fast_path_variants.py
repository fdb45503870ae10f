"""What makes two requests the same for the fast path (pwc_mcp.fast_path.parse): everything the
framework could answer differently on, and nothing else, parsed as that era's SDK parses it."""

from __future__ import annotations

import contextlib
import json
from typing import Any

import pytest

from pwc_mcp import fast_path
from pwc_mcp.edge.admission import PARSED_KEY, Parsed, parsed
from pwc_mcp.edge.jsonrpc import BadMessage
from pwc_mcp.fast_path import IGNORED, Kept, _Call, _Wire

HEADERS = [
    (b"host", b"127.0.0.1:7860"),
    (b"accept", b"application/json, text/event-stream"),
    (b"content-type", b"application/json"),
    (b"mcp-protocol-version", b"2025-11-25"),
]


def scope(headers: list[tuple[bytes, bytes]] = HEADERS, path: str = "/mcp") -> dict[str, Any]:
    return {"type": "http", "method": "POST", "path": path, "query_string": b"", "headers": headers}


def parse(request_scope: dict[str, Any], request: bytes) -> _Call | None:
    """The fast path's reading of `request` as admission hands it on (it reads admission's
    parse, and a body admission refuses never reaches it)."""
    with contextlib.suppress(BadMessage):
        request_scope["state"] = {PARSED_KEY: Parsed.read(request)}
    return fast_path.parse(request_scope, parsed(request_scope))


def body(rpc_id: Any = 1, arguments: Any = None, **extra: Any) -> bytes:
    params = {"name": "search_papers", "arguments": arguments or {"query": "gan"}}
    return json.dumps(
        {"jsonrpc": "2.0", "id": rpc_id, "method": "tools/call", "params": params, **extra}
    ).encode()


def variant(request: bytes, headers: list[tuple[bytes, bytes]] = HEADERS) -> Any:
    call = parse(scope(headers), request)
    assert call is not None
    return call.variant


def test_the_id_is_not_part_of_the_variant_but_its_type_is() -> None:
    assert variant(body(1)) == variant(body(2**40))
    assert variant(body("a")) == variant(body("b"))
    assert variant(body(1)) != variant(body("1"))


def test_arguments_name_and_the_rest_of_the_message_are() -> None:
    base = variant(body())
    assert variant(body(arguments={"query": "gan", "limit": 5})) != base
    # the same arguments in another order: another variant (the framework may see the order)
    pair = {"query": "gan", "mode": "keyword"}
    assert variant(body(arguments=pair)) != variant(body(arguments=dict(reversed(pair.items()))))
    assert variant(body(arguments={"query": 1})) != variant(body(arguments={"query": 1.0}))
    assert variant(body(arguments={"query": True})) != variant(body(arguments={"query": 1}))
    meta = {"progressToken": "t"}
    assert variant(body(), HEADERS) != variant(body(**{"extra": 1}))
    with_meta = json.loads(body())
    with_meta["params"]["_meta"] = meta
    assert variant(json.dumps(with_meta).encode()) != base
    # spelling of the same JSON does not matter: it is parsed first
    assert variant(json.dumps(json.loads(body()), indent=2).encode()) == base


def test_only_headers_no_inner_layer_reads_are_left_out() -> None:
    base = variant(body())
    for name in IGNORED:
        assert variant(body(), [*HEADERS, (name, b"anything")]) == base, name
    for name in (b"origin", b"mcp-session-id", b"authorization", b"x-anything", b"mcp-name"):
        assert variant(body(), [*HEADERS, (name, b"x")]) != base, name
    accept_json = [(k, b"application/json" if k == b"accept" else v) for k, v in HEADERS]
    assert variant(body(), accept_json) != base
    assert parse(scope(path="/mcp/"), body()).variant != base  # type: ignore[union-attr]


def test_each_era_parses_and_serializes_the_id_as_its_sdk_does() -> None:
    legacy = parse(scope(), body("é"))
    modern_headers = [(k, b"2026-07-28" if k == b"mcp-protocol-version" else v) for k, v in HEADERS]
    modern = parse(scope(modern_headers), body("é"))
    assert legacy is not None and modern is not None
    assert legacy.id_json == '"é"'.encode()  # pydantic-core: UTF-8 as is
    assert modern.id_json == b'"\\u00e9"'  # json.dumps: ASCII escapes
    assert legacy.variant != modern.variant
    unversioned = parse(scope([h for h in HEADERS if h[0] != b"mcp-protocol-version"]), body("é"))
    assert unversioned is not None and unversioned.id_json == legacy.id_json  # 2025-03-26


@pytest.mark.parametrize(
    "request_body",
    [
        body(True),
        body(1.5),
        body(2**53),
        body(None),
        json.dumps({"jsonrpc": "2.0", "method": "tools/call", "params": {"name": "x"}}).encode(),
        body(1, method="tools/list"),
        json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": []}).encode(),
        body(1, arguments=["not", "an", "object"]),
        b"[" + body() + b"]",
        b"{not json tools/call",
        body(1, arguments={"query": "x" * 20_000}),
    ],
    ids=lambda b: b[:40].decode("latin-1"),
)
def test_anything_but_one_plain_tool_call_goes_the_long_way(request_body: bytes) -> None:
    assert parse(scope(), request_body) is None


def wire(size: int) -> tuple[_Wire, int]:
    return _Wire("key", 1, ((b"content-length", b"0"),), b"x" * size), size


def test_kept_answers_are_bounded_in_count_and_bytes_least_recently_used_out() -> None:
    kept = Kept(max_entries=3, max_bytes=100)
    for name in "abc":
        kept.put((name,), *wire(30))  # type: ignore[arg-type]
    assert kept.get(("a",)) is not None  # "b" is now the least recently used
    kept.put(("d",), *wire(30))  # type: ignore[arg-type]
    assert set(kept.entries) == {("a",), ("c",), ("d",)}
    kept.put(("e",), *wire(60))  # type: ignore[arg-type]  # needs two out for its bytes
    assert set(kept.entries) == {("d",), ("e",)} and kept.bytes == 90
    kept.put(("f",), *wire(101))  # type: ignore[arg-type]  # larger than the whole store
    assert ("f",) not in kept.entries and kept.bytes == 90
    kept.put(("d",), *wire(10))  # type: ignore[arg-type]  # replaced, not counted twice
    kept.drop(("e",))
    assert kept.bytes == 10 and len(kept.entries) == 1
