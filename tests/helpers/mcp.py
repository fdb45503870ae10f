"""MCP test helpers: the real CatalogService over a catalog URL, and tool calls through a client."""

from __future__ import annotations

import json
import secrets
from typing import Any

from fastmcp import Client
from starlette.requests import Request
from starlette.responses import Response

from pwc_core.transport import CatalogClient
from pwc_mcp.cache import CachedCatalog, ChunkCache
from pwc_mcp.catalog import CatalogService
from pwc_mcp.cursors import CursorCodec

# tools/list, which every client loads into the model's context, when issues #18 and #19 began
# (6c5ccaf): as model_dump'ed tools (compact JSON) and as the JSON-RPC answer on the wire, both
# under 60% of the reference implementation's 48,371 bytes. The two issues bought their new
# parameters and app binding with explicit budgets: 2,500 and 300 bytes.
ROUND_START_TOOLS_LIST = {"compact": 28_418, "wire": 28_462}
ROUND_GROWTH = 2_500 + 300


def make_service(url: str, *, cached: bool = True, chunk_limit: int = 65_536) -> CatalogService:
    client = CatalogClient(url, timeout=25.0)
    transport = CachedCatalog(client) if cached else client
    return CatalogService(
        transport, CursorCodec(secrets.token_bytes(32)), ChunkCache(), chunk_limit=chunk_limit
    )


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


class Answers:
    """Path below /api/v1 → (status, JSON document) for the next requests."""

    def __init__(self) -> None:
        self.by_path: dict[str, tuple[int, Any]] = {}

    async def respond(self, request: Request) -> Response:
        path = request.url.path.removeprefix("/api/v1/")
        status, document = self.by_path.get(path, (404, {"detail": "Not found."}))
        if callable(document):  # a document that depends on the query (a page of a board)
            document = document(dict(request.query_params))
        return Response(json.dumps(document), status, media_type="application/json")
