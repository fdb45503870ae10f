"""One call's record of the server's caches: the entries it read and what it added.

`CachedCatalog.reading()` opens one per tool call or resource read and keeps it in a contextvar,
so the worker threads the call hands to (anyio copies the context) add to the same record and
concurrent calls never share one. pwc_mcp.caching.memo keeps a result with the entries it read; the
caches hold what one call may add to a share of each (pwc_mcp/caching/cache.py, "Fair shares").
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from contextvars import ContextVar
from dataclasses import dataclass, field

from pwc_core.errors import UnconfirmedFilter, UpstreamShapeError
from pwc_mcp.caching.bounded_cache import BoundedTTLCache, Budget

# Raised (or raised from) when a catalog answer the cache may have stored was unusable.
_WRONG_ANSWERS = (UpstreamShapeError, UnconfirmedFilter)

Read = tuple[str, str, str, int]  # (family, counter label, key, stamp of the entry read)


@dataclass(frozen=True, slots=True)
class Stale:
    """How a stale answer is labelled: when it was fetched (wall clock, seconds since the
    epoch), its age in whole seconds, and the label of the failure it stood in for."""

    as_of: float
    age_s: int
    reason: str


@dataclass
class Reads:
    """One call's record: the cache entries it read, for pwc_mcp.caching.memo (`cacheable` turns false
    when it read anything the cache did not keep), what it added to each cache so far, and the
    stale answers it was served."""

    entries: list[Read] = field(default_factory=list)
    cacheable: bool = True
    added: dict[str, list[int]] = field(default_factory=dict)  # cache name: [entries, bytes]
    stale: list[Stale] = field(default_factory=list)  # last good answers used (caching/stale.py)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def spend(self, name: str, entries: int, size_limit: int, size: int) -> bool:
        """Whether one more entry of `size` bytes fits this call's allowance for cache `name`
        (at most `entries` entries and `size_limit` bytes); if so it is spent."""
        with self._lock:
            used = self.added.setdefault(name, [0, 0])
            if used[0] >= entries or used[1] + size > size_limit:
                return False
            used[0], used[1] = used[0] + 1, used[1] + size
            return True


CURRENT: ContextVar[Reads | None] = ContextVar("pwc_cache_reads", default=None)


def by_family(entries: Sequence[Read]) -> dict[str, list[Read]]:
    """The entries read, grouped by cache family in order (one look per family)."""
    grouped: dict[str, list[Read]] = {}
    for read in entries:
        grouped.setdefault(read[0], []).append(read)
    return grouped


def allowance(name: str, cache: BoundedTTLCache, share: int) -> Budget | None:
    """The current call's allowance for `cache` (None outside a call: the CLI, tests)."""
    reads = CURRENT.get()
    if reads is None:
        return None
    entries, size_limit = max(1, cache.max_entries // share), max(1, cache.max_bytes // share)
    return lambda size: reads.spend(name, entries, size_limit, size)


def note(family: str, label: str, key: str, stamp: int | None) -> None:
    """Record a read in the current call: of a stored entry, or (None) of an answer not kept."""
    reads = CURRENT.get()
    if reads is None:
        return
    if stamp is None:
        reads.cacheable = False
    else:
        reads.entries.append((family, label, key, stamp))


def answered_wrong(error: BaseException | None) -> bool:
    """Whether a failure is (or was raised from) a catalog answer of the wrong shape."""
    for _ in range(8):  # tool errors wrap the handler's error a level or two deep
        if error is None:
            return False
        if isinstance(error, _WRONG_ANSWERS):
            return True
        error = error.__cause__ or error.__context__
    return False


def noted(stale: Stale) -> None:
    """Record in the current call that it used a stale answer (no result of it is kept)."""
    reads = CURRENT.get()
    if reads is not None:
        reads.cacheable = False
        reads.stale.append(stale)
