"""Tool results remembered for as long as the catalog answers they were made from.

Handlers are pure functions of their arguments and of the catalog answers they read, so a
tool result is a pure function of (tool, arguments, those answers). `ResultMemo` keeps a
successful result with the exact cache entries its call read (`CachedCatalog.reading`) and
hands it out again only while every one of them is still the entry in the cache: once an entry
expires or is replaced, the next call recomputes. A repeated call therefore skips the argument
validation, the worker-thread hop, the handler and the projections, and still never returns
anything a fresh call could not (docs/decisions.md, "Remembered tool results").

Only whole successes and not-founds are kept: other failures are recomputed, and so is a result
any part of which was degraded (a lookup skipped at the deadline, a scan cut short:
pwc_core.degraded) or made from a last good answer while the catalog failed
(pwc_mcp/caching/stale.py: the `label` hook says so in the result), so a transient failure is
never pinned. A not-found is as pure as a success (it was made from the cache entries it read: a
catalog 404 is no entry, so a not-found made from one is not kept) and may have cost the most
(ranking its suggestions, pwc_core.suggest): a repeat raises the same `not_found:` failure
without running the handler. The key is the tool name plus the canonical JSON of the arguments
(injective: no two argument sets share a key); nothing about how tool parameters are declared
or validated enters it (validation is a function of the arguments). The caller runs the
admission checks (rate and semantic budgets) before it asks, so a remembered answer costs a
client what a computed one does.

A hit served through the framework is reported to `ANSWERED` (when the caller set it), so the
ASGI fast path (pwc_mcp.fast_path) can keep the framework's bytes for that very entry and answer
the next identical request itself while `serve_again` says the entry still holds.

An entry holds its result compactly: the text blocks, and the structured content as JSON bytes
that every hit parses afresh (so no two callers share a mutable object). It is sized by what it
holds itself (those bytes, the texts, the keys of the entries it read, a fixed overhead), never
by the catalog bodies it read: the catalog's cache holds and counts those, once.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Awaitable, Callable, Mapping
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

from fastmcp.tools import ToolResult
from mcp.types import ContentBlock
from pydantic_core import from_json, to_json

from pwc_core import degraded
from pwc_mcp.caching.bounded_cache import BoundedTTLCache
from pwc_mcp.caching.cache import CachedCatalog
from pwc_mcp.caching.reads import Read, Reads, Stale
from pwc_mcp.caching.stale import oldest
from pwc_mcp.failures import Failure, Kind

# Arguments longer than this (in canonical JSON) are not worth a key; their calls just run.
MAX_KEY_CHARS = 4096
# The longest catalog TTL: no remembered result can outlive the entries it depends on anyway.
TTL = 3600.0
# `read_paper` signs a cursor that expires: the same arguments must get a fresh cursor.
UNREMEMBERED = frozenset({"read_paper"})
# Bytes an entry holds besides its texts, JSON and keys (measured with tracemalloc): the entry
# and the store's bookkeeping; each content block object; each tuple of the list of reads.
ENTRY_OVERHEAD = 768
BLOCK_OVERHEAD = 512
READ_OVERHEAD = 128
# Why a computed result was not kept (content-free: counted for /metrics).
REFUSALS = ("degraded", "stale", "uncacheable", "too_big", "not_admitted")
Label = Callable[[Any, Stale], Any]  # a result, labelled as made from a stale answer
# (key, stamp) of each remembered result the framework served in this context (see module doc).
ANSWERED: ContextVar[list[tuple[str, int]] | None] = ContextVar("pwc_memo_answered", default=None)


@dataclass(frozen=True, slots=True)
class _Remembered:
    content: tuple[ContentBlock, ...]
    structured: bytes | None  # JSON
    meta: bytes | None  # JSON
    reads: tuple[Read, ...]


@dataclass(frozen=True, slots=True)
class _NotFound:
    message: str  # the failure's text after `not_found: `
    reads: tuple[Read, ...]


class ResultMemo:
    def __init__(
        self,
        catalog: CachedCatalog,
        *,
        max_entries: int = 1024,
        max_bytes: int = 4 * 1024 * 1024,
        label: Label | None = None,
    ) -> None:
        self.catalog = catalog
        self.label = label
        self.store = BoundedTTLCache(
            ttl=TTL, max_entries=max_entries, max_bytes=max_bytes, clock=catalog.clock
        )
        self.counts = dict.fromkeys(("served", "served_early", "stored", *REFUSALS), 0)

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
        `compute()` as one call of the catalog (its reads recorded, its additions to the caches
        held to its share), remembered when it succeeds whole, or finds nothing (`not_found:`),
        on cached entries only."""
        if key is not None:
            found = self.store.lookup(key)
            if found is not None and self._serve(key, *found):
                if isinstance(found[0], _NotFound):
                    raise Failure(Kind.NOT_FOUND, found[0].message)
                answered = ANSWERED.get()
                if answered is not None:
                    answered.append((key, found[1]))
                return _rebuilt(found[0])
        outcome: ToolResult | Failure
        with self.catalog.reading() as reads, degraded.watch() as reasons:
            try:
                outcome = await compute()
            except Failure as failure:
                if key is None or failure.kind is not Kind.NOT_FOUND:
                    raise
                outcome = failure
        stale = oldest(reads.stale)
        if key is not None:
            why = "stale" if stale else self._remember(key, outcome, reads, bool(reasons))
            self.counts[why] += 1
        if isinstance(outcome, Failure):
            raise outcome
        if stale is not None and self.label is not None and isinstance(outcome, ToolResult):
            outcome = self.label(outcome, stale)
        return outcome

    def holds(self, key: str, stamp: int) -> _Remembered | None:
        """The entry stamped `stamp` if `key` still holds it (the first half of `serve_again`:
        nothing counted yet)."""
        found = self.store.lookup(key)
        if found is None or found[1] != stamp or not isinstance(found[0], _Remembered):
            return None
        return found[0]

    def serve_again(self, key: str, stamp: int, entry: _Remembered) -> bool:
        """Whether `entry` (from `holds`) may be served once more, its catalog entries all still
        current; counted as a hit like one served through the framework."""
        if not self._serve(key, entry, stamp):
            return False
        self.counts["served_early"] += 1
        return True

    def _serve(self, key: str, entry: _Remembered | _NotFound, stamp: int) -> bool:
        if self.catalog.still_current(entry.reads):
            self.counts["served"] += 1
            return True
        self.store.discard(key, stamp)  # made from answers the cache no longer holds
        return False

    def stats(self) -> dict[str, Any]:
        """Content-free counters: results served from the memo (of which answered before the
        framework ran: pwc_mcp.fast_path), stored, refused (and why)."""
        return {
            "served": self.counts["served"],
            "served_early": self.counts["served_early"],
            "stored": self.counts["stored"],
            "refused": {reason: self.counts[reason] for reason in REFUSALS},
            "store": self.store.stats(),
        }

    def _remember(self, key: str, result: Any, reads: Reads, was_degraded: bool) -> str:
        """Store `result` if it may be reused; what happened to it, as a counter name."""
        if was_degraded:
            return "degraded"
        # A result that read nothing has nothing to be checked against: it is not kept.
        if not (reads.cacheable and reads.entries):
            return "uncacheable"
        entry: _Remembered | _NotFound
        if isinstance(result, Failure):
            entry = _NotFound(result.message, tuple(reads.entries))
        elif not isinstance(result, ToolResult):
            return "uncacheable"
        else:
            try:
                entry = _Remembered(
                    tuple(result.content),
                    _json(result.structured_content),
                    _json(result.meta),
                    tuple(reads.entries),
                )
            except ValueError:  # not JSON: nothing to parse afresh for the next caller
                return "uncacheable"
        size = _size(key, entry)
        if size > self.store.max_bytes:
            return "too_big"
        return "not_admitted" if self.store.set(key, entry, size) is None else "stored"


def _json(value: Any) -> bytes | None:
    return None if value is None else to_json(value)


def _rebuilt(entry: _Remembered) -> ToolResult:
    """A new result per caller, its structured content parsed from the stored JSON (already
    JSON, so the constructor's conversion, a second deep copy, is skipped)."""
    return ToolResult.model_construct(
        content=list(entry.content),
        structured_content=None if entry.structured is None else from_json(entry.structured),
        meta=None if entry.meta is None else from_json(entry.meta),
        is_error=False,
    )


def _size(key: str, entry: _Remembered | _NotFound) -> int:
    """Bytes the entry holds itself (the catalog bodies it was made from are the cache's)."""
    reads = sum(READ_OVERHEAD + sys.getsizeof(read[2]) for read in entry.reads)
    if isinstance(entry, _NotFound):
        return ENTRY_OVERHEAD + sys.getsizeof(key) + sys.getsizeof(entry.message) + reads
    blocks = sum(
        BLOCK_OVERHEAD + sys.getsizeof(getattr(block, "text", None) or getattr(block, "data", ""))
        for block in entry.content
    )
    held = sum(sys.getsizeof(part) for part in (entry.structured, entry.meta) if part is not None)
    return ENTRY_OVERHEAD + sys.getsizeof(key) + blocks + reads + held
