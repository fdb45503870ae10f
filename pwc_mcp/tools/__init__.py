"""Tools by domain. Each module's `build(catalog)` returns a LocalProvider of decorated tools."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fastmcp.tools import FunctionTool, ToolResult
from mcp.types import TextContent, ToolAnnotations
from mcp.types import Tool as ListedTool
from pydantic import BaseModel

from pwc_core.commands import Answer
from pwc_core.replies import extract_rows
from pwc_mcp.answers import texts
from pwc_mcp.answers.additions import structured
from pwc_mcp.answers.models import RecordPage
from pwc_mcp.answers.projections import checked_rows
from pwc_mcp.answers.texts import more
from pwc_mcp.answers.tool_errors import tool_error
from pwc_mcp.catalog import CatalogService
from pwc_mcp.params import HOSTED_ROW_CAP, TOOLS, to_dests
from pwc_mcp.params import generated as signed

READ_ONLY = ToolAnnotations(
    read_only_hint=True, destructive_hint=False, idempotent_hint=True, open_world_hint=True
)


class LeanTool(FunctionTool):
    """A tool listed without FastMCP's `_meta` of a tool with no tags and no version
    (`{"fastmcp": {"tags": []}}`): bytes in every client's context that tell it nothing. The
    server makes its tools this class (pwc_mcp.server); other `_meta` (the app binding) stays."""

    def to_mcp_tool(self, **overrides: Any) -> ListedTool:
        listed = super().to_mcp_tool(**overrides)
        meta = dict(listed.meta or {})
        if meta.get("fastmcp") == {"tags": []}:
            del meta["fastmcp"]
        listed.meta = meta or None
        return listed


def generated(fn: Callable[..., ToolResult]) -> Callable[..., ToolResult]:
    """The tool its function names: the one a declaration gives that name (`tool=`,
    pwc_core/declarations), with the signature generated for it (pwc_mcp.params). The function
    receives the name first (`def list_tasks(name: str, /, **params)`), so its body hands it on
    (`payload_of(catalog, name, params)`) instead of writing it again. Its failures are in the
    tool's words: a projection that finds the catalog's answer of the wrong shape
    (ResponseError) is an `upstream_error:` like any failure inside the handler, never
    FastMCP's masked message."""
    tool = fn.__name__
    if tool not in TOOLS:
        raise ValueError(f"tool {tool}: no Command declares tool={tool!r} (pwc_core/declarations)")

    def guarded(**params: Any) -> ToolResult:
        try:
            return fn(tool, **params)
        except Exception as error:  # Failures pass through tool_error unchanged
            raise tool_error(error) from None

    guarded.__doc__ = fn.__doc__
    return signed(tool)(guarded)


def payload_of(catalog: CatalogService, tool: str, params: dict[str, Any], **overrides: Any) -> Any:
    """Run the tool's CLI handler; every failure becomes one typed Failure."""
    return answer_of(catalog, tool, params, **overrides).payload


def answer_of(
    catalog: CatalogService, tool: str, params: dict[str, Any], **overrides: Any
) -> Answer:
    """`payload_of`, with what the handler resolved (a leaderboard's selection)."""
    values = to_dests(tool, params)
    values.update({k: v for k, v in overrides.items() if v is not None})
    try:
        return catalog.answer(TOOLS[tool], values)
    except Exception as error:  # mapped to a stable message; details never reach the client
        raise tool_error(error) from None


def respond(model: BaseModel, text: str) -> ToolResult:
    """Structured content: `data` verbatim beside what it lacks (pwc_mcp.answers.additions)."""
    content = [TextContent(type="text", text=text)]
    return ToolResult(content=content, structured_content=structured(model))


def rows_of(payload: Any) -> tuple[list[dict[str, Any]], int | None]:
    """The rows of a list reply, each checked for the identifying fields the text names."""
    rows, total = extract_rows(payload)
    return checked_rows(rows), total


def cap(rows: list[dict[str, Any]], limit: int | None = None) -> list[dict[str, Any]]:
    return rows[: min(limit or HOSTED_ROW_CAP, HOSTED_ROW_CAP)]


def bounded(
    payload: Any, keys: tuple[str, ...] = ("results", "items"), limit: int = HOSTED_ROW_CAP
) -> Any:
    """`data` with at most `limit` (at most HOSTED_ROW_CAP) rows in each list under `keys`, so
    a generous or hostile upstream page never travels whole, nor more rows than the tool
    returns. A cut payload says so: `truncated: true` plus the upstream total (`count` for
    result rows, kept when the upstream sent one; else `<key>_count`, the rows received). A
    bare list that is cut becomes such an object."""
    limit = min(limit, HOSTED_ROW_CAP)
    if isinstance(payload, list):
        payload = {"results": payload} if len(payload) > limit else payload
        if isinstance(payload, list):
            return payload
    if not isinstance(payload, dict):
        return payload
    cut: dict[str, Any] = {}
    for key in keys:
        rows = payload.get(key)
        if isinstance(rows, list) and len(rows) > limit:
            cut[key] = rows[:limit]
            total = "count" if key in ("results", "items") else f"{key}_count"
            if payload.get(total) is None and payload.get("total") is None:
                cut[total] = len(rows)
    return {**payload, **cut, "truncated": True} if cut else payload


def next_page_of(payload: Any) -> int | None:
    value = payload.get("next_page") if isinstance(payload, dict) else None
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def flat_page(payload: Any, page: int | None, label: str) -> ToolResult:
    """A page of catalog rows (tasks, methods, benchmarks), each named with its slug."""
    rows, total = rows_of(payload)
    next_page = next_page_of(payload)
    shown = cap(rows)
    text = texts.records(shown, texts.found(total, len(shown), label, page) + more(next_page))
    model = RecordPage(count=total, page=page, next_page=next_page, data=bounded(payload))
    return respond(model, text)
