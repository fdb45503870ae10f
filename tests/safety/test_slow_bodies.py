"""Stalled uploads hold nothing and are cut off: the body must arrive within a deadline."""

from __future__ import annotations

import json
import socket
from collections.abc import Iterator

import pytest

from tests.helpers.safety import Served

PARTIAL = b'{"jsonrpc":"2.0",'  # 17 of the 1,000 declared bytes


@pytest.fixture
def stalled() -> Iterator[list[socket.socket]]:
    socks: list[socket.socket] = []
    yield socks
    for sock in socks:
        sock.close()


def stall(srv: Served, socks: list[socket.socket], tag: str | None = None) -> socket.socket:
    """A POST /mcp that declares 1,000 bytes, sends 17 and then nothing."""
    port = srv.port
    sock = socket.create_connection(("127.0.0.1", port), timeout=10)
    socks.append(sock)
    lines = [
        "POST /mcp HTTP/1.1",
        f"Host: 127.0.0.1:{port}",
        "Content-Type: application/json",
        "Accept: application/json, text/event-stream",
        "Content-Length: 1000",
        *([f"X-PwC-MCP-Client: {tag}"] if tag else []),
    ]
    sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode() + PARTIAL)
    return sock


def test_stalled_uploads_hold_no_per_identity_lease(serve, stalled):
    srv = serve(concurrency_limit=4)
    for _ in range(4):  # behind one shared identity (e.g. the proxy's own address)
        stall(srv, stalled)
    srv.wait_arrived(4)
    assert srv.tool("get_task", task="x").status_code == 200


def test_stalled_uploads_hold_no_global_lease(serve, stalled):
    srv = serve(global_concurrency_limit=2)
    stall(srv, stalled, "a")
    stall(srv, stalled, "b")
    srv.wait_arrived(2)
    assert srv.tool("get_task", {"X-PwC-MCP-Client": "c"}, task="x").status_code == 200


def test_a_stalled_body_gets_408_with_a_json_rpc_error(serve, stalled):
    srv = serve(body_seconds=0.2)
    sock = stall(srv, stalled)
    answer = b""
    while chunk := sock.recv(65536):  # the server answers, then closes the connection
        answer += chunk
    head, _, body = answer.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 408 ")
    assert b"connection: close" in head.lower()
    assert json.loads(body) == {
        "jsonrpc": "2.0",
        "id": None,
        "error": {"code": -32600, "message": "request timeout: send the whole body within 0.2 s"},
    }
    assert srv.tool("get_task", task="x").status_code == 200
