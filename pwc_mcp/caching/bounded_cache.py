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

With a `grace`, an entry outlives its TTL by that much as the last good copy of its key: a
lookup no longer finds it (it is stale), only `lookup_stale` does (pwc_mcp/caching/stale.py).
Stale entries count against the same ceilings and are the first to make room, whatever their
popularity; a stored entry is one copy, with its birth time, whether fresh or stale.
"""

from __future__ import annotations

import itertools
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterable
from typing import Any

from cachetools import TTLCache

Entry = tuple[Any, int, int, float]  # (value, size in bytes, stamp, birth time)
Aged = tuple[Any, int, float]  # (value, stamp, age in seconds)
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

    def peek(self, key: Hashable) -> Entry | None:
        """The entry of `key` (None if absent or expired), its recency unchanged."""
        try:
            entry: Entry = super().__getitem__(key)
        except KeyError:
            return None
        return entry

    def peek_born(self, key: Hashable) -> float:
        entry = self.peek(key)
        return float("inf") if entry is None else entry[3]

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
    caller can tell later whether a key still holds the very value it read. An entry is kept
    `grace` seconds past its TTL, stale (see the module's docstring)."""

    def __init__(
        self,
        *,
        ttl: float,
        max_entries: int,
        max_bytes: int,
        clock: Callable[[], float] = time.monotonic,
        grace: float = 0.0,
    ) -> None:
        if ttl <= 0 or max_entries < 1 or max_bytes < 1 or grace < 0:
            raise ValueError("ttl, max_entries and max_bytes must be positive, grace not negative")
        self.ttl, self.max_entries, self.max_bytes = ttl, max_entries, max_bytes
        self.grace = grace
        self._lock = threading.Lock()
        self._store = _Store(ttl + grace, max_bytes, clock)
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
        return [None if aged is None else aged[:2] for aged in self.lookup_aged(keys)]

    def lookup_aged(self, keys: Iterable[Hashable]) -> list[Aged | None]:
        """`lookup_many`, with each fresh entry's age."""
        found: list[Aged | None] = []
        store, add = self._store, self._sketch.add
        with self._lock, store.timer as now:  # one instant for the whole operation
            store.expire()  # no expired entry outlives a lookup
            for key in keys:
                add(key)
                entry = store.peek(key)
                if entry is None or now - entry[3] >= self.ttl:  # stale: not an answer
                    found.append(None)
                else:
                    store.order.move_to_end(key)  # a hit becomes the most recently used
                    found.append((entry[0], entry[2], now - entry[3]))
        return found

    def lookup_stale(self, key: Hashable) -> Aged | None:
        """The entry kept for `key` past its TTL, with its age; not a use of `key`."""
        with self._lock, self._store.timer as now:
            self._store.expire()
            entry = self._store.peek(key)
            if entry is None or now - entry[3] < self.ttl:
                return None
            return entry[0], entry[2], now - entry[3]

    def set(
        self,
        key: Hashable,
        value: Any,
        size: int,
        *,
        budget: Budget | None = None,
        age: float = 0.0,
    ) -> int | None:
        """Store `value` as `size` bytes, `age` seconds old (a copy of an older answer), and
        return its stamp, or None when it is not stored: larger than `max_bytes`, a new key not
        looked up more often than every fresh entry it would evict, or a new key beyond
        `budget` (asked only once the key would be admitted). Replacing a stored key needs
        neither, and is not an eviction."""
        with self._lock, self._store.timer as now:
            store = self._store
            store.expire()
            resident = store.pop(key, None) is not None
            if size < 0 or size > self.max_bytes or age >= self.ttl + self.grace:
                return None
            victims, stale = self._victims(size, now)
            if not resident:
                wanted = self._sketch.estimate(key)
                fresh = victims[stale:]  # a stale entry makes room for any key
                if any(self._sketch.estimate(victim) >= wanted for victim in fresh):
                    self.rejections += 1
                    return None
                if budget is not None and not budget(size):
                    self.over_budget += 1
                    return None
            for victim in victims:
                del store[victim]
                store.evictions += 1
            stamp = next(self._stamps)
            store[key] = (value, size, stamp, now - age)
            return stamp

    def discard(self, key: Hashable, stamp: int) -> None:
        """Drop `key` if it still holds the value stamped `stamp` (not an eviction)."""
        with self._lock, self._store.timer:
            entry = self._store.peek(key)
            if entry is not None and entry[2] == stamp:
                del self._store[key]

    def _victims(self, size: int, now: float) -> tuple[list[Hashable], int]:
        """The keys whose removal makes room for `size` more bytes, stale ones first, then the
        least recently used; and how many of them are stale."""
        store = self._store
        count, free = len(store), self.max_bytes - int(store.currsize)
        if count < self.max_entries and size <= free:
            return [], 0
        stale = [k for k in store.order if self.grace and now - store.peek_born(k) >= self.ttl]
        first = set(stale)
        victims: list[Hashable] = []
        for key in itertools.chain(stale, (k for k in store.order if k not in first)):
            if count < self.max_entries and size <= free:
                break
            victims.append(key)
            count, free = count - 1, free + store.order[key]
        return victims, min(len(victims), len(stale))

    @property
    def stale_entries(self) -> int:
        """Entries kept past their TTL (last good copies)."""
        with self._lock, self._store.timer as now:
            self._store.expire()
            store = self._store
            return sum(now - store.peek_born(key) >= self.ttl for key in list(store.order))

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
        stale = ("grace", "stale_entries") if self.grace else ()  # with none, as before
        return {name: getattr(self, name) for name in (*names, *stale)}
