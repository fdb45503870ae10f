"""`make bench` never measures refusals: its servers run with per-minute limits that cannot trip,
and any answer other than a successful tool call stops the run with one line."""

from __future__ import annotations

import asyncio

import pytest
from limits import RateLimitItemPerMinute
from limits.storage import storage_from_string
from limits.strategies import MovingWindowRateLimiter
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from bench import load, servers
from pwc_mcp.config import ConfigError, Settings
from pwc_mcp.localserver import serve_in_thread

# A 2-core machine completes more than this many cached calls in one minute (issue #17).
OLD_CEILING = 10_000


def test_bench_limits_are_accepted_and_cannot_trip() -> None:
    settings = Settings.from_env(servers.pwc_env("http://127.0.0.1:1/api/v1"))
    window = MovingWindowRateLimiter(storage_from_string("memory://"))
    for limit in (settings.request_limit, settings.semantic_limit):
        item = RateLimitItemPerMinute(limit)
        admitted = sum(window.hit(item, "pwc-mcp", "bench", str(limit)) for _ in range(OLD_CEILING))
        assert admitted == OLD_CEILING and window.hit(item, "pwc-mcp", "bench", str(limit)), (
            f"a limit of {limit}/minute would answer 429 inside one benchmark minute"
        )


def test_unlimited_is_only_for_the_per_minute_windows() -> None:
    with pytest.raises(ConfigError) as info:
        Settings.from_env({"PWC_MCP_CONCURRENCY_LIMIT": "unlimited"})
    assert info.value.problems == [
        "PWC_MCP_CONCURRENCY_LIMIT must be an integer between 1 and 10000"
    ]
    production = Settings.from_env({})
    assert (production.request_limit, production.semantic_limit) == (60, 10)


def refusing_after(allowed: int) -> Starlette:
    """An MCP-shaped endpoint that answers `allowed` tool calls, then 429 like a tripped limit."""
    served = {"calls": 0}

    async def mcp(request: Request) -> JSONResponse:
        await request.body()
        served["calls"] += 1
        if served["calls"] > allowed:
            error = {"code": -32029, "message": "rate_limited: request limit reached"}
            return JSONResponse({"jsonrpc": "2.0", "id": 1, "error": error}, status_code=429)
        result = {"content": [], "isError": False}
        return JSONResponse({"jsonrpc": "2.0", "id": 1, "result": result})

    return Starlette(routes=[Route("/mcp", mcp, methods=["POST"])])


def test_a_refusal_during_a_measurement_fails_the_run_with_one_line() -> None:
    body = load.tool_call("search_papers", {"query": "transformer"})
    with (
        serve_in_thread(refusing_after(5), name="refusing") as server,
        pytest.raises(load.BenchFailure) as info,
    ):
        asyncio.run(load.drive(f"{server.origin}/mcp", body, 2, seconds=30.0, warmup=0.0))
    message = str(info.value)
    assert "\n" not in message
    assert message.startswith("during a measurement: HTTP 429 from http://127.0.0.1:")
    assert "request limit reached" in message
