"""The health of a storage the replicas share (Redis), and what to do while it fails.

Both shared storages keep serving from process memory when Redis fails: the rate-limit windows
(pwc_mcp/edge/windows.py: each replica then limits on its own, never unlimited) and the second-level
answer cache (pwc_mcp/caching/shared_cache.py: each replica then caches on its own). One rule for both,
kept here: a failure marks the storage degraded, and so does a reply that came later than
``slow_seconds`` (a Redis that answers every call in 0.8 s stalls calls as surely as one that
fails, so it counts the same); while degraded it is retried at most every ``retry_seconds`` (one
probe at a time, the rest skip it); the failure is logged at most once per ``warn_seconds`` with
the exception type only (a Redis error message names the host; a slow reply is "SlowReply"); and
``degraded`` stays true, for the operator's /health and /metrics, until the storage answers in
time again. Counters (failures, slow replies, operations skipped while degraded) are
content-free, for /metrics.

Every time here is on the monotonic clock: a wall-clock step neither ends a retry wait early nor
makes one last for hours.
"""

from __future__ import annotations

import logging
import math
import threading
import time
from collections.abc import Callable
from typing import Any

RETRY_SECONDS = 5.0
WARN_SECONDS = 60.0
SLOW_SECONDS = 0.2  # a reply later than this counts as a failure
# A Redis that stops answering must not hold a request for the OS's connect timeout (minutes),
# nor for long at all: one operation waits at most this long for its connection or reply.
OPERATION_SECONDS = 0.5
REDIS_OPTIONS = {"socket_timeout": OPERATION_SECONDS, "socket_connect_timeout": OPERATION_SECONDS}


class StorageHealth:
    """Thread-safe: the answer cache asks from worker threads, the limits from the event loop."""

    def __init__(
        self,
        log: logging.Logger,
        *,
        unavailable: str,
        restored: str,
        clock: Callable[[], float] = time.monotonic,
        retry_seconds: float = RETRY_SECONDS,
        warn_seconds: float = WARN_SECONDS,
        slow_seconds: float = SLOW_SECONDS,
    ) -> None:
        self.log = log
        self.unavailable = unavailable  # a %s for the exception type
        self.restored = restored
        self.clock = clock
        self.retry_seconds = retry_seconds
        self.warn_seconds = warn_seconds
        self.slow_seconds = slow_seconds
        self.degraded = False
        self.failures = 0  # operations that failed (each fell back to process memory)
        self.slow = 0  # replies that came later than slow_seconds (used, but degraded)
        self.skipped = 0  # operations not tried while degraded (served from memory too)
        self._lock = threading.Lock()
        self._retry_at = -math.inf
        self._warned_at = -math.inf

    def usable(self) -> bool:
        """Whether to try the storage now: it is healthy, or the one retry that is due."""
        with self._lock:
            if not self.degraded:
                return True
            now = self.clock()
            if now < self._retry_at:
                self.skipped += 1
                return False
            self._retry_at = now + self.retry_seconds  # this caller probes; the rest skip
            return True

    def replied(self, started: float) -> float:
        """An operation begun at `started` (on `clock`) answered: healthy if in time, else
        degraded like a failure. The seconds it took."""
        took = self.clock() - started
        if took > self.slow_seconds:
            self._degrade("slow", "SlowReply")
        else:
            self.answered()
        return took

    def failed(self, exc: BaseException) -> None:
        self._degrade("failures", type(exc).__name__)

    def _degrade(self, counter: str, kind: str) -> None:
        with self._lock:
            now = self.clock()
            self.degraded = True
            setattr(self, counter, getattr(self, counter) + 1)
            self._retry_at = now + self.retry_seconds
            warn = now - self._warned_at >= self.warn_seconds
            if warn:
                self._warned_at = now
        if warn:
            self.log.warning(self.unavailable, kind)

    def answered(self) -> None:
        with self._lock:
            was = self.degraded
            self.degraded = False
        if was:
            self.log.warning(self.restored)

    def stats(self) -> dict[str, Any]:
        with self._lock:
            return {
                "degraded": self.degraded,
                "failures": self.failures,
                "slow": self.slow,
                "skipped": self.skipped,
            }
