"""The real app's /docs and /health under the safety rules (sample catalog, real uvicorn)."""

from __future__ import annotations

import logging
import socket
from collections.abc import Iterator

import anyio
import httpx
import pytest
from limits import RateLimitItemPerMinute
from starlette.responses import JSONResponse

from pwc_mcp.app import create_app
from pwc_mcp.config import Settings
from pwc_mcp.edge.windows import Windows
from pwc_mcp.sample import RunningCatalog
from pwc_mcp.serving.localserver import serve_in_thread
from tests.helpers.safety import HEADERS, rpc


def closed_port() -> int:
    """A loopback port nothing listens on (bound, then released)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def serve_app(sample: RunningCatalog, **settings: object) -> Iterator[httpx.Client]:
    app = create_app(Settings(api_url=sample.url, **settings))  # type: ignore[arg-type]
    with (
        serve_in_thread(app, name="pwc-mcp") as running,
        httpx.Client(base_url=running.origin, timeout=20) as client,
    ):
        yield client


@pytest.fixture
def app_http(sample: RunningCatalog) -> Iterator[httpx.Client]:
    yield from serve_app(sample)


@pytest.fixture
def unreachable_redis(sample: RunningCatalog) -> Iterator[httpx.Client]:
    yield from serve_app(
        sample,
        request_limit=2,
        rate_limit_storage=f"redis://127.0.0.1:{closed_port()}/0",
        cursor_key_current=b"k" * 32,
        cursor_key_ephemeral=False,
    )


def test_docs_are_served_from_bytes_built_once(app_http, monkeypatch):
    first = app_http.get("/docs")
    assert first.status_code == 200 and first.headers["content-type"] == "application/json"
    assert {t["name"] for t in first.json()["tools"]} >= {"search_papers", "get_benchmark"}
    renders: list[object] = []
    real_render = JSONResponse.render

    def counting_render(self: JSONResponse, content: object) -> bytes:
        renders.append(content)
        return real_render(self, content)

    monkeypatch.setattr(JSONResponse, "render", counting_render)
    for _ in range(3):
        again = app_http.get("/docs")
        assert again.content == first.content
        assert again.headers["cache-control"] == "public, max-age=3600"
    assert renders == []  # nothing re-encoded per request


def test_unreachable_redis_limits_in_memory_and_only_the_operator_is_told(unreachable_redis):
    http = unreachable_redis
    assert "limits" not in http.get("/health").json()  # nothing has failed yet
    answers = [http.post("/mcp", json=rpc("tools/list", {}), headers=HEADERS) for _ in range(3)]
    assert [a.status_code for a in answers] == [200, 200, 429]  # limited, not open
    assert answers[2].json()["error"]["code"] == -32029
    health = http.get("/health")  # the operator, on the machine itself
    assert health.status_code == 200
    assert health.json()["status"] == "ok" and health.json()["limits"] == "degraded"
    # The public route (through the proxy) keeps its contract and tells nobody the fallback.
    public = http.get("/health", headers={"X-Forwarded-For": "203.0.113.9"})
    assert public.status_code == 200
    assert set(public.json()) == {"status", "service", "version", "protocol"}


def test_storage_failure_warns_at_most_once_a_minute_without_detail(caplog):
    port = closed_port()
    now = [0.0]
    windows = Windows(f"redis://127.0.0.1:{port}/0", clock=lambda: now[0], retry_seconds=0)
    item = RateLimitItemPerMinute(2)
    caplog.set_level(logging.WARNING, logger="pwc_mcp.limits")

    async def hits() -> list[int | None]:
        results = []
        for at in (0.0, 30.0, 59.0, 60.0):
            now[0] = at
            results.append(await windows.hit(item, "request", "someone"))
        return results

    results = anyio.run(hits)
    assert results[:2] == [None, None] and results[2] is not None  # in memory: 2 per minute
    warnings = [r.getMessage() for r in caplog.records if r.name == "pwc_mcp.limits"]
    assert (
        warnings
        == ["rate-limit storage unavailable type=ConnectionError; limiting in process memory"] * 2
    )
    assert windows.degraded
    assert str(port) not in caplog.text and "127.0.0.1" not in caplog.text
