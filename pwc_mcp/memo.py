"""Tool results remembered for as long as the catalog answers they were made from.

Handlers are pure functions of their arguments and of the catalog answers they read, so a
tool result is a pure function of (tool, arguments, those answers). `ResultMemo` keeps a
successful result with the exact cache entries its call read (`CachedCatalog.reading`) and
hands it out again only while every one of them is still the entry in the cache: once an entry
expires or is replaced, the next call recomputes. A repeated call therefore skips the argument
validation, the worker-thread hop, the handler and the projections, and still never returns
anything a fresh call could not (docs/decisions.md, "Remembered tool results").

Only successes are kept (errors are recomputed, so a transient failure is never pinned), the
key is the tool name plus the canonical JSON of the arguments (injective: no two argument sets
share a key), and the store is bounded by entries and bytes like every other cache. The caller
runs the admission checks (rate and semantic budgets) before it asks, so a remembered answer
costs a client exactly what a computed one does.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from fastmcp.tools import ToolResult

from pwc_mcp.bounded_cache import BoundedTTLCache
from pwc_mcp.cache import CachedCatalog, Reads

# Arguments longer than this (in canonical JSON) are not worth a key; their calls just run.
MAX_KEY_CHARS = 4096
# The longest catalog TTL: no remembered result can outlive the entries it depends on anyway.
TTL = 3600.0
# `read_paper` signs a cursor that expires: the same arguments must get a fresh cursor.
UNREMEMBERED = frozenset({"read_paper"})


class ResultMemo:
    def __init__(
        self,
        catalog: CachedCatalog,
        *,
        max_entries: int = 1024,
        max_bytes: int = 4 * 1024 * 1024,
    ) -> None:
        self.catalog = catalog
        self.store = BoundedTTLCache(
            ttl=TTL, max_entries=max_entries, max_bytes=max_bytes, clock=catalog.clock
        )

    @staticmethod
    def key(tool: str, arguments: Mapping[str, Any] | None) -> str | None:
        if tool in UNREMEMBERED:
            return None
        try:
            text = json.dumps(
                arguments or {}, sort_keys=True, separators=(",", ":"), ensure_ascii=False
            )
        except (TypeError, ValueError):
            return None
        return None if len(text) > MAX_KEY_CHARS else f"{tool}\x00{text}"

    async def result(self, key: str | None, compute: Callable[[], Awaitable[ToolResult]]) -> Any:
        """The remembered result for `key` while its catalog entries are current, else
        `compute()` under a read record, remembered when it succeeds on cached entries only."""
        if key is None:
            return await compute()
        remembered = self.store.get(key)
        if remembered is not None:
            result, reads = remembered
            if self.catalog.still_current(reads):
                return _copy(result)
        with self.catalog.reading() as reads:
            result = await compute()
        # A result that read nothing has nothing to be checked against: it is not kept.
        if reads.cacheable and reads.entries and isinstance(result, ToolResult):
            self.store.set(key, (result, reads), _size(result, reads))
            return _copy(result)
        return result


def _copy(result: ToolResult) -> ToolResult:
    """A new envelope per caller: FastMCP may set fields on the one it is given."""
    return ToolResult(
        content=list(result.content),
        structured_content=result.structured_content,
        meta=result.meta,
    )


def _size(result: ToolResult, reads: Reads) -> int:
    """Bytes held, over-estimated without serialising anything: three times the texts and the
    catalog bodies the result was made from (its structured content is a projection of those
    bodies with `data` capped at 25 rows; Python objects take a few times their JSON size)."""
    text = sum(len(getattr(block, "text", "") or "") for block in result.content)
    return 3 * (text + reads.bytes) + 512
