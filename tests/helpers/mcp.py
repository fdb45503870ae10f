"""MCP test helpers: the real CatalogService over a catalog URL, and tool calls through a client."""

from __future__ import annotations

import json
import secrets
from typing import Any

from fastmcp import Client
from starlette.requests import Request
from starlette.responses import Response

from pwc_core.transport import CatalogClient
from pwc_mcp.caching.cache import CachedCatalog, ChunkCache
from pwc_mcp.catalog import CatalogService
from pwc_mcp.cursors import CursorCodec
from pwc_mcp.params import TOOLS

# tools/list, which every client loads into the model's context when it connects: at most
# 1,143 bytes a tool on average as model_dump'ed tools in compact JSON, which is issue #26's
# 24,000 bytes for its 21 tools (30,138 when it was filed, 48,371 for the reference
# implementation) kept as a share per tool, so a new command brings its own room and no more;
# the JSON-RPC answer on the wire adds only its envelope (`{"jsonrpc":"2.0","id":1,...}`).
TOOL_BYTES = 1_143
TOOLS_LIST_BUDGET = TOOL_BYTES * len(TOOLS)
RPC_ENVELOPE = 44
# The catalog the respx-mocked unit tests answer for (the `mock` fixture of tests/mcp/conftest.py).
CATALOG_BASE = "https://catalog.test/api/v1"


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


def scored_rows(structured: dict[str, Any], rows: list[dict[str, Any]] | None = None) -> list[dict]:
    """The evaluation rows of a result as a model reads them: each row of `data` (by default
    `data.results`) with the metric values its projection gives as numbers (`evaluations`, one
    per row, the same ID), else its own (then numbers already)."""
    rows = structured["data"]["results"] if rows is None else rows
    added = structured.get("evaluations", [])
    assert [e.get("id") for e in added] == [r.get("id") for r in rows], "one per row, in order"
    return [
        {**r, "metrics": e.get("metrics") or r["metrics"]} for r, e in zip(rows, added, strict=True)
    ]


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
