"""The storage under the server's caches (cachetools' TTLCache, admission by frequency): what it
drops, and why it counts."""

from __future__ import annotations

from pwc_mcp.caching.bounded_cache import BoundedTTLCache


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_expired_entries_are_expirations_never_evictions() -> None:
    clock = Clock()
    cache = BoundedTTLCache(ttl=60, max_entries=2, max_bytes=100, clock=clock)
    cache.set("a", "A", 10)
    cache.set("b", "B", 10)
    clock.now += 60
    cache.set("c", "C", 10)  # the two expired entries make the room, not an LRU eviction
    assert (cache.evictions, cache.expirations, cache.entries, cache.bytes) == (0, 2, 1, 10)


def test_an_expired_entry_is_dropped_at_lookup() -> None:
    clock = Clock()
    cache = BoundedTTLCache(ttl=60, max_entries=2, max_bytes=100, clock=clock)
    cache.set("a", "A", 10)
    clock.now += 59.5
    assert cache.get("a") == "A"
    clock.now += 0.5
    assert cache.get("a") is None and cache.expirations == 1


def test_replacing_an_entry_restarts_its_ttl() -> None:
    clock = Clock()
    cache = BoundedTTLCache(ttl=60, max_entries=2, max_bytes=100, clock=clock)
    cache.set("a", "A", 10)
    clock.now += 50
    cache.set("a", "A2", 30)
    clock.now += 50
    assert cache.get("a") == "A2" and (cache.bytes, cache.evictions) == (30, 0)


def test_both_bounds_evict_least_recently_used_first() -> None:
    cache = BoundedTTLCache(ttl=60, max_entries=3, max_bytes=100, clock=Clock())
    for key in "abc":
        cache.set(key, key, 30)
    assert cache.get("a") == "a"  # "b" is now the least recently used
    cache.get("d")  # looked up more often than "b" and "c" (never), so it may displace them
    cache.set("d", "d", 50)  # needs two places by bytes: "b", then "c"
    assert [cache.get(k) for k in "abcd"] == ["a", None, None, "d"]
    assert (cache.entries, cache.bytes, cache.evictions) == (2, 80, 2)
    assert cache.stats() == {
        "ttl": 60,
        "entries": 2,
        "bytes": 80,
        "max_entries": 3,
        "max_bytes": 100,
        "evictions": 2,
        "expirations": 0,
        "rejections": 0,
        "over_budget": 0,
    }


def test_a_flood_of_distinct_keys_keeps_the_frequency_table_bounded() -> None:
    # the admission counts are the defence against bursts; they must not become the attack
    from pwc_mcp.caching.bounded_cache import Frequencies

    capacity = 64
    table = Frequencies(capacity)
    for i in range(100 * capacity):
        table.add(f"key-{i}")
    assert len(table._counts) <= 15 * capacity
    for _ in range(20 * capacity):  # one key asked for constantly stays counted, capped
        table.add("hot")
    assert 0 < table.estimate("hot") <= 15
