"""A small FastMCP 4 server wrapped by ``protect``: the stand-in the safety tests exercise.

Run as ``python -m tests.safety.standin PORT`` (settings from PWC_MCP_* variables) for the
multi-process Redis test; the other tests build it in-process with ``build``.
"""

from __future__ import annotations

import contextlib
import sys
import threading
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

from fastmcp import FastMCP
from fastmcp.server.dependencies import get_http_request
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.types import ASGIApp

from pwc_mcp.config import Settings
from pwc_mcp.guards import protect
from pwc_mcp.limits import RateLimiter, SemanticSearchLimit, configure_thread_pool
from pwc_mcp.server import ToolCalls


@dataclass
class Gate:
    """Holds ``hold`` tool calls until the test opens it (no sleeping)."""

    entered: threading.Semaphore = field(default_factory=lambda: threading.Semaphore(0))
    opened: threading.Event = field(default_factory=threading.Event)

    def wait_entered(self, count: int, timeout: float = 10.0) -> None:
        for _ in range(count):
            if not self.entered.acquire(timeout=timeout):
                raise TimeoutError("held tool calls did not start")


@dataclass
class StandIn:
    app: ASGIApp
    limiter: RateLimiter
    gate: Gate
    tool_names: frozenset[str]
    # Released once per HTTP request the server hands to the app (its headers have arrived).
    arrived: threading.Semaphore = field(default_factory=lambda: threading.Semaphore(0))

    def wait_arrived(self, count: int, timeout: float = 10.0) -> None:
        for _ in range(count):
            if not self.arrived.acquire(timeout=timeout):
                raise TimeoutError("requests did not reach the app")


def build(settings: Settings, **protect_options: Any) -> StandIn:
    """The stand-in; ``table_size`` goes to the limiter, other options to ``protect``."""
    table_size = protect_options.pop("table_size", 10_000)
    limiter = RateLimiter(settings, table_size=table_size)
    gate = Gate()

    @contextlib.asynccontextmanager
    async def lifespan(server: FastMCP) -> AsyncIterator[dict[str, Any]]:
        configure_thread_pool(settings)
        yield {}

    checks = [SemanticSearchLimit(limiter).check]
    mcp = FastMCP("t", lifespan=lifespan, middleware=[ToolCalls(checks)])

    @mcp.tool
    def search_papers(query: str, mode: str = "hybrid") -> dict[str, Any]:
        return {"count": len(query), "mode": mode}

    @mcp.tool
    def get_task(task: str) -> dict[str, Any]:
        return {"length": len(task)}

    @mcp.tool
    def hold() -> str:
        gate.entered.release()
        gate.opened.wait(timeout=20)
        return "released"

    @mcp.tool
    def big(size: int) -> str:
        return "x" * size

    @mcp.tool
    def boom() -> str:
        raise RuntimeError("secret-internal-detail")

    @mcp.tool
    def whoami() -> str:
        return get_http_request().state.pwc_client.key

    @mcp.custom_route("/health", methods=["GET"])
    async def health(request: Request) -> JSONResponse:
        return JSONResponse({"status": "ok"})

    tool_names = frozenset({"search_papers", "get_task", "hold", "big", "boom", "whoami"})
    http = mcp.http_app(path="/mcp", stateless_http=True, json_response=True)
    protected = protect(http, settings, limiter=limiter, tool_names=tool_names, **protect_options)

    async def app(scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "http":
            standin.arrived.release()
        await protected(scope, receive, send)

    standin = StandIn(app=app, limiter=limiter, gate=gate, tool_names=tool_names)
    return standin


def main(argv: list[str]) -> None:
    import uvicorn

    port = int(argv[1])
    standin = build(Settings.from_env())
    # proxy_headers=False: the app computes client identity itself from the real TCP peer.
    uvicorn.run(
        standin.app,
        host="127.0.0.1",
        port=port,
        proxy_headers=False,
        access_log=False,
        log_level="warning",
    )


if __name__ == "__main__":
    main(sys.argv)
