"""The real app's /docs and /health under the safety rules (sample catalog, real uvicorn)."""

from __future__ import annotations

import html
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
from pwc_mcp.site import docs_page
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


BROWSER = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"


def test_docs_answers_a_browser_with_a_page_and_clients_with_the_json(app_http):
    document = app_http.get("/docs").json()
    page = app_http.get("/docs", headers={"Accept": BROWSER})
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    assert page.headers["vary"] == "Accept" and page.headers["x-frame-options"] == "DENY"
    assert "default-src 'none'" in page.headers["content-security-policy"]
    assert "<script" not in page.text
    for tool in document["tools"]:
        assert f'<section id="tool-{tool["name"]}">' in page.text
    for template in document["resourceTemplates"]:
        assert f"<code>{html.escape(template['uriTemplate'])}</code>" in page.text
    for prompt in document["prompts"]:
        assert f"<code>{prompt['name']}</code>" in page.text
    again = app_http.get(
        "/docs", headers={"Accept": BROWSER, "If-None-Match": page.headers["etag"]}
    )
    assert again.status_code == 304 and again.headers["vary"] == "Accept"
    for accept in (None, "*/*", "application/json", "application/json, text/html", "application/*"):
        answer = app_http.get("/docs", headers={} if accept is None else {"Accept": accept})
        assert answer.headers["content-type"] == "application/json", accept
        assert answer.json() == document and answer.headers["vary"] == "Accept"
        assert answer.headers["etag"] != page.headers["etag"]


@pytest.mark.parametrize(
    ("accept", "html_first"),
    [
        (BROWSER, True),
        ("text/html", True),
        ("application/json;q=0.5, text/html", True),
        ("text/html;q=0.5, application/json", False),
        ("text/html;q=bad, */*", False),
        ("text/html, application/json", False),  # a tie keeps the JSON
        ("", False),
        (None, False),
    ],
)
def test_docs_negotiation(accept: str | None, html_first: bool) -> None:
    assert docs_page.prefers_html(accept) is html_first


def test_the_docs_page_escapes_everything() -> None:
    hostile = "<script>alert(1)</script>"
    document = {
        "name": hostile,
        "version": hostile,
        "protocol_version": hostile,
        "endpoint": hostile,
        "tools": [
            {
                "name": hostile,
                "description": hostile,
                "inputSchema": {"x": hostile},
                "outputSchema": None,
            }
        ],
        "resourceTemplates": [
            {"uriTemplate": hostile, "name": hostile, "title": None, "description": hostile}
        ],
        "prompts": [{"name": hostile, "description": hostile, "arguments": [{"name": hostile}]}],
    }
    page = docs_page.render(document)
    assert "<script" not in page and page.count("&lt;script&gt;") >= 10


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
