"""Request and response size bounds, malformed JSON-RPC, and methods other than POST."""

from __future__ import annotations

import json

import anyio
import httpx
import pytest

from pwc_mcp.config import MiB
from pwc_mcp.edge.guards import ResponseBound
from pwc_mcp.edge.jsonrpc import parse_message
from tests.helpers.safety import call, rpc

LIMIT = 2 * MiB


TASK = "Image Classification"


def _padded(size: int) -> bytes:
    """A valid tools/call body of exactly ``size`` bytes (JSON allows trailing whitespace)."""
    body = json.dumps(call("get_task", task=TASK)).encode()
    return body + b" " * (size - len(body))


def test_body_at_the_limit_is_accepted(serve):
    srv = serve()
    body = _padded(LIMIT)
    assert len(body) == LIMIT
    r = srv.post(content=body)
    assert r.status_code == 200
    result = r.json()["result"]
    assert not result["isError"] and TASK in result["content"][0]["text"]  # parsed whole


def test_body_over_the_limit_with_content_length_is_413(serve):
    srv = serve()
    r = srv.post(content=_padded(LIMIT + 1))
    assert r.status_code == 413
    assert r.json()["error"]["message"] == f"request too large: the limit is {LIMIT} bytes"


def test_chunked_body_over_the_limit_is_413(serve):
    srv = serve()
    body = _padded(LIMIT + 1)

    def chunks():
        for i in range(0, len(body), 64 * 1024):
            yield body[i : i + 64 * 1024]

    r = srv.post(content=chunks())
    assert r.request.headers.get("transfer-encoding") == "chunked"
    assert "content-length" not in r.request.headers
    assert r.status_code == 413


def test_a_lower_configured_limit_applies(serve):
    srv = serve(max_request_bytes=1000)
    assert srv.post(content=_padded(1000)).status_code == 200
    assert srv.post(content=_padded(1001)).status_code == 413


def nested(depth: int) -> object:
    """``depth`` lists, one inside the other, around a 1: deeper than the JSON-RPC layer allows."""
    value: object = 1
    for _ in range(depth):
        value = [value]
    return value


MALFORMED = [
    (b"{not json", 400, -32700),
    (b"", 400, -32700),
    (b"\xff\xfe{}", 400, -32700),
    (b'{"jsonrpc":"2.0","id":1,"method":"ping","x":NaN}', 400, -32700),
    (b"[" * 5000 + b"]" * 5000, 400, -32600),
    (
        json.dumps(
            {"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {"a": nested(66)}}
        ).encode(),
        400,
        -32600,
    ),
    (json.dumps([rpc("ping"), rpc("ping")]).encode(), 400, -32600),
    (b"[]", 400, -32600),
    (b'"just a string"', 400, -32600),
    (b"42", 400, -32600),
    (json.dumps({"jsonrpc": "1.0", "id": 1, "method": "ping"}).encode(), 400, -32600),
    (json.dumps({"id": 1, "method": "ping"}).encode(), 400, -32600),
    (json.dumps({"jsonrpc": "2.0", "id": 1}).encode(), 400, -32600),
    (json.dumps({"jsonrpc": "2.0", "id": 1, "method": ["tools/call"]}).encode(), 400, -32600),
    (json.dumps({"jsonrpc": "2.0", "id": 1, "method": ""}).encode(), 400, -32600),
    (json.dumps({"jsonrpc": "2.0", "id": {"a": 1}, "method": "ping"}).encode(), 400, -32600),
    (json.dumps({"jsonrpc": "2.0", "id": True, "method": "ping"}).encode(), 400, -32600),
    (json.dumps({"jsonrpc": "2.0", "id": None, "method": "ping"}).encode(), 400, -32600),
    (
        json.dumps(
            {"jsonrpc": "2.0", "method": "tools/call", "params": {"name": "get_task"}}
        ).encode(),
        400,
        -32600,
    ),
    (
        json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": []}).encode(),
        400,
        -32602,
    ),
    (
        json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": "x"}).encode(),
        400,
        -32602,
    ),
    (
        json.dumps(rpc("tools/call", {"name": ["search_papers"], "arguments": {}})).encode(),
        400,
        -32602,
    ),
    (json.dumps(rpc("tools/call", {"arguments": {}})).encode(), 400, -32602),
    (
        json.dumps(rpc("tools/call", {"name": "search_papers", "arguments": ["q"]})).encode(),
        400,
        -32602,
    ),
    (
        json.dumps(
            rpc(
                "tools/call",
                {"name": "search_papers", "arguments": {"query": "q", "mode": ["keyword"]}},
            )
        ).encode(),
        400,
        -32602,
    ),
    (
        json.dumps(
            rpc(
                "tools/call",
                {"name": "search_papers", "arguments": {"query": "q", "mode": {"a": 1}}},
            )
        ).encode(),
        400,
        -32602,
    ),
    (json.dumps(rpc("prompts/get", {"name": 7})).encode(), 400, -32602),
    (json.dumps(rpc("resources/read", {"uri": ["a"]})).encode(), 400, -32602),
    (json.dumps(rpc("tools/list", {"_meta": "x"})).encode(), 400, -32602),
]


@pytest.mark.parametrize(("body", "status", "code"), MALFORMED)
def test_malformed_json_rpc_is_a_short_json_rpc_error(serve_shared, body, status, code):
    r = serve_shared.post(content=body)
    assert r.status_code == status
    payload = r.json()
    assert payload["jsonrpc"] == "2.0" and payload["error"]["code"] == code
    message = payload["error"]["message"]
    assert len(message) < 100 and "pydantic" not in message and "Traceback" not in message


SDK_MALFORMED = [
    # shapes this layer leaves to the SDK: they must still be 4xx or a JSON-RPC error, never 500
    rpc("tools/call", {"name": "get_task", "arguments": {"task": ["x"]}}),
    rpc("tools/call", {"name": "get_task", "arguments": {}}),
    rpc("tools/call", {"name": "nope", "arguments": {}}),
    rpc(
        "tools/call",
        {"name": "search_papers", "arguments": {"query": 5, "mode": "bogus", "extra": 1}},
    ),
    rpc("tools/call", {"name": "search_papers", "arguments": {"query": "q", "mode": None}}),
    rpc("tools/call"),
    rpc(
        "tools/call",
        {"name": "get_task", "arguments": {"task": "x"}, "_meta": {"progressToken": [1]}},
    ),
    rpc("initialize", {"protocolVersion": 5}),
    rpc("initialize"),
    rpc("resources/read", {"uri": "nope://x"}),
    rpc("prompts/get", {"name": "nope"}),
    rpc("made/up"),
    {"jsonrpc": "2.0", "id": "s", "method": "tools/list", "params": None},
    {"jsonrpc": "2.0", "method": "notifications/made-up"},
    {"jsonrpc": "2.0", "id": 1, "result": {}},
    {"jsonrpc": "2.0", "id": 1.5, "method": "ping"},
]


@pytest.mark.parametrize("body", SDK_MALFORMED)
def test_malformed_requests_never_500(serve_shared, body):
    r = serve_shared.post(body)
    assert r.status_code < 500
    if r.status_code >= 400 and r.content:
        assert "error" in r.json()
        assert "Traceback" not in r.text


def test_malformed_with_other_protocol_headers_never_500(serve_shared):
    modern = {"MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/list"}
    for headers in (modern, {"MCP-Protocol-Version": "1999-01-01"}, {"Content-Type": "text/plain"}):
        r = serve_shared.post(rpc("tools/list", {}), headers=headers)
        assert 200 <= r.status_code < 500


def test_oversized_response_is_refused_whole(serve):
    small = 16_384  # tools/list answers ~48 KB; a ping a few bytes
    srv = serve(max_response_bytes=small)
    body = rpc("tools/list", {})
    r = srv.post(body)
    assert r.status_code == 500
    assert r.json() == {
        "jsonrpc": "2.0",
        "id": body["id"],
        "error": {
            "code": -32603,
            "message": f"response too large: the limit is {small} bytes; ask for less",
        },
    }
    assert srv.post(rpc("ping")).status_code == 200


def test_response_bound_unit_app_error_and_no_response():
    sent: list[dict] = []

    async def run(app) -> None:
        sent.clear()
        scope = {"type": "http", "method": "POST", "path": "/mcp", "headers": [], "state": {}}

        async def receive():
            return {"type": "http.disconnect"}

        async def send(message):
            sent.append(message)

        await ResponseBound(app, max_response_bytes=10, mcp_path="/mcp")(scope, receive, send)

    async def raises(scope, receive, send):
        await send({"type": "http.response.start", "status": 200, "headers": []})
        raise RuntimeError("secret")

    async def streams(scope, receive, send):
        await send({"type": "http.response.start", "status": 200, "headers": []})
        for _ in range(5):
            await send({"type": "http.response.body", "body": b"12345", "more_body": True})
        await send({"type": "http.response.body", "body": b""})

    anyio.run(run, raises)
    assert sent[0]["status"] == 500 and b"secret" not in sent[1]["body"]
    anyio.run(run, streams)
    assert sent[0]["status"] == 500 and b"response too large" in sent[1]["body"]
    assert len(sent) == 2  # nothing of the oversized body went out


@pytest.mark.parametrize("method", ["GET", "DELETE", "PUT", "PATCH"])
def test_only_post_on_mcp(serve_shared, method):
    r = serve_shared.http.request(
        method, "/mcp", headers={"Accept": "application/json, text/event-stream"}
    )
    assert r.status_code == 405
    assert r.headers["allow"] == "POST"
    assert r.json()["error"]["code"] == -32600
    assert serve_shared.http.request(method, "/mcp/").status_code == 405


def test_parse_message_labels():
    message, method, tool = parse_message(json.dumps(call("search_papers", query="q")).encode())
    assert (
        method == "tools/call"
        and tool == "search_papers"
        and message["params"]["arguments"] == {"query": "q"}
    )
    assert parse_message(b'{"jsonrpc":"2.0","method":"notifications/initialized"}')[1:] == (
        "notifications/initialized",
        None,
    )


def test_httpx_raw_post_without_protocol_headers_still_works(serve_shared):
    r = httpx.post(
        f"{serve_shared.url}/mcp",
        json=rpc("tools/list", {}),
        headers={"Accept": "application/json, text/event-stream"},
    )
    assert r.status_code == 200


def test_default_settings_bound_both_directions_at_2_mib(serve, upstream):
    srv = serve()  # Settings() as shipped
    r = srv.post(content=_padded(LIMIT + 1))
    assert r.status_code == 413 and str(LIMIT) in r.json()["error"]["message"]
    upstream.faults.oversize(path_prefix="conferences")  # an upstream answer of 2 MiB + 1 byte
    result = srv.tool("list_conferences").json()["result"]
    assert result["isError"] and "exceeded the client byte limit" in result["content"][0]["text"]
