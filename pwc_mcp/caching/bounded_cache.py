"""Thread-safe caches with one TTL, bounded by entry count and by total bytes, that admit new
keys by frequency, so that one burst of new keys cannot flush what everyone else uses.

The storage, the TTL and the byte accounting are cachetools' `TTLCache` (`getsizeof` reads each
entry's declared size; the caller's clock is its `timer`). Which entries make room is decided
here, because cachetools has no admission hook: the least recently used entries, but only for a
new key that was looked up more often than each of them (TinyLFU admission). Lookups are counted
per key hash, and the counts halve every 10 × `max_entries` lookups, so popularity fades.
A key seen once, as every key of a scan or a burst is, never displaces an entry used as often;
the price is that once a cache is full, a new key is stored on its second lookup (or after an
expiry or a halving), not its first.
"""

from __future__ import annotations

import itertools
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterable
from typing import Any

from cachetools import TTLCache

Entry = tuple[Any, int, int]  # (value, size in bytes, stamp)
Budget = Callable[[int], bool]  # may a new entry of this many bytes be stored? (spends it if so)

_MAX_COUNT = 15


class Frequencies:
    """How often each key was looked up lately, at most 15, kept by the key's hash (so the
    table never holds a key, and `hash()` of a str is salted per process: no client can aim a
    collision at another's key). Every `10 × capacity` lookups all counts halve and the zeros
    go, so old popularity fades and the table stays within about 15 × capacity hashes."""

    def __init__(self, capacity: int) -> None:
        self._counts: dict[int, int] = {}
        self._sample = 10 * capacity
        self._added = 0

    def estimate(self, key: Hashable) -> int:
        return self._counts.get(hash(key), 0)

    def add(self, key: Hashable) -> None:
        digest = hash(key)
        count = self._counts.get(digest, 0)
        if count < _MAX_COUNT:
            self._counts[digest] = count + 1
        self._added += 1
        if self._added >= self._sample:
            self._counts = {h: n >> 1 for h, n in self._counts.items() if n > 1}
            self._added = 0


class _Store(TTLCache):
    """A byte-bounded `TTLCache` that also keeps its keys in recency order (least recent first,
    with each entry's size), which eviction needs to read before it removes anything.
    cachetools calls `expire` for entries whose TTL ran out and `popitem` only to make room."""

    def __init__(self, ttl: float, max_bytes: int, timer: Callable[[], float]) -> None:
        super().__init__(maxsize=max_bytes, ttl=ttl, timer=timer, getsizeof=_entry_size)
        self.order: OrderedDict[Hashable, int] = OrderedDict()
        self.evictions = 0
        self.expirations = 0

    def __getitem__(self, key: Hashable) -> Entry:
        entry: Entry = super().__getitem__(key)
        self.order.move_to_end(key)
        return entry

    def __setitem__(self, key: Hashable, entry: Entry) -> None:
        super().__setitem__(key, entry)
        self.order[key] = entry[1]
        self.order.move_to_end(key)

    def __delitem__(self, key: Hashable) -> None:
        self.order.pop(key, None)
        super().__delitem__(key)

    def popitem(self) -> tuple[Hashable, Entry]:
        key, entry = super().popitem()
        self.order.pop(key, None)
        self.evictions += 1
        return key, entry

    def expire(self, time: float | None = None) -> list[tuple[Hashable, Entry]]:
        expired = super().expire(time)
        for key, _ in expired:
            self.order.pop(key, None)
        self.expirations += len(expired)
        return expired


def _entry_size(entry: Entry) -> int:
    return entry[1]


class BoundedTTLCache:
    """Thread-safe, one TTL, bounded by entry count and total bytes, frequency-admitted.

    Every stored value gets a stamp, unique for the cache's life: `lookup` returns it, so a
    caller can tell later whether a key still holds the very value it read."""

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
        self._sketch = Frequencies(max_entries)
        self._stamps = itertools.count(1)
        self.rejections = 0  # new keys refused: not looked up more often than what they'd evict
        self.over_budget = 0  # new keys refused: beyond the storing call's budget

    @property
    def evictions(self) -> int:
        """Entries removed to make room for a more frequently used key."""
        return self._store.evictions

    @property
    def expirations(self) -> int:
        """Entries removed because their TTL ran out."""
        return self._store.expirations

    def get(self, key: Hashable) -> Any | None:
        found = self.lookup(key)
        return None if found is None else found[0]

    def lookup(self, key: Hashable) -> tuple[Any, int] | None:
        """(value, stamp) of `key`, or None; either way one use of `key`, which counts."""
        return self.lookup_many((key,))[0]

    def lookup_many(self, keys: Iterable[Hashable]) -> list[tuple[Any, int] | None]:
        """`lookup` of each key, at one instant under one lock (a remembered result checks
        every entry it was made from)."""
        found: list[tuple[Any, int] | None] = []
        store, add = self._store, self._sketch.add
        with self._lock, store.timer:  # one instant for the whole operation
            store.expire()  # no expired entry outlives a lookup
            for key in keys:
                add(key)
                try:  # `store[key]`, not `get`: one look instead of two (hits are the rule)
                    entry = store[key]  # a hit becomes the most recently used
                except KeyError:
                    found.append(None)
                else:
                    found.append((entry[0], entry[2]))
        return found

    def set(
        self, key: Hashable, value: Any, size: int, *, budget: Budget | None = None
    ) -> int | None:
        """Store `value` as `size` bytes and return its stamp, or None when it is not stored:
        larger than `max_bytes`, a new key not looked up more often than every entry it would
        evict, or a new key beyond `budget` (asked only once the key would be admitted).
        Replacing a stored key needs neither, and is not an eviction."""
        with self._lock, self._store.timer:
            store = self._store
            store.expire()
            resident = store.pop(key, None) is not None
            if size < 0 or size > self.max_bytes:
                return None
            victims = self._victims(size)
            if not resident:
                wanted = self._sketch.estimate(key)
                if any(self._sketch.estimate(victim) >= wanted for victim in victims):
                    self.rejections += 1
                    return None
                if budget is not None and not budget(size):
                    self.over_budget += 1
                    return None
            for victim in victims:
                del store[victim]
                store.evictions += 1
            stamp = next(self._stamps)
            store[key] = (value, size, stamp)
            return stamp

    def discard(self, key: Hashable, stamp: int) -> None:
        """Drop `key` if it still holds the value stamped `stamp` (not an eviction)."""
        with self._lock, self._store.timer:
            entry = self._store.get(key)
            if entry is not None and entry[2] == stamp:
                del self._store[key]

    def _victims(self, size: int) -> list[Hashable]:
        """The least recently used keys whose removal makes room for `size` more bytes."""
        store = self._store
        count, free = len(store), self.max_bytes - int(store.currsize)
        victims: list[Hashable] = []
        for key, held in store.order.items():
            if count < self.max_entries and size <= free:
                break
            victims.append(key)
            count, free = count - 1, free + held
        return victims

    def clear(self) -> None:
        with self._lock, self._store.timer:
            self._store.expire()
            for key in list(self._store.order):  # not evictions: nothing made room
                del self._store[key]

    @property
    def entries(self) -> int:
        with self._lock:
            return len(self._store)

    @property
    def bytes(self) -> int:
        with self._lock:
            return int(self._store.currsize)

    def stats(self) -> dict[str, Any]:
        names = (
            "ttl",
            "entries",
            "bytes",
            "max_entries",
            "max_bytes",
            "evictions",
            "expirations",
            "rejections",
            "over_budget",
        )
        return {name: getattr(self, name) for name in names}
