"""Socket-level defences (pwc_mcp.serving.connections through localserver.config), over raw loopback sockets.

The deadlines are injected short (0.2 s); every socket read has a generous timeout that only
turns a hang into a failure, never a timing assertion.
"""

from __future__ import annotations

import asyncio
import os
import selectors
import socket
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import httpx
import pytest

from pwc_mcp.app import create_app
from pwc_mcp.config import Settings
from pwc_mcp.sample import RunningCatalog
from pwc_mcp.serving.connections import REFUSAL, ConnectionLimits
from pwc_mcp.serving.localserver import Running, serve_in_thread
from tests.helpers import wait_until

GUARD = 5.0  # seconds before a read that should have ended counts as a hang
FAST = ConnectionLimits(header_seconds=0.2, keep_alive_seconds=0.2, max_connections=64)


def connect(port: int) -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", port), timeout=GUARD)
    sock.settimeout(GUARD)
    return sock


def request(path: str, port: int) -> bytes:
    return f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode()


def read_until_closed(sock: socket.socket) -> bytes:
    """Everything the server sends until it closes; a hang raises socket.timeout."""
    received = b""
    while chunk := sock.recv(65536):
        received += chunk
    return received


def read_response(sock: socket.socket) -> tuple[int, dict[str, str], bytes]:
    """One HTTP/1.1 response with a Content-Length (the connection may stay open)."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        assert chunk, f"closed before a response: {data!r}"
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    status_line, *lines = head.decode("latin-1").split("\r\n")
    headers = {k.strip().lower(): v.strip() for k, v in (line.split(":", 1) for line in lines)}
    while len(body) < int(headers.get("content-length", "0")):
        chunk = sock.recv(65536)
        assert chunk, "closed mid-body"
        body += chunk
    return int(status_line.split()[1]), headers, body


def health(port: int) -> int:
    with httpx.Client(timeout=GUARD) as client:
        return client.get(f"http://127.0.0.1:{port}/health").status_code


@pytest.fixture(scope="module")
def settings(sample: RunningCatalog) -> Settings:
    return Settings(api_url=sample.url)


@pytest.fixture(scope="module")
def fast(settings: Settings) -> Iterator[Running]:
    with serve_in_thread(create_app(settings), name="pwc-mcp", limits=FAST) as running:
        yield running


# -- deadlines -------------------------------------------------------------------------------


def test_a_half_sent_header_block_is_closed(fast: Running) -> None:
    with connect(fast.port) as sock:
        sock.sendall(f"GET /health HTTP/1.1\r\nHost: 127.0.0.1:{fast.port}\r\nAccept:".encode())
        assert read_until_closed(sock) == b"", "closed without an answer"


def test_a_silent_socket_is_closed(fast: Running) -> None:
    with connect(fast.port) as sock:
        assert read_until_closed(sock) == b""


def test_an_idle_keep_alive_socket_is_closed(fast: Running) -> None:
    with connect(fast.port) as sock:
        sock.sendall(request("/health", fast.port))
        status, headers, _ = read_response(sock)
        assert status == 200 and headers.get("connection") != "close"
        sock.settimeout(3.0)  # the configured 0.2 s, not uvicorn's default 5 s
        assert read_until_closed(sock) == b""


def test_half_headers_after_a_keep_alive_response_are_closed(fast: Running) -> None:
    """uvicorn's keep-alive timer stops at the first byte; the header deadline does not."""
    with connect(fast.port) as sock:
        sock.sendall(request("/health", fast.port))
        assert read_response(sock)[0] == 200
        sock.sendall(b"GET /health HTTP/1.1\r\n")
        assert read_until_closed(sock) == b""


def test_a_slow_response_is_not_cut_by_the_header_deadline(settings: Settings) -> None:
    """The deadline covers headers only: a request in flight longer than it still completes.

    A half-header socket opened after the held request's headers arrived is closed by its own,
    later deadline; by then the held request's deadline would have fired too (same loop)."""
    hold = Hold(create_app(settings))
    with serve_in_thread(hold, limits=FAST) as running, connect(running.port) as held:
        held.sendall(request("/hold", running.port))
        wait_until(lambda: hold.holding == 1)
        with connect(running.port) as later:
            later.sendall(b"GET /health HTTP/1.1\r\n")
            assert read_until_closed(later) == b""
        hold.release()
        assert read_response(held)[0] == 200


# -- the connection cap ----------------------------------------------------------------------


class Hold:
    """Outermost ASGI layer: GET /hold stays in flight until released (a busy connection)."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self.holding = 0
        self.loop: asyncio.AbstractEventLoop | None = None
        self.gate: asyncio.Event | None = None

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http" or scope["path"] != "/hold":
            await self.app(scope, receive, send)
            return
        if self.gate is None:
            self.loop, self.gate = asyncio.get_running_loop(), asyncio.Event()
        self.holding += 1
        await self.gate.wait()
        body = b"released"
        headers = [(b"content-length", str(len(body)).encode())]
        await send({"type": "http.response.start", "status": 200, "headers": headers})
        await send({"type": "http.response.body", "body": body})

    def release(self) -> None:
        assert self.loop is not None and self.gate is not None
        self.loop.call_soon_threadsafe(self.gate.set)


CAPPED = ConnectionLimits(header_seconds=60, keep_alive_seconds=60, max_connections=3)


def test_past_the_cap_the_oldest_idle_socket_is_reclaimed(settings: Settings) -> None:
    with serve_in_thread(create_app(settings), limits=CAPPED) as running:
        idle = [connect(running.port) for _ in range(CAPPED.max_connections)]
        wait_until(lambda: len(running.server.server_state.connections) == len(idle))
        assert health(running.port) == 200, "a new client is served"
        assert read_until_closed(idle[0]) == b"", "the oldest idle socket made room"
        idle[1].sendall(request("/health", running.port))
        assert read_response(idle[1])[0] == 200, "the others were left alone"
        for sock in idle:
            sock.close()


def test_past_the_cap_with_every_socket_busy_a_new_one_gets_503(settings: Settings) -> None:
    hold = Hold(create_app(settings))
    with serve_in_thread(hold, limits=CAPPED) as running:
        busy = [connect(running.port) for _ in range(CAPPED.max_connections)]
        for sock in busy:
            sock.sendall(request("/hold", running.port))
        wait_until(lambda: hold.holding == len(busy))
        with connect(running.port) as refused:
            refused.sendall(request("/health", running.port))
            answer = read_until_closed(refused)
        assert answer == REFUSAL
        assert answer.startswith(b"HTTP/1.1 503 ") and b"retry-after: 1\r\n" in answer
        hold.release()
        for sock in busy:
            assert read_response(sock)[0] == 200, "requests in flight were never cut"
        assert health(running.port) == 200, "once slots free, /health answers again"
        for sock in busy:
            sock.close()


def test_refused_sockets_waiting_to_close_are_bounded(settings: Settings) -> None:
    """A refusal lingers (so the client reads its 503, not a reset) only up to a bound; past it
    refusals are closed at once, so a flood cannot park descriptors there either."""
    limits = ConnectionLimits(header_seconds=60, max_connections=1, linger_seconds=60)
    hold = Hold(create_app(settings))
    with serve_in_thread(hold, limits=limits) as running, connect(running.port) as busy:
        busy.sendall(request("/hold", running.port))
        wait_until(lambda: hold.holding == 1)
        lingering = [connect(running.port) for _ in range(limits.max_lingering)]
        for sock in lingering:  # each got the 503 and a half-close; none hangs up yet
            assert read_until_closed(sock) == REFUSAL
        with connect(running.port) as extra:
            assert read_until_closed(extra) == REFUSAL
            # the extra refusal is closed by the server at once; the bounded ones still linger
            wait_until(lambda: len(running.server.server_state.connections) == 1 + len(lingering))
        for sock in lingering:
            sock.close()
        hold.release()
        assert read_response(busy)[0] == 200


def test_the_defaults_sit_well_below_the_descriptor_limit() -> None:
    resource = pytest.importorskip("resource")
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    limits = ConnectionLimits()
    worst = limits.max_connections + 2 * limits.backlog + limits.max_lingering
    assert limits.max_connections >= 16 and worst <= soft * 0.85


NOFILE = 256
FLOOD_SERVER = f"""
import resource, sys
soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
resource.setrlimit(resource.RLIMIT_NOFILE, ({NOFILE}, hard))
from pwc_mcp.app import create_app
from pwc_mcp.config import Settings
from pwc_mcp.serving.localserver import serve_in_thread
from pwc_mcp.sample import start_sample_catalog
with start_sample_catalog() as catalog:
    with serve_in_thread(create_app(Settings(api_url=catalog.url)), name="pwc-mcp") as running:
        print(running.port, flush=True)
        sys.stdin.read()
"""


@contextmanager
def flood_server() -> Iterator[int]:
    """pwc-mcp with its default limits in a process allowed only NOFILE descriptors."""
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    process = subprocess.Popen(
        [sys.executable, "-c", FLOOD_SERVER],
        cwd=root,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        env={**os.environ, "PYTHONPATH": root},
    )
    try:
        assert process.stdout is not None
        yield int(process.stdout.readline())
    finally:
        assert process.stdin is not None
        process.stdin.close()
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def open_all(port: int, count: int) -> list[socket.socket]:
    """``count`` connections opened at once (non-blocking), as a flood arrives."""
    socks, pending = [], selectors.DefaultSelector()
    try:
        for _ in range(count):
            sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            sock.setblocking(False)
            sock.connect_ex(("127.0.0.1", port))
            socks.append(sock)
            pending.register(sock, selectors.EVENT_WRITE)

        def connected() -> bool:  # select() waits for the connections: no pause between rounds
            for key, _ in pending.select(timeout=1.0):
                pending.unregister(key.fileobj)
            return not pending.get_map()

        wait_until(connected, timeout=30, interval=0)
    finally:
        pending.close()
    return socks


def test_a_flood_of_idle_sockets_does_not_exhaust_descriptors() -> None:
    """The attack from the issue: more idle sockets than the server has descriptors. Without a
    cap the server hits EMFILE and /health is never accepted; with it, idle sockets are
    reclaimed and /health answers."""
    with flood_server() as port:
        flood = open_all(port, 2 * NOFILE)
        try:
            assert health(port) == 200
        finally:
            for sock in flood:
                sock.close()
