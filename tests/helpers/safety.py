"""Safety test helpers: JSON-RPC bodies, a fake clock, and the real app over a gated upstream.

The app under test is ``pwc_mcp.app.create_app`` served by ``localserver.serve_in_thread``; its
catalog is the sample catalog behind a ``GatedUpstream``, so a tool call can be held in flight
(``Served.hold``) while the test probes the limits, without sleeping.
"""

from __future__ import annotations

import itertools
import subprocess
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import anyio.to_thread
import httpx
import redis
from starlette.types import ASGIApp, Receive, Scope, Send

from pwc_mcp.app import create_app
from pwc_mcp.config import Settings
from pwc_mcp.edge.admission import BODY_SECONDS
from pwc_mcp.edge.rate_limits import RateLimiter
from pwc_mcp.sample import Faults
from pwc_mcp.sample import create_app as create_sample
from pwc_mcp.serving.localserver import serve_in_thread
from tests.helpers import free_port, wait_until
from tests.helpers.e2e import RPC_HEADERS as HEADERS
from tests.helpers.ops import require_tool

__all__ = ["API", "HEADERS", "FakeTime", "GatedUpstream", "Served", "build_app", "call", "rpc"]
API = "/api/v1"  # the sample catalog's API root
HELD_PATH = API + "/methods"  # get_method's upstream route; probes use get_task (tasks/)
HOLD_SECONDS = 30.0  # a held upstream request gives up after this: a hang, not a result
_ids = itertools.count(1)
_held = itertools.count(1)


def rpc(method: str, params: dict[str, Any] | None = None, **extra: Any) -> dict[str, Any]:
    message: dict[str, Any] = {"jsonrpc": "2.0", "id": next(_ids), "method": method}
    if params is not None:
        message["params"] = params
    message.update(extra)
    return message


def call(tool: str, **arguments: Any) -> dict[str, Any]:
    return rpc("tools/call", {"name": tool, "arguments": arguments})


def via(address: str) -> dict[str, str]:
    """Headers of a request the local proxy forwards for ``address`` (a loopback peer)."""
    return {"X-Forwarded-For": address}


class FakeTime:
    """Stands in for the ``time`` module inside pwc_mcp.edge.windows (and limits' memory storage):
    `advance` moves both clocks, `step_wall` the wall clock alone (NTP, an operator)."""

    def __init__(self, now: float = 1_800_000_000.0) -> None:
        self.now = now
        self.wall_offset = 0.0

    def time(self) -> float:
        return self.now + self.wall_offset

    def monotonic(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds

    def step_wall(self, seconds: float) -> None:
        self.wall_offset += seconds


def _semaphore() -> threading.Semaphore:
    return threading.Semaphore(0)


@dataclass
class Gate:
    """Holds upstream requests to HELD_PATH until the test opens it."""

    entered: threading.Semaphore = field(default_factory=_semaphore)
    opened: threading.Event = field(default_factory=threading.Event)

    def wait_entered(self, count: int, timeout: float = 10.0) -> None:
        for _ in range(count):
            if not self.entered.acquire(timeout=timeout):
                raise TimeoutError("held tool calls did not reach the upstream")


class GatedUpstream:
    """The sample catalog (its own store and faults) with a gate on one upstream route."""

    def __init__(self) -> None:
        self.faults = Faults()
        self.sample = create_sample(faults=self.faults)
        self.gate = Gate()

    def reset(self) -> None:
        self.gate.opened.set()  # nothing of a finished test stays held
        self.gate = Gate()
        self.faults.reset()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        gate = self.gate
        if scope["type"] == "http" and scope["path"].startswith(HELD_PATH):
            gate.entered.release()
            # A worker thread waits, so the upstream's event loop keeps answering the probes.
            await anyio.to_thread.run_sync(gate.opened.wait, HOLD_SECONDS)
        await self.sample(scope, receive, send)


class Arrivals:
    """Outermost layer: released once per HTTP request uvicorn hands to the app."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        self.arrived = _semaphore()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            self.arrived.release()
        await self.app(scope, receive, send)


def build_app(
    settings: Settings, *, table_size: int | None = None, body_seconds: float = BODY_SECONDS
) -> tuple[ASGIApp, RateLimiter]:
    """``create_app(settings)`` with a test-sized identity table and body deadline, and the
    limiter it runs with (the tests watch its counters)."""
    sized = {} if table_size is None else {"table_size": table_size}
    limiter = RateLimiter(settings, **sized)
    return create_app(settings, limiter=limiter, body_seconds=body_seconds), limiter


@dataclass
class Served:
    """A running app: its URL, a client, its real limiter and the upstream behind it."""

    url: str
    http: httpx.Client
    limiter: RateLimiter
    upstream: GatedUpstream
    arrivals: Arrivals

    @property
    def port(self) -> int:
        return int(self.url.rsplit(":", 1)[1])

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

    def hold(self, headers: dict[str, str] | None = None) -> httpx.Response:
        """A tool call that stays in flight until ``upstream.gate`` opens (a fresh name each
        time, so no cache or single-flight answers it)."""
        return self.tool("get_method", headers, method=f"held-{next(_held)}")

    def wait_entered(self, count: int) -> None:
        self.upstream.gate.wait_entered(count)

    def release(self) -> None:
        self.upstream.gate.opened.set()

    def wait_arrived(self, count: int, timeout: float = 10.0) -> None:
        for _ in range(count):
            if not self.arrivals.arrived.acquire(timeout=timeout):
                raise TimeoutError("requests did not reach the app")


@contextmanager
def serving(upstream: GatedUpstream, url: str, **overrides: Any) -> Iterator[Served]:
    """The real app for ``Settings(api_url=url, **overrides)`` on a loopback port.

    ``table_size`` and ``body_seconds`` go to ``build_app``."""
    knobs = {k: overrides.pop(k) for k in ("table_size", "body_seconds") if k in overrides}
    app, limiter = build_app(Settings(api_url=url, **overrides), **knobs)
    arrivals = Arrivals(app)
    with (
        serve_in_thread(arrivals, name="pwc-mcp") as running,
        httpx.Client(base_url=running.origin, timeout=20) as client,
    ):
        yield Served(running.origin, client, limiter, upstream, arrivals)


# -- a real redis-server on loopback ---------------------------------------------------------


@dataclass
class RedisServer:
    """A redis-server this test started (no persistence); `stop` ends it, `start` brings it
    back on the same port, empty."""

    port: int
    binary: str
    process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def client(self) -> redis.Redis:
        return redis.Redis(host="127.0.0.1", port=self.port, socket_timeout=5)

    def start(self) -> None:
        self.process = subprocess.Popen(
            [self.binary, "--port", str(self.port), "--bind", "127.0.0.1"]
            + ["--save", "", "--appendonly", "no"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )

        def answers() -> bool:
            assert self.process is not None and self.process.poll() is None, "redis exited"
            try:
                with self.client() as client:
                    return bool(client.ping())
            except redis.RedisError:
                return False

        wait_until(answers, timeout=10, interval=0.02)

    def stop(self) -> None:
        """Kill it (SIGKILL: as a crash, no goodbye to its clients) and wait for the exit."""
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait(10)


@contextmanager
def redis_server() -> Iterator[RedisServer]:
    """A real redis-server on a free loopback port; skipped without the binary unless CI."""
    binary = require_tool("redis-server", hint="apt-get install redis-server; .ci/run does")
    server = RedisServer(free_port(), binary)
    server.start()
    try:
        yield server
    finally:
        server.stop()
