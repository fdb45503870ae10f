"""The landing page in a real browser: headless Chromium loads `/` from the real app on loopback,
under the page's own headers (its CSP included). It renders with its style (the CSP's hash admits
it), shows a heading, every tool of `tools/list` and the four set-up snippets for the endpoint
/.well-known/mcp advertises; its links to /docs, /health and the server card load; nothing is
requested from another origin and nothing is logged as an error. A screenshot goes to the test's
temporary directory for a human to look at.

Needs Debian's `chromium` (`.ci/run` installs it): without it the test is skipped, and fails
under CI=true like the other tests of external tools.
"""

from __future__ import annotations

import asyncio
import base64
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from pwc_mcp.app import create_app
from pwc_mcp.config import Settings
from pwc_mcp.params import TOOLS
from pwc_mcp.sample import RunningCatalog
from pwc_mcp.serving.localserver import Running, serve_in_thread
from pwc_mcp.site import connect
from tests.browser.cdp import Devtools, chromium

DOMAINS = ("Page", "Runtime", "Network", "Log")
SNAPSHOT = """(() => {
  const all = (s) => [...document.querySelectorAll(s)];
  const pre = getComputedStyle(document.querySelector("pre"));
  return {
    title: document.title,
    headings: all("h1").map((h) => h.textContent),
    tools: all("#tools tbody tr td:first-child code").map((c) => c.textContent),
    examples: all("#tools tbody tr td:nth-child(3) code").length,
    setups: all("#setup h3").map((h) => h.textContent),
    snippets: all("code.snippet").map((c) => c.textContent),
    links: Object.fromEntries(all("nav a").map((a) => [a.getAttribute("href"), a.href])),
    styled: pre.borderTopStyle === "solid" && pre.overflowX === "auto",
    scripts: document.scripts.length,
  };
})()"""


@pytest.fixture(scope="module")
def app_server(sample: RunningCatalog) -> Iterator[Running]:
    with serve_in_thread(create_app(Settings(api_url=sample.url)), name="pwc-mcp") as running:
        yield running


async def follow(devtools: Devtools, page: str, origin: str, href: str) -> dict[str, Any]:
    """Click the page's link to `href`; the response the browser got for it. Then back to `/`."""
    selector = f"document.querySelector('nav a[href=\"{href}\"]').click()"
    await devtools.evaluate(selector, page)
    response = await devtools.wait_for(
        "Network.responseReceived",
        lambda e: e["params"]["response"]["url"] == f"{origin}{href}",
    )
    await devtools.send("Page.navigate", {"url": f"{origin}/"}, session=page)
    # back on the page, loaded (not the link's document, whose load may still be under way)
    ready = "location.pathname === '/' && document.readyState === 'complete' && !!document.querySelector('nav')"
    for _ in range(200):
        if await devtools.evaluate(ready, page):
            break
        await asyncio.sleep(0.05)
    else:
        raise AssertionError("the landing page did not load again")
    return dict(response["params"]["response"])


@pytest.mark.anyio
async def test_the_landing_page_in_chromium(
    app_server: Running, browser_binary: str, tmp_path: Path
) -> None:
    origin = app_server.origin
    endpoint = httpx.get(f"{origin}/.well-known/mcp").json()["transport"]["url"]
    with chromium(browser_binary, tmp_path) as browser:
        async with Devtools.connect(browser) as devtools:
            page = await devtools.open_page(DOMAINS)
            await devtools.send("Page.navigate", {"url": f"{origin}/"}, session=page)
            await devtools.wait_for("Page.loadEventFired", lambda e: e.get("sessionId") == page)
            shown = await devtools.evaluate(SNAPSHOT, page)
            shot = await devtools.send("Page.captureScreenshot", {"format": "png"}, session=page)
            (tmp_path / "landing.png").write_bytes(base64.b64decode(shot["data"]))

            assert shown["headings"] == ["Papers With Code MCP server"]
            assert shown["title"] == "Papers With Code MCP server"
            assert shown["styled"], "the page's style was not applied (CSP hash?)"
            assert shown["scripts"] == 0
            assert shown["tools"] == list(TOOLS) and shown["examples"] == len(TOOLS)
            expected = connect.snippets(endpoint)
            assert shown["setups"] == [s.client for s in expected]
            assert shown["snippets"] == [s.text for s in expected]
            assert shown["links"] == {
                "/docs": f"{origin}/docs",
                "/health": f"{origin}/health",
                "/mcp/server-card": f"{origin}/mcp/server-card",
            }

            docs = await follow(devtools, page, origin, "/docs")
            # A browser's Accept gets the readable page (its style under the same CSP: any
            # violation would be one of the console errors checked below); clients the JSON.
            assert docs["status"] == 200 and docs["mimeType"] == "text/html"
            health = await follow(devtools, page, origin, "/health")
            assert health["status"] == 200 and health["mimeType"] == "application/json"
            card = await follow(devtools, page, origin, "/mcp/server-card")
            assert card["status"] == 200
            assert card["headers"]["content-type"] == "application/mcp-server-card+json"

            requested = {
                e["params"]["request"]["url"] for e in devtools.seen("Network.requestWillBeSent")
            }
            assert requested == {
                f"{origin}/",
                f"{origin}/docs",
                f"{origin}/health",
                f"{origin}/mcp/server-card",
            }
            assert not devtools.seen("Runtime.exceptionThrown")
            errors = [
                e
                for e in devtools.seen("Log.entryAdded")
                if e["params"]["entry"]["level"] == "error"
            ]
            assert not errors, errors
