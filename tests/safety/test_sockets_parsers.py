"""The socket-level defences (pwc_mcp.serving.connections) hold with either HTTP parser uvicorn may run
(pwc_mcp.serving.runtime: httptools where it imports, else h11), over raw loopback sockets.

tests/safety/test_sockets.py covers every defence with the process's own choice; this runs the
ones that touch the parser's internals under both. Deadlines are injected short; reads have a
generous timeout that only turns a hang into a failure.
"""

from __future__ import annotations

from typing import Any

import pytest

from pwc_mcp.app import create_app
from pwc_mcp.config import Settings
from pwc_mcp.sample import RunningCatalog
from pwc_mcp.serving.connections import REFUSAL, ConnectionLimits
from pwc_mcp.serving.localserver import serve_in_thread
from pwc_mcp.serving.runtime import Runtime
from tests.helpers import wait_until
from tests.safety.test_sockets import FAST, Hold, connect, read_response, read_until_closed, request

PARSERS = [Runtime("uvloop", "httptools"), Runtime("asyncio", "h11")]


@pytest.fixture(params=PARSERS, ids=lambda r: f"{r.loop}-{r.http}")
def choice(request: pytest.FixtureRequest) -> Runtime:
    return request.param


@pytest.fixture(scope="module")
def settings(sample: RunningCatalog) -> Settings:
    return Settings(api_url=sample.url)


def test_half_headers_and_idle_keep_alive_sockets_are_closed(settings, choice) -> None:
    with serve_in_thread(create_app(settings), limits=FAST, choice=choice) as running:
        with connect(running.port) as sock:
            sock.sendall(f"GET /health HTTP/1.1\r\nHost: 127.0.0.1:{running.port}\r\nAc".encode())
            assert read_until_closed(sock) == b""
        with connect(running.port) as sock:
            sock.sendall(request("/health", running.port))
            assert read_response(sock)[0] == 200
            assert read_until_closed(sock) == b"", "the 0.2 s keep-alive deadline"
        with connect(running.port) as sock:
            sock.sendall(request("/health", running.port))
            assert read_response(sock)[0] == 200
            sock.sendall(b"GET /health HTTP/1.1\r\n")
            assert read_until_closed(sock) == b"", "the header deadline after a response"


def test_a_pipelined_request_in_flight_is_not_cut_by_the_header_deadline(settings, choice) -> None:
    """httptools parses a pipelined request's headers while the one before it is answered:
    once that answer is out, the next request is already in flight, not awaiting headers.

    The second request is held until a half-header socket opened after it was closed by its
    own, later deadline: the second request's deadline, had it been armed, fired first."""
    hold = Hold(create_app(settings))
    with (
        serve_in_thread(hold, limits=FAST, choice=choice) as running,
        connect(running.port) as pipelined,
    ):
        pipelined.sendall(request("/health", running.port) + request("/hold", running.port))
        assert read_response(pipelined)[0] == 200
        wait_until(lambda: hold.holding == 1)
        with connect(running.port) as later:
            later.sendall(b"GET /health HTTP/1.1\r\n")
            assert read_until_closed(later) == b""
        hold.release()
        status, _, body = read_response(pipelined)
        assert (status, body) == (200, b"released")


def test_past_the_cap_a_busy_server_answers_503(settings, choice) -> None:
    limits = ConnectionLimits(header_seconds=60, keep_alive_seconds=60, max_connections=2)
    hold = Hold(create_app(settings))
    with serve_in_thread(hold, limits=limits, choice=choice) as running:
        busy = [connect(running.port) for _ in range(limits.max_connections)]
        for sock in busy:
            sock.sendall(request("/hold", running.port))
        wait_until(lambda: hold.holding == len(busy))
        with connect(running.port) as refused:
            refused.sendall(request("/health", running.port))
            assert read_until_closed(refused) == REFUSAL
        hold.release()
        for sock in busy:
            assert read_response(sock)[0] == 200
            sock.close()


def test_past_the_cap_the_oldest_idle_socket_is_reclaimed(settings, choice) -> None:
    limits = ConnectionLimits(header_seconds=60, keep_alive_seconds=60, max_connections=2)
    with serve_in_thread(create_app(settings), limits=limits, choice=choice) as running:
        idle = [connect(running.port) for _ in range(limits.max_connections)]
        wait_until(lambda: len(running.server.server_state.connections) == len(idle))
        with connect(running.port) as newcomer:
            newcomer.sendall(request("/health", running.port))
            assert read_response(newcomer)[0] == 200
        assert read_until_closed(idle[0]) == b"", "the oldest idle socket made room"
        for sock in idle:
            sock.close()


async def body_length(scope: Any, receive: Any, send: Any) -> None:
    """Answers with the request's total header and body bytes."""
    if scope["type"] != "http":
        return
    size, more = 0, True
    while more:
        message = await receive()
        size += len(message.get("body", b""))
        more = message.get("more_body", False)
    text = f"{sum(len(k) + len(v) for k, v in scope['headers'])} {size}".encode()
    headers = [(b"content-length", str(len(text)).encode())]
    await send({"type": "http.response.start", "status": 200, "headers": headers})
    await send({"type": "http.response.body", "body": text})


def test_a_header_block_past_its_bound_is_refused_on_either_parser(choice) -> None:
    """h11 bounds a header block (16 KiB); httptools took 2 MB whole, so the guard bounds it
    for both. A large body sent with the headers in one write is still read."""
    limits = ConnectionLimits(header_seconds=60, keep_alive_seconds=60)
    pad = b"X-Pad: " + b"a" * 1000 + b"\r\n"
    with serve_in_thread(body_length, lifespan="off", limits=limits, choice=choice) as running:
        with connect(running.port) as sock:
            sock.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n" + pad * 8 + b"\r\n")
            assert read_response(sock)[0] == 200, "8 KiB of headers are fine"
        with connect(running.port) as sock:
            try:  # 64 KiB, unfinished: the server must not wait for (or keep) more of it
                sock.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n" + pad * 64)
                answer = read_until_closed(sock)
            except ConnectionResetError:  # closed while unread bytes were still arriving
                answer = b""
            assert answer.startswith(b"HTTP/1.1 400 ") or answer == b"", answer[:80]
        body = b"b" * 200_000
        with connect(running.port) as sock:
            head = f"POST / HTTP/1.1\r\nHost: x\r\nContent-Length: {len(body)}\r\n\r\n".encode()
            sock.sendall(head + body)
            status, _, text = read_response(sock)
            assert (status, text.split()[1]) == (200, str(len(body)).encode())
