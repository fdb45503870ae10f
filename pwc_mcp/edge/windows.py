"""Moving-window counters: in this process (``MemoryWindows``), or in a shared ``limits``
storage (Redis), failing safe, not open.

In memory the windows are our own: ``limits``' memory storage inserts every hit at the head of a
list (a copy of the whole window per hit) and wakes a timer thread every 10 ms to walk every
stored hit, which the per-layer benchmark showed on every cached call. A shared storage (Redis)
does network I/O and stays async; it is built on first use because async storages bind to the
event loop that serves requests.

When the shared storage fails, the same windows are kept in this process's memory instead
(each replica then enforces the limits on its own: N replicas admit up to N x a limit, never
unlimited); retries, the rate-limited warning and ``degraded`` follow the one rule for shared
storages (pwc_mcp/storage/health.py): an error, a timeout (0.5 s) or a reply later than 0.2 s.

Clocks: the in-process windows run on the monotonic clock, so a wall-clock step (NTP, an
operator, a VM resumed) changes no limit, no Retry-After and no sweep. The shared windows are
``limits``' Redis moving windows: each replica stamps a hit with its own wall clock and the
entries expire by Redis's, so they rely on the replicas' clocks being synchronised (NTP
slewing); a replica whose clock is off by d seconds counts windows d seconds early or late,
never unlimited, and its Retry-After is computed on the same clock that stamped the hits.
"""

from __future__ import annotations

import logging
import math
import time
from collections import deque
from collections.abc import Callable

from limits import RateLimitItem
from limits.aio.strategies import MovingWindowRateLimiter
from limits.storage import storage_from_string

from pwc_mcp.storage.health import REDIS_OPTIONS, RETRY_SECONDS, WARN_SECONDS, StorageHealth

log = logging.getLogger("pwc_mcp.limits")

NAMESPACE = "pwc-mcp"


def seconds_to_wait(reset_time: float, now: float) -> int:
    # A hit frees its slot strictly after reset_time (the window bound is inclusive), so round
    # down and add one: a client that waits exactly Retry-After gets through.
    return max(1, math.floor(reset_time - now) + 1)


class MemoryWindows:
    """Exact moving windows in this process: per key, the times of its admitted hits, oldest
    first. A hit is admitted while fewer than the limit fall within the last `expiry` seconds
    (a hit exactly `expiry` old still counts, as in ``limits``). A key holds at most its limit of
    times, so a flooding client costs no more than a polite one; a key idle for a whole window
    is dropped by a sweep that runs at most once per SWEEP_SECONDS and visits keys, not hits.
    All keys together hold at most `max_hits` times: past it the keys idle longest (least
    recently checked) go first, and a key checked recently (even one refused) stays. Only the
    event loop calls it, so it needs no lock.
    """

    SWEEP_SECONDS = 10.0
    MAX_HITS = 1_000_000  # about 32 MB of times: thousands of clients at every limit at once

    def __init__(self, now: Callable[[], float], *, max_hits: int = MAX_HITS) -> None:
        self.now = now
        self.max_hits = max_hits
        self._hits: dict[tuple[str, ...], deque[float]] = {}  # least recently checked first
        self._stored = 0  # times held, over every key
        self.evicted = 0  # keys dropped for the cap (content-free, for /metrics)
        self._longest = 0.0  # the longest window seen: what a sweep may drop
        self._swept = now()

    def __len__(self) -> int:
        return len(self._hits)

    def check(self, item: RateLimitItem, keys: tuple[str, ...], *, record: bool) -> int | None:
        """None when admitted (and, with `record`, counted), else the seconds to wait."""
        now, expiry = self.now(), item.get_expiry()
        self._longest = max(self._longest, expiry)
        if now - self._swept >= self.SWEEP_SECONDS:
            self._sweep(now)
        key = (str(item.amount), str(expiry), *keys)
        hits = self._hits.pop(key, None)
        if hits is not None:
            self._hits[key] = hits  # now the most recently checked
            while hits and hits[0] < now - expiry:
                hits.popleft()
                self._stored -= 1
        if hits is not None and len(hits) >= item.amount:
            return seconds_to_wait(hits[0] + expiry, now)
        if record:
            while self._stored >= self.max_hits and self._evict(key):
                pass
            if hits is None:
                hits = self._hits[key] = deque()
            hits.append(now)
            self._stored += 1
        return None

    def _evict(self, keep: tuple[str, ...]) -> bool:
        """Drop the key idle longest (never `keep`); False when none is left to drop."""
        oldest = next(iter(self._hits), keep)
        if oldest == keep:
            return False
        self._stored -= len(self._hits.pop(oldest))
        self.evicted += 1
        return True

    def _sweep(self, now: float) -> None:
        self._swept = now
        stale = [k for k, hits in self._hits.items() if not hits or hits[-1] < now - self._longest]
        for key in stale:
            self._stored -= len(self._hits.pop(key))


class Windows:
    """``hit`` and ``test`` moving windows: None when admitted, else the seconds to wait."""

    def __init__(
        self,
        storage_uri: str,
        *,
        clock: Callable[[], float] = time.monotonic,
        retry_seconds: float = RETRY_SECONDS,
        warn_seconds: float = WARN_SECONDS,
    ) -> None:
        self.storage_uri = storage_uri
        self.shared = not storage_uri.startswith("memory://")
        # Read through this module so that tests can move the clocks.
        self.memory = MemoryWindows(lambda: time.monotonic())
        self.health = StorageHealth(
            log,
            unavailable="rate-limit storage unavailable type=%s; limiting in process memory",
            restored="rate-limit storage answering again; limits are shared",
            clock=clock,
            retry_seconds=retry_seconds,
            warn_seconds=warn_seconds,
        )
        self._remote: MovingWindowRateLimiter | None = None

    @property
    def degraded(self) -> bool:
        return self.health.degraded

    async def hit(self, item: RateLimitItem, *keys: str) -> int | None:
        return await self._check(item, keys, record=True)

    async def test(self, item: RateLimitItem, *keys: str) -> int | None:
        """Like ``hit`` without recording one: would a hit be admitted now?"""
        return await self._check(item, keys, record=False)

    async def _check(
        self, item: RateLimitItem, keys: tuple[str, ...], *, record: bool
    ) -> int | None:
        remote = self._usable_remote()
        if remote is not None:
            started = self.health.clock()
            try:
                check = remote.hit if record else remote.test
                room = await check(item, NAMESPACE, *keys)
                stats = None if room else await remote.get_window_stats(item, NAMESPACE, *keys)
            except Exception as exc:  # any storage failure: limit in memory instead
                self.health.failed(exc)
            else:
                self.health.replied(started)  # a slow reply degrades: the next checks stay here
                # ``limits`` stamps its Redis windows with this wall clock (module docstring).
                return None if stats is None else seconds_to_wait(stats.reset_time, time.time())
        return self.memory.check(item, keys, record=record)

    def _usable_remote(self) -> MovingWindowRateLimiter | None:
        if not self.shared or not self.health.usable():
            return None
        if self._remote is None:
            storage = storage_from_string(
                "async+" + self.storage_uri, implementation="redispy", **REDIS_OPTIONS
            )
            self._remote = MovingWindowRateLimiter(storage)
        return self._remote
