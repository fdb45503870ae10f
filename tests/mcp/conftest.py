"""MCP test harness: the sample catalog on loopback and the real server built against it."""

from __future__ import annotations

import json
import secrets
from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest
from fastmcp import Client, FastMCP

from pwc_cli.transport import CatalogClient
from pwc_mcp.cache import CachedCatalog, ChunkCache
from pwc_mcp.catalog import CatalogService
from pwc_mcp.cursors import CursorCodec
from pwc_mcp.sample import RunningCatalog
from pwc_mcp.server import build_server


@pytest.fixture(autouse=True)
def _clean_faults(request: pytest.FixtureRequest) -> Iterator[None]:
    yield
    if "sample" in request.fixturenames:
        request.getfixturevalue("sample").faults.reset()


def make_service(url: str, *, cached: bool = True, chunk_limit: int = 65_536) -> CatalogService:
    client = CatalogClient(url, timeout=25.0)
    transport = CachedCatalog(client) if cached else client
    return CatalogService(
        transport, CursorCodec(secrets.token_bytes(32)), ChunkCache(), chunk_limit=chunk_limit
    )


@pytest.fixture
def server(sample: RunningCatalog) -> FastMCP:
    # Uncached, so fault injection and upstream counts are visible test by test.
    return build_server(make_service(sample.url, cached=False))


@pytest.fixture
async def client(server: FastMCP) -> AsyncIterator[Client]:
    async with Client(server) as connected:
        yield connected


async def call(client: Client, tool: str, **arguments: Any) -> tuple[dict[str, Any], str]:
    """(structuredContent, text) of a successful call; fails the test on isError."""
    result = await client.call_tool_mcp(tool, arguments)
    text = result.content[0].text if result.content else ""
    assert not result.is_error, text
    return result.structured_content, text


async def error_of(client: Client, tool: str, **arguments: Any) -> str:
    result = await client.call_tool_mcp(tool, arguments)
    assert result.is_error, result.structured_content
    text = result.content[0].text
    assert "Traceback" not in text and "/api/v1" not in text, "no internals or upstream URLs"
    return text


def is_json(text: str) -> bool:
    try:
        json.loads(text)
    except ValueError:
        return False
    return True
