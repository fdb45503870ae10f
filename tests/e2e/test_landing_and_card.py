"""`/` (the page for people) and `/mcp/server-card` (the card for machines) over real HTTP: their
headers, validators and cache rule, the link from /.well-known/mcp, and the page's set-up
snippets connecting real clients (the `mcp` SDK's and FastMCP's) to the URL they name."""

from __future__ import annotations

import dataclasses
import json
import re
import shlex
from collections.abc import Iterator
from html import unescape

import httpx
import pytest
from fastmcp import Client as FastMCPClient
from mcp import Client as SDKClient

from pwc_mcp import __version__
from pwc_mcp.app import create_app
from pwc_mcp.config import Settings
from pwc_mcp.params import TOOLS
from pwc_mcp.sample import RunningCatalog
from pwc_mcp.serving.localserver import Running, serve_in_thread
from pwc_mcp.site import connect
from pwc_mcp.site import landing as landing_module
from pwc_mcp.site.landing import CSP
from pwc_mcp.site.server_card import MEDIA_TYPE, SCHEMA

PUBLIC = "https://pwc.example.org"
PAGE_HEADERS = {
    "content-type": "text/html; charset=utf-8",
    "content-security-policy": CSP,
    "x-content-type-options": "nosniff",
    "x-frame-options": "DENY",
    "referrer-policy": "no-referrer",
}


def snippets_on(page: str) -> list[str]:
    """The set-up snippets as a person copies them off the page."""
    return [unescape(s) for s in re.findall(r'<code class="snippet">(.*?)</code>', page, re.S)]


@pytest.fixture
def public(catalog: RunningCatalog, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple]:
    """A server configured with a public URL; `rendered` lists each page rendering's origin."""
    rendered: list[str] = []
    real = landing_module.render

    def counting(origin: str, *args: object) -> str:
        rendered.append(origin)
        return real(origin, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(landing_module, "render", counting)
    settings = dataclasses.replace(Settings(api_url=catalog.url), public_url=PUBLIC)
    with (
        serve_in_thread(create_app(settings), name="pwc-mcp-public") as running,
        httpx.Client(base_url=running.origin, timeout=30) as client,
    ):
        yield client, rendered


def test_the_page_has_its_headers_a_strong_etag_and_answers_304(
    http: httpx.Client, server: Running
) -> None:
    page = http.get("/")
    assert page.status_code == 200
    assert {k: page.headers[k] for k in PAGE_HEADERS} == PAGE_HEADERS
    assert page.headers["cache-control"] == "no-store"  # the origin came from this Host
    assert re.fullmatch(r'"[0-9a-f]{32}"', page.headers["etag"])
    assert f'<code id="endpoint">{server.origin}/mcp</code>' in page.text
    again = http.get("/", headers={"If-None-Match": f'"nope", {page.headers["etag"]}'})
    assert again.status_code == 304 and again.content == b""
    assert again.headers["etag"] == page.headers["etag"]
    assert again.headers["content-security-policy"] == CSP
    assert http.get("/", headers={"If-None-Match": '"nope"'}).status_code == 200


def test_the_page_names_the_endpoint_the_well_known_document_advertises(
    http: httpx.Client,
) -> None:
    advertised = http.get("/.well-known/mcp").json()["transport"]["url"]
    for snippet in snippets_on(http.get("/").text):
        assert advertised in snippet


def test_with_a_public_url_the_page_is_built_at_start_up_and_cached_publicly(public) -> None:
    client, rendered = public
    assert rendered == [PUBLIC]  # before any request
    for _ in range(3):
        page = client.get("/")
        assert page.status_code == 200 and page.headers["cache-control"] == "public, max-age=3600"
        assert f'<code id="endpoint">{PUBLIC}/mcp</code>' in page.text
    assert rendered == [PUBLIC]
    card = client.get("/mcp/server-card")
    assert card.headers["cache-control"] == "public, max-age=3600"
    assert card.json()["remotes"][0]["url"] == f"{PUBLIC}/mcp"
    assert client.get("/.well-known/mcp").json()["server_card_url"] == f"{PUBLIC}/mcp/server-card"


def test_the_server_card(http: httpx.Client, server: Running) -> None:
    answer = http.get("/mcp/server-card", headers={"Accept": MEDIA_TYPE})
    assert answer.status_code == 200
    assert answer.headers["content-type"] == "application/mcp-server-card+json"
    assert answer.headers["x-content-type-options"] == "nosniff"
    assert answer.headers["cache-control"] == "no-store"
    card = answer.json()
    well_known = http.get("/.well-known/mcp").json()
    assert card["$schema"] == SCHEMA
    assert re.fullmatch(r"[a-zA-Z0-9.-]+/[a-zA-Z0-9._-]+", card["name"])
    assert card["version"] == __version__ and card["title"] == well_known["name"]
    assert card["description"] == well_known["description"] and len(card["description"]) <= 100
    assert card["websiteUrl"] == f"{server.origin}/"
    assert card["remotes"] == [
        {
            "type": "streamable-http",
            "url": well_known["transport"]["url"],
            "supportedProtocolVersions": well_known["supported_protocol_versions"],
        }
    ]
    assert not {"tools", "resources", "prompts"} & set(card)  # runtime listing stays runtime
    etag = answer.headers["etag"]
    for validator in (etag, f"W/{etag}", "*"):
        cached = http.get("/mcp/server-card", headers={"If-None-Match": validator})
        assert cached.status_code == 304 and cached.content == b""
        assert cached.headers["etag"] == etag and cached.headers["cache-control"] == "no-store"


def test_the_well_known_document_links_the_card(http: httpx.Client, server: Running) -> None:
    url = http.get("/.well-known/mcp").json()["server_card_url"]
    assert url == f"{server.origin}/mcp/server-card"
    assert http.get(url).json()["remotes"][0]["url"] == f"{server.origin}/mcp"


def test_host_and_origin_guards_cover_both_routes(http: httpx.Client) -> None:
    for path in ("/", "/mcp/server-card"):
        assert http.get(path, headers={"Host": "evil.example"}).status_code == 421
        refused = http.get(path, headers={"Origin": "https://evil.example"})
        assert refused.status_code == 403 and "access-control-allow-origin" not in refused.headers


def test_both_routes_spend_the_housekeeping_budget(catalog: RunningCatalog) -> None:
    """Through the proxy (X-Forwarded-For), each view of the page or the card is housekeeping:
    5 x the request limit a minute, then 429, like /docs."""
    proxied = {"X-Forwarded-For": "203.0.113.7"}
    settings = Settings(api_url=catalog.url, request_limit=1)
    with (
        serve_in_thread(create_app(settings), name="pwc-mcp-limited") as running,
        httpx.Client(base_url=running.origin, timeout=30) as client,
    ):
        got = [client.get(p, headers=proxied).status_code for p in ["/", "/mcp/server-card"] * 3]
    assert got == [200] * 5 + [429]


@pytest.mark.anyio
@pytest.mark.parametrize("anyio_backend", ["asyncio"])
async def test_every_snippet_on_the_page_connects_a_real_client(server: Running) -> None:
    """Claude Code's command and Claude Desktop's bridge name a URL the `mcp` SDK client
    connects to (both protocol eras); the VS Code and Cursor files load as FastMCP client
    configurations as they are. (`mcp-remote` itself runs in scripts/interop.sh.)"""
    async with httpx.AsyncClient(base_url=server.origin) as http:
        code, vscode, cursor, desktop = snippets_on((await http.get("/")).text)
    endpoint = f"{server.origin}/mcp"
    claude_code_url = shlex.split(code)[-1]
    bridge = json.loads(desktop)["mcpServers"]["pwc"]
    assert [bridge["command"], *bridge["args"]] == connect.desktop_command(endpoint)
    for url in (claude_code_url, bridge["args"][-1]):
        for mode in ("legacy", "2026-07-28"):
            async with SDKClient(url, mode=mode) as client:
                assert sorted(t.name for t in (await client.list_tools()).tools) == sorted(TOOLS)
    configs = [{"mcpServers": json.loads(vscode)["servers"]}, json.loads(cursor)]
    for config in configs:
        async with FastMCPClient(config) as client:
            assert sorted(t.name for t in await client.list_tools()) == sorted(TOOLS)
