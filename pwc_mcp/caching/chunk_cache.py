"""Immutable versioned Markdown chunks (`read_paper`, sections), bounded like the answer caches
(pwc_mcp/caching/bounded_cache.py): 3600 s, 256 entries, 16 MiB; one call adds at most 1/8 of it (one
whole outline). With a shared cache (pwc_mcp/caching/shared_cache.py), a miss asks level 2 and what is
stored is shared; a chunk is immutable (its content version is in its key), so a copy keeps the
full TTL. With `max_stale` a chunk is kept as long as any answer (pwc_mcp/caching/stale.py),
and served stale by pwc_mcp/catalog.py when the catalog fails to give it again.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Hashable
from typing import Any

from pwc_mcp.caching.bounded_cache import BoundedTTLCache, Budget
from pwc_mcp.caching.reads import allowance, noted
from pwc_mcp.caching.shared_cache import SharedCache
from pwc_mcp.caching.shared_values import decode_chunk, encode_chunk
from pwc_mcp.caching.stale import LastGood, grace
from pwc_mcp.config import MiB

CHUNK_CALL_SHARE = 8  # 1/8 of the chunk cache per call: 32 chunks, the longest outline
NAMESPACE = "chunks"


class ChunkCache(BoundedTTLCache):
    """Immutable versioned Markdown chunks; key with `ChunkCache.key(...)`. With `shared`, a
    miss asks level 2 and what is stored is shared (immutable: copies keep the full TTL)."""

    def __init__(
        self,
        *,
        ttl: float = 3600.0,
        max_entries: int = 256,
        max_bytes: int = 16 * MiB,
        clock: Callable[[], float] = time.monotonic,
        shared: SharedCache | None = None,
        max_stale: float = 0.0,
        wall: Callable[[], float] = time.time,
    ) -> None:
        super().__init__(
            ttl=ttl,
            max_entries=max_entries,
            max_bytes=max_bytes,
            clock=clock,
            grace=grace(ttl, max_stale),
        )
        self.shared = shared
        self.last_good = LastGood(max_stale, wall)
        self.l2 = {"l2_hits": 0, "l2_misses": 0}
        self._l2_lock = threading.Lock()

    def get(self, key: Hashable) -> Any | None:
        value = super().get(key)
        if value is not None or self.shared is None or not isinstance(key, str):
            return value
        found = self.shared.get(NAMESPACE, key)
        chunk = None if found is None else decode_chunk(found.payload)
        with self._l2_lock:
            self.l2["l2_misses" if chunk is None else "l2_hits"] += 1
        if chunk is not None:
            super().set(
                key, chunk, len(chunk[0]), budget=allowance("chunks", self, CHUNK_CALL_SHARE)
            )
        return chunk

    def set(
        self,
        key: Hashable,
        value: Any,
        size: int,
        *,
        budget: Budget | None = None,
        age: float = 0.0,
    ) -> int | None:
        """As `BoundedTTLCache.set`, within the current call's share of the chunk cache."""
        own = budget or allowance("chunks", self, CHUNK_CALL_SHARE)
        stamp = super().set(key, value, size, budget=own, age=age)
        if self.shared is not None and isinstance(key, str) and _is_chunk(value):
            # checked when fetched (pwc_mcp/catalog.py), and again by each reader
            self.shared.put(NAMESPACE, key, encode_chunk(value), self.ttl + self.grace)
        return stamp

    def stale(self, key: str, error: BaseException) -> Any | None:
        """The chunk kept for `key` past its TTL when fetching it again failed with `error`
        (noted in the call as stale), or None."""
        found = self.last_good.find(self, key, error)
        if found is None:
            return None
        noted(found[1])
        return found[0]

    def stats(self) -> dict[str, Any]:
        with self._l2_lock:
            return {**super().stats(), **self.l2}

    @staticmethod
    def key(paper: str, content_version: str, offset: int, limit: int) -> tuple[str, str, int, int]:
        return (paper, content_version, offset, limit)


def _is_chunk(value: Any) -> bool:
    return (
        isinstance(value, tuple)
        and len(value) == 4
        and isinstance(value[0], bytes)
        and isinstance(value[1], bool)
        and isinstance(value[2], int)
        and isinstance(value[3], str)
    )
