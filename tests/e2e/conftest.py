"""End-to-end harness: the sample catalog and the real app under uvicorn, both on loopback."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from pwc_mcp.app import create_app
from pwc_mcp.config import Settings
from pwc_mcp.localserver import Running, serve_in_thread
from pwc_mcp.sample import RunningCatalog, start_sample_catalog

RPC_HEADERS = {
    "Accept": "application/json, text/event-stream",
    "Content-Type": "application/json",
    "MCP-Protocol-Version": "2025-11-25",
}


@pytest.fixture(scope="session")
def catalog() -> Iterator[RunningCatalog]:
    with start_sample_catalog() as running:
        yield running


def settings_for(catalog: RunningCatalog, **overrides: Any) -> Settings:
    # Limits raised so the suite is not rate limited; the safety tests lower them on purpose.
    base = Settings(
        api_url=catalog.url, request_limit=10_000, semantic_limit=10_000, concurrency_limit=64
    )
    return dataclasses.replace(base, **overrides)


@pytest.fixture(scope="session")
def server(catalog: RunningCatalog) -> Iterator[Running]:
    with serve_in_thread(create_app(settings_for(catalog)), name="pwc-mcp") as running:
        yield running


@pytest.fixture
def http(server: Running) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=server.origin, timeout=30) as client:
        yield client


def rpc(method: str, params: dict[str, Any] | None = None, rpc_id: int = 1) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": rpc_id, "method": method, "params": params or {}}


def modern(
    method: str, params: dict[str, Any] | None = None, name: str | None = None
) -> tuple[dict[str, Any], dict[str, str]]:
    """A 2026-07-28 request: the `_meta` envelope plus the matching Mcp-Method/Mcp-Name."""
    meta = {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientInfo": {"name": "pytest", "version": "1"},
        "io.modelcontextprotocol/clientCapabilities": {},
    }
    headers = {**RPC_HEADERS, "MCP-Protocol-Version": "2026-07-28", "Mcp-Method": method}
    if name is not None:
        headers["Mcp-Name"] = name
    return rpc(method, {**(params or {}), "_meta": meta}), headers
