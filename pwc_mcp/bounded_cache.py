"""Thread-safe LRU caches with one TTL, bounded by entry count and by total bytes.

The storage, the TTL and the byte bound are cachetools' `TTLCache` (`getsizeof` reads each
entry's declared size); the entry bound is kept here, by the same LRU eviction, because one
cachetools cache has one `maxsize`. The caller's clock is cachetools' `timer`.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Hashable
from typing import Any

from cachetools import TTLCache

Entry = tuple[Any, int]  # (value, size in bytes)


class _Store(TTLCache):
    """A byte-bounded `TTLCache` of entries that counts what it drops: cachetools calls
    `popitem` only to make room (an eviction) and `expire` for entries whose TTL ran out."""

    def __init__(self, ttl: float, max_bytes: int, timer: Callable[[], float]) -> None:
        super().__init__(maxsize=max_bytes, ttl=ttl, timer=timer, getsizeof=_entry_size)
        self.evictions = 0
        self.expirations = 0

    def popitem(self) -> tuple[Hashable, Entry]:
        item = super().popitem()
        self.evictions += 1
        return item

    def expire(self, time: float | None = None) -> list[tuple[Hashable, Entry]]:
        expired = super().expire(time)
        self.expirations += len(expired)
        return expired


def _entry_size(entry: Entry) -> int:
    return entry[1]


class BoundedTTLCache:
    """Thread-safe LRU with one TTL, bounded by entry count and by total bytes."""

    def __init__(
        self,
        *,
        ttl: float,
        max_entries: int,
        max_bytes: int,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if ttl <= 0 or max_entries < 1 or max_bytes < 1:
            raise ValueError("ttl, max_entries and max_bytes must be positive")
        self.ttl, self.max_entries, self.max_bytes = ttl, max_entries, max_bytes
        self._lock = threading.Lock()
        self._store = _Store(ttl, max_bytes, clock)

    @property
    def evictions(self) -> int:
        """Entries removed to make room (LRU)."""
        return self._store.evictions

    @property
    def expirations(self) -> int:
        """Entries removed because their TTL ran out."""
        return self._store.expirations

    def get(self, key: Hashable) -> Any | None:
        with self._lock:
            self._store.expire()  # no expired entry outlives a lookup
            entry = self._store.get(key)  # a hit becomes the most recently used
            return None if entry is None else entry[0]

    def set(self, key: Hashable, value: Any, size: int) -> None:
        """Store `value` as `size` bytes; a value larger than `max_bytes` is never stored."""
        with self._lock:
            store = self._store
            store.pop(key, None)  # replacing a key is not an eviction
            if size < 0 or size > self.max_bytes:
                return
            while len(store) >= self.max_entries:  # len() drops the expired first
                store.popitem()
            store[key] = (value, size)  # evicts least recently used entries until `size` fits

    def clear(self) -> None:
        with self._lock:
            self._store.clear()

    @property
    def entries(self) -> int:
        with self._lock:
            return len(self._store)

    @property
    def bytes(self) -> int:
        with self._lock:
            return int(self._store.currsize)

    def stats(self) -> dict[str, Any]:
        names = ("ttl", "entries", "bytes", "max_entries", "max_bytes", "evictions", "expirations")
        return {name: getattr(self, name) for name in names}
