"""Fixtures: a real uvicorn serving the protected stand-in on a free loopback port."""

from __future__ import annotations

import dataclasses
import itertools
import socket
import threading
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import limits.aio.storage.memory as limits_memory
import limits.storage.memory as limits_sync_memory
import pytest
import uvicorn

import pwc_mcp.windows as pwc_windows
from pwc_mcp.config import Settings
from tests.safety.standin import StandIn, build

HEADERS = {
    "Accept": "application/json, text/event-stream",
    "MCP-Protocol-Version": "2025-11-25",
    "Content-Type": "application/json",
}
_ids = itertools.count(1)


def rpc(method: str, params: dict[str, Any] | None = None, **extra: Any) -> dict[str, Any]:
    message: dict[str, Any] = {"jsonrpc": "2.0", "id": next(_ids), "method": method}
    if params is not None:
        message["params"] = params
    message.update(extra)
    return message


def call(tool: str, **arguments: Any) -> dict[str, Any]:
    return rpc("tools/call", {"name": tool, "arguments": arguments})


class FakeTime:
    """Stands in for the ``time`` module inside limits' memory storage and pwc_mcp.windows."""

    def __init__(self, now: float = 1_800_000_000.0) -> None:
        self.now = now

    def time(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> FakeTime:
    fake = FakeTime()
    monkeypatch.setattr(limits_memory, "time", fake)
    monkeypatch.setattr(limits_sync_memory, "time", fake)
    monkeypatch.setattr(pwc_windows, "time", fake)
    return fake


@dataclasses.dataclass
class Served:
    url: str
    http: httpx.Client
    standin: StandIn

    def post(
        self, body: Any = None, *, headers: dict[str, str] | None = None, **kw: Any
    ) -> httpx.Response:
        merged = {**HEADERS, **(headers or {})}
        if body is not None and "content" not in kw:
            kw["json"] = body
        return self.http.post("/mcp", headers=merged, **kw)

    def tool(
        self, tool: str, headers: dict[str, str] | None = None, **arguments: Any
    ) -> httpx.Response:
        return self.post(call(tool, **arguments), headers=headers)


class ServerThread:
    def __init__(self, app: Any) -> None:
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind(("127.0.0.1", 0))
        self.port = self.sock.getsockname()[1]
        config = uvicorn.Config(
            app,
            proxy_headers=False,  # identity is computed by the app from the real peer
            access_log=False,
            log_level="warning",
            lifespan="on",
            timeout_graceful_shutdown=2,
        )
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(
            target=self.server.run, kwargs={"sockets": [self.sock]}, daemon=True
        )

    def __enter__(self) -> ServerThread:
        self.thread.start()
        for _ in range(500):
            if self.server.started:
                return self
            self.thread.join(0.01)
        raise RuntimeError("uvicorn did not start")

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(10)
        self.sock.close()


@pytest.fixture
def serve() -> Iterator[Callable[..., Served]]:
    """serve(**settings) -> a running protected stand-in; stopped after the test.

    ``table_size`` and ``body_seconds`` go to the stand-in's limiter and ``protect``.
    """
    stack: list[tuple[ServerThread, httpx.Client]] = []

    def start(**overrides: Any) -> Served:
        options = {k: overrides.pop(k) for k in ("table_size", "body_seconds") if k in overrides}
        standin = build(Settings(**overrides), **options)
        server = ServerThread(standin.app).__enter__()
        url = f"http://127.0.0.1:{server.port}"
        client = httpx.Client(base_url=url, timeout=20)
        stack.append((server, client))
        return Served(url=url, http=client, standin=standin)

    yield start
    for server, client in reversed(stack):
        client.close()
        server.__exit__(None, None, None)


@pytest.fixture(scope="module")
def serve_shared() -> Iterator[Served]:
    """One generously limited server shared by a module's stateless checks."""
    standin = build(Settings(request_limit=10_000, concurrency_limit=100))
    with ServerThread(standin.app) as server:
        url = f"http://127.0.0.1:{server.port}"
        with httpx.Client(base_url=url, timeout=20) as client:
            yield Served(url=url, http=client, standin=standin)
