"""End-to-end helpers: JSON-RPC bodies and headers for the real app, and its test Settings."""

from __future__ import annotations

import dataclasses
from typing import Any

import httpx

from pwc_mcp.config import Settings
from pwc_mcp.sample import RunningCatalog

RPC_HEADERS = {
    "Accept": "application/json, text/event-stream",
    "Content-Type": "application/json",
    "MCP-Protocol-Version": "2025-11-25",
}


def settings_for(catalog: RunningCatalog, **overrides: Any) -> Settings:
    # Limits raised so the suite is not rate limited; the safety tests lower them on purpose.
    base = Settings(
        api_url=catalog.url, request_limit=10_000, semantic_limit=10_000, concurrency_limit=64
    )
    return dataclasses.replace(base, **overrides)


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


def tool_call(http: httpx.Client, name: str, arguments: dict, rpc_id: int = 1) -> dict:
    answer = http.post(
        "/mcp",
        json=rpc("tools/call", {"name": name, "arguments": arguments}, rpc_id=rpc_id),
        headers=RPC_HEADERS,
    )
    assert answer.status_code == 200, answer.text
    result = answer.json()["result"]
    assert not result.get("isError"), result["content"][0]["text"]
    return result
