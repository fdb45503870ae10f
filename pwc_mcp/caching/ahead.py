"""Refresh ahead: an answer read in the last fifth of its TTL is fetched again in the background,
so that no caller of a popular answer waits for the catalog when its TTL runs out.

The caller is answered from the cache at once; the refresh runs on a thread of its own (no call's
context: nothing it reads is a call's read, its Redis time a budget of its own,
pwc_mcp/storage/budget.py) and stores what it fetches as any miss would (pwc_mcp/caching/cache.py).
Bounds, so that it never costs the catalog more than the callers would:

* only a read triggers one, and only of an entry in its last fifth: never more upstream requests
  than keys actually read (a result remembered from a due entry is not served, so its call
  reads the entry: pwc_mcp/caching/memo.py);
* one per entry: the entry's stamp is remembered, so a key is refreshed at most once per TTL
  (a refresh that fails is not retried; the entry then expires as it would have, and stale if
  error takes over: pwc_mcp/caching/stale.py);
* at most `slots` at once per process (`PWC_MCP_REFRESH_AHEAD`, 0 turns it off); a due refresh
  beyond them is skipped, counted, and the entry expires as it would have;
* with a shared cache, one replica per entry: a refresh first claims the key in Redis for the
  rest of the TTL (`SET NX`); a replica that finds it claimed skips (`refresh_shared`), and its
  next miss finds the new answer in level 2. Redis failing, the replica refreshes itself.

Counters per path label (/metrics): `refreshes` begun, `refresh_skipped` (no slot free) and
`refresh_shared` (another replica refreshes).
"""

from __future__ import annotations

import contextlib
import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from pwc_mcp.caching.bounded_cache import BoundedTTLCache
from pwc_mcp.caching.shared_cache import SharedCache
from pwc_mcp.storage.budget import per_call

SHARE = 5  # the last fifth of a TTL
REFRESHES = 4  # at once per process, by default
REMEMBERED = 4096  # entries whose refresh is remembered (the oldest forgotten first)
_COUNTS = ("refreshes", "refresh_skipped", "refresh_shared")


def due(age: float, ttl: float) -> bool:
    """Whether an entry this old is in the last fifth of its TTL."""
    return age >= ttl - ttl / SHARE


class Ahead:
    """Background refreshes of due entries, within the bounds of the module's docstring."""

    def __init__(self, slots: int, shared: SharedCache | None = None) -> None:
        self.slots = slots
        self.shared = shared
        self._free = threading.BoundedSemaphore(max(1, slots))
        self._begun: OrderedDict[str, int] = OrderedDict()  # key: stamp of the entry refreshed
        self._lock = threading.Lock()
        self._counts: dict[str, dict[str, int]] = {}
        self.threads: list[threading.Thread] = []  # the ones running (tests join them)

    def wanted(self, key: str, found: tuple[Any, int, float], cache: BoundedTTLCache) -> bool:
        """Whether the entry `found` (value, stamp, age) of `key` is due a refresh not begun:
        a result remembered from it is not served, so that its call reads it again."""
        if self.slots <= 0 or not due(found[2], cache.ttl):
            return False
        with self._lock:
            return self._begun.get(key) != found[1]

    def consider(
        self, label: str, key: str, entry: tuple[int, float], ttl: float, run: Callable[[bool], Any]
    ) -> None:
        """Refresh the entry (stamp, age) of `key`, if due, by `run(True)` in the background,
        unless it was refreshed already or no slot is free."""
        stamp, age = entry
        if self.slots <= 0 or not due(age, ttl):
            return
        with self._lock:
            if self._begun.get(key) == stamp:
                return
            self._begun[key] = stamp
            self._begun.move_to_end(key)
            while len(self._begun) > REMEMBERED:
                self._begun.popitem(last=False)
        if not self._free.acquire(blocking=False):
            self._count(label, "refresh_skipped")
            return
        thread = threading.Thread(
            target=self._refresh, args=(label, key, ttl, run), name="pwc-ahead", daemon=True
        )
        with self._lock:
            self.threads.append(thread)
        thread.start()

    def _refresh(self, label: str, key: str, ttl: float, run: Callable[[bool], Any]) -> None:
        try:
            with per_call():
                if not self._claimed(key, ttl):
                    self._count(label, "refresh_shared")
                    return
                self._count(label, "refreshes")
                with contextlib.suppress(Exception):  # counted as the upstream failure it is
                    run(True)
        finally:
            with self._lock:
                self.threads.remove(threading.current_thread())
            self._free.release()

    def _claimed(self, key: str, ttl: float) -> bool:
        """Whether this replica may refresh `key` (the shared claim, or no shared cache)."""
        shared = self.shared
        if shared is None:
            return True
        name, claim_ms = shared.name("lease", "ahead", key), max(1, int(ttl / SHARE * 1000))
        ran = shared.run(lambda: shared.redis.set(name, b"1", nx=True, px=claim_ms))
        return ran is None or bool(ran[0])

    def _count(self, label: str, name: str) -> None:
        with self._lock:
            counts = self._counts.setdefault(label, dict.fromkeys(_COUNTS, 0))
            counts[name] += 1

    def stats(self) -> dict[str, Any]:
        with self._lock:
            families = {label: dict(c) for label, c in self._counts.items()}
        totals = {name: sum(c[name] for c in families.values()) for name in _COUNTS}
        return {"slots": self.slots, **totals, "families": families}
