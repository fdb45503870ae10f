"""/.well-known/mcp never lets a request's Host into a publicly cacheable answer."""

from __future__ import annotations

import dataclasses

import httpx

from pwc_mcp.app import create_app
from pwc_mcp.config import Settings
from pwc_mcp.sample import RunningCatalog
from pwc_mcp.serving.localserver import serve_in_thread

PUBLIC = "https://pwc.example.org"


def fetch(settings: Settings, headers: dict[str, str]) -> httpx.Response:
    with (
        serve_in_thread(create_app(settings), name="pwc-mcp") as running,
        httpx.Client(base_url=running.origin, timeout=30) as client,
    ):
        return client.get("/.well-known/mcp", headers=headers)


def test_without_a_public_url_the_derived_origin_is_never_stored(
    catalog: RunningCatalog,
) -> None:
    """The poisoning from the issue: `Host: 127.0.0.1` answered with `Cache-Control: public`
    would hand https://127.0.0.1/mcp to every client of a shared cache."""
    settings = Settings(api_url=catalog.url, allowed_hosts=("pwc.example.org", "127.0.0.1"))
    answer = fetch(settings, {"Host": "127.0.0.1", "X-Forwarded-Proto": "https"})
    assert answer.json()["transport"]["url"] == "https://127.0.0.1/mcp"
    assert answer.headers["cache-control"] == "no-store"


def test_the_public_url_is_advertised_whatever_the_host(catalog: RunningCatalog) -> None:
    settings = dataclasses.replace(
        Settings(api_url=catalog.url, allowed_hosts=("pwc.example.org", "127.0.0.1")),
        public_url=PUBLIC,
    )
    for host in ("127.0.0.1", "pwc.example.org"):
        answer = fetch(settings, {"Host": host, "X-Forwarded-Proto": "http"})
        doc = answer.json()
        assert doc["transport"] == {"type": "streamable-http", "url": f"{PUBLIC}/mcp"}
        assert doc["documentation_url"] == f"{PUBLIC}/docs"
        assert answer.headers["cache-control"] == "public, max-age=3600"
