"""Moving-window counters in the configured ``limits`` storage, failing safe, not open.

In memory (the default) the synchronous storage is used: the async one hops to a worker thread
on every expiry sweep, which the benchmark's profile showed on every call. A shared storage
(Redis) does network I/O and stays async; it is built on first use because async storages bind
to the event loop that serves requests.

When the shared storage fails, the same windows are kept in this process's memory instead
(each replica then enforces the limits on its own: N replicas admit up to N x a limit, never
unlimited); retries, the rate-limited warning and ``degraded`` follow the one rule for shared
storages (pwc_mcp/storage_health.py).
"""

from __future__ import annotations

import logging
import math
import time
from collections.abc import Callable

from limits import RateLimitItem
from limits.aio.strategies import MovingWindowRateLimiter
from limits.storage import storage_from_string
from limits.strategies import MovingWindowRateLimiter as SyncMovingWindow

from pwc_mcp.storage_health import REDIS_OPTIONS, RETRY_SECONDS, WARN_SECONDS, StorageHealth

log = logging.getLogger("pwc_mcp.limits")

NAMESPACE = "pwc-mcp"


def seconds_to_wait(reset_time: float) -> int:
    # A hit frees its slot strictly after reset_time (the window bound is inclusive), so round
    # down and add one: a client that waits exactly Retry-After gets through.
    return max(1, math.floor(reset_time - time.time()) + 1)


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
        self.memory = SyncMovingWindow(storage_from_string("memory://"))
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
            try:
                check = remote.hit if record else remote.test
                room = await check(item, NAMESPACE, *keys)
                stats = None if room else await remote.get_window_stats(item, NAMESPACE, *keys)
            except Exception as exc:  # any storage failure: limit in memory instead
                self.health.failed(exc)
            else:
                self.health.answered()
                return None if stats is None else seconds_to_wait(stats.reset_time)
        local = self.memory.hit if record else self.memory.test
        if local(item, NAMESPACE, *keys):
            return None
        return seconds_to_wait(self.memory.get_window_stats(item, NAMESPACE, *keys).reset_time)

    def _usable_remote(self) -> MovingWindowRateLimiter | None:
        if not self.shared or not self.health.usable():
            return None
        if self._remote is None:
            storage = storage_from_string(
                "async+" + self.storage_uri, implementation="redispy", **REDIS_OPTIONS
            )
            self._remote = MovingWindowRateLimiter(storage)
        return self._remote
