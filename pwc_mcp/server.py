"""Builds the one FastMCP instance from the domain providers and middleware."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from fastmcp import FastMCP
from fastmcp.exceptions import ToolError, ValidationError
from fastmcp.server.middleware import Middleware, MiddlewareContext
from mcp.server.caching import CacheHint
from pydantic import ValidationError as PydanticValidationError

from pwc_mcp import __version__, prompts
from pwc_mcp.catalog import CatalogService
from pwc_mcp.tools import benchmarks, papers, taxonomy

HOUR_MS = 3_600_000
INSTRUCTIONS = """\
Papers With Code: a read-only catalog of ML papers, tasks, methods, benchmarks and leaderboards.
- search_papers finds papers by free text; list_* tools filter exactly (by slug, name or ID) and page.
- Identify records by slug or ID from earlier results; papers also by arXiv ID, URL or exact title.
- Dates are YYYY-MM-DD. list tools return at most 25 rows per page; follow next_page.
- Each result has structuredContent (typed fields plus `data`, the full catalog payload) and a
  short Markdown text.
- "Official implementation" means code the catalog designates as the authors' own.
- Typed fields that are unknown are omitted (e.g. is_open in evaluations); ranks are task-scoped.
"""


ToolCheck = Callable[[Any], Awaitable[None]]


class ToolCalls(Middleware):
    """One middleware layer for every tool call (each layer costs every call): runs the
    admission checks (e.g. the semantic-search limit), then turns argument errors into one
    short `invalid_argument:` line instead of a pydantic dump."""

    def __init__(self, checks: Sequence[ToolCheck] = ()) -> None:
        self.checks = tuple(checks)

    async def on_call_tool(self, context: MiddlewareContext, call_next):  # type: ignore[override]
        for check in self.checks:
            await check(context.message)
        try:
            return await call_next(context)
        except ValidationError as error:
            cause = error.__cause__
            if isinstance(cause, PydanticValidationError):
                parts = [
                    f"{'.'.join(str(p) for p in e['loc']) or 'arguments'}: {e['msg']}"
                    for e in cause.errors(include_url=False, include_input=False)
                ]
                raise ToolError("invalid_argument: " + "; ".join(parts)) from None
            raise ToolError("invalid_argument: invalid arguments") from None


def build_server(catalog: CatalogService, checks: Sequence[ToolCheck] = ()) -> FastMCP:
    mcp = FastMCP(
        "pwc",
        version=__version__,
        instructions=INSTRUCTIONS,
        website_url="https://paperswithcode.co",
        on_duplicate="error",
        mask_error_details=True,
        middleware=[ToolCalls(checks)],
        providers=[
            papers.build(catalog),
            taxonomy.build(catalog),
            benchmarks.build(catalog),
            prompts.provider,
        ],
    )
    mcp._mcp_server.title = "Papers With Code"  # FastMCP 4 has no constructor argument for it
    # Per-method hints (SEP-2549): catalogs for an hour, resource reads for five minutes.
    hints = mcp._mcp_server.cache_hints
    for method in (
        "server/discover",
        "tools/list",
        "resources/templates/list",
        "resources/list",
        "prompts/list",
    ):
        hints[method] = CacheHint(ttl_ms=HOUR_MS, scope="public")
    hints["resources/read"] = CacheHint(ttl_ms=300_000, scope="public")
    return mcp
