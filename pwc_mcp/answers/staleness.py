"""How a tool result says it is stale (issue #38), in both channels, from one label.

A result made while the catalog failed, from a last good answer the cache kept
(pwc_mcp/caching/stale.py), opens its text with one line and carries the same facts in its
`structuredContent` under `stale`: when the answer is from (`as_of`, UTC), its age in seconds
(`age_s`) and the failure's label (`reason`: `timeout`, `error`, `invalid`, `429`, a 5xx). A
result made from several is labelled by the oldest. Nothing else in it changes.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any, Protocol

from fastmcp.tools import ToolResult
from mcp.types import TextContent

_UNITS = (("day", 86_400), ("hour", 3_600), ("minute", 60))


class Dated(Protocol):
    """A stale answer's label (pwc_mcp.caching.stale.Stale)."""

    @property
    def as_of(self) -> float: ...
    @property
    def age_s(self) -> int: ...
    @property
    def reason(self) -> str: ...


def age_text(seconds: int) -> str:
    """`4 minutes`, `1 hour`, `30 seconds`: the largest whole unit."""
    for unit, size in _UNITS:
        if seconds >= size:
            count = seconds // size
            return f"{count} {unit}{'' if count == 1 else 's'}"
    return f"{seconds} second{'' if seconds == 1 else 's'}"


def stale_line(label: Dated) -> str:
    when = datetime.fromtimestamp(label.as_of, UTC).strftime("%Y-%m-%d %H:%M UTC")
    return (
        f"The catalog could not be reached; this answer is from {when}, "
        f"{age_text(label.age_s)} old."
    )


def stale_field(label: Dated) -> dict[str, Any]:
    as_of = datetime.fromtimestamp(label.as_of, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    return {"as_of": as_of, "age_s": label.age_s, "reason": label.reason}


def labelled(result: ToolResult, label: Dated) -> ToolResult:
    """`result`, its first text opened by the stale line and its structured content with
    `stale` (a result with neither gets the line as its text)."""
    content = list(result.content)
    line = stale_line(label)
    first = next((i for i, block in enumerate(content) if isinstance(block, TextContent)), None)
    if first is None:
        content.insert(0, TextContent(type="text", text=line))
    else:
        block = content[first]
        assert isinstance(block, TextContent)
        content[first] = TextContent(type="text", text=f"{line}\n\n{block.text}")
    structured = result.structured_content
    if isinstance(structured, dict):
        structured = {"stale": stale_field(label), **structured}
    return ToolResult(content=content, structured_content=structured, meta=result.meta)
