"""Single flight across replicas: one replica fetches a cold answer, the others wait for it.

Local single flight stays first (pwc_mcp/caching/cache.py): of the concurrent identical misses in one
process only its leader gets here. That leader reads level 2 (pwc_mcp/caching/shared_cache.py) and,
on a miss, takes a short lease (`SET lease token NX PX 3000`) in the same round trip, atomically
(one Lua script: no holder can store and let go between the look and the lease):

* taken: it fetches from the upstream; a keeper thread renews the lease every second while it
  does, so a live holder keeps it through a slow upstream and a dead one loses it within 3 s.
  It stores a complete answer and releases the lease in one round trip, in that order
  (compare-and-delete: never another holder's), so a waiter never sees the lease gone before
  the answer is there. A cold call costs two round trips to Redis in all, a level-2 hit one.
* held by another replica: it polls, with backoff from 5 ms to 50 ms, the lease and the answer
  in one round trip until the answer appears (a shared join), the lease goes without one (the
  holder died, failed, or got an answer it may not share), the wait runs out (the catalog
  timeout, or the call's own deadline if sooner), or Redis fails or the call's Redis time is
  spent (pwc_mcp/storage/budget.py). Then it fetches directly.
* a value is stored but unusable (invalid, or an answer this route may not take): it fetches
  directly, and what it fetches replaces the value.
* a value is stored but stale (its time left is within the `grace` the caller keeps answers past
  their TTL, pwc_mcp/caching/stale.py): it counts as none, a lease is taken as for a miss, and
  the stale value rides on the `Lease`, the last good answer should the fetch fail.

Every way out is the direct request this replica would have made without Redis: a lease can
delay a call by at most the wait, never fail it. Counters (leases taken, waits, joins, and why
a wait ended without an answer) are content-free, for /metrics.
"""

from __future__ import annotations

import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from pwc_core import deadline
from pwc_mcp.caching.shared_cache import Found, SharedCache

T = TypeVar("T")

LEASE_SECONDS = 3.0
RENEW_EVERY = 1.0
FIRST_PAUSE, MAX_PAUSE = 0.005, 0.05
WAIT_SECONDS = 25.0  # the catalog timeout: the holder's request ends by then

# Compare-and-delete and compare-and-extend: a lease is only ever changed by its holder.
_RELEASE = (
    "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0"
)
_RENEW = (
    "if redis.call('get', KEYS[1]) == ARGV[1] then "
    "return redis.call('pexpire', KEYS[1], ARGV[2]) end return 0"
)
# One look: the answer (GETRANGE, PTTL) and, only when there is none or it is stale (no more
# than ARGV[4] ms left), the lease; the third reply is 1 when the lease was taken, 0 when another
# holds it, -1 when a fresh value was there.
_FIND = (
    "local value = redis.call('getrange', KEYS[1], 0, ARGV[1]) "
    "local ttl = redis.call('pttl', KEYS[1]) "
    "if value ~= '' and ttl > tonumber(ARGV[4]) then return {value, ttl, -1} end "
    "if redis.call('set', KEYS[2], ARGV[2], 'NX', 'PX', ARGV[3]) then return {value, ttl, 1} end "
    "return {value, ttl, 0}"
)
_COUNTS = ("leases", "waits", "joins", "holder_gone", "wait_expired", "redis_failed")


@dataclass(frozen=True)
class Hit(Generic[T]):
    """An answer found in level 2: directly, or (`joined`) after waiting on another replica."""

    value: T
    ttl: float
    joined: bool


class Lease:
    """Permission to fetch: `held` when this replica holds the shared lease (it then publishes
    or releases), not held when it fetches directly (no Redis, a wait that ended)."""

    def __init__(
        self,
        flight: SharedFlight,
        namespace: str,
        key: str,
        token: str | None,
        stale: Found | None = None,
    ) -> None:
        self._flight, self.namespace, self.key, self.token = flight, namespace, key, token
        self.stale = stale  # a stale value level 2 still kept (see the module's docstring)

    @property
    def held(self) -> bool:
        return self.token is not None

    def publish(self, payload: bytes, ttl: float) -> None:
        """Store a complete answer for the other replicas and let go, in this order (see the
        module's docstring). A direct fetch shares its answer too."""
        if not self._flight.share(self, payload, ttl):
            self.release()

    def release(self) -> None:
        if self.token is not None:
            self._flight.release(self)


class SharedFlight:
    """Leases in the shared cache's Redis, under its health (pwc_mcp/storage/health.py)."""

    def __init__(
        self,
        cache: SharedCache,
        *,
        lease_seconds: float = LEASE_SECONDS,
        renew_every: float = RENEW_EVERY,
        wait_seconds: float = WAIT_SECONDS,
        clock: Callable[[], float] = time.monotonic,
        pause: Callable[[float], object] | None = None,
    ) -> None:
        self.cache = cache
        self.lease_ms = max(1, int(lease_seconds * 1000))
        self.wait_seconds = wait_seconds
        self.clock = clock
        self.pause = pause or threading.Event().wait  # never set: an interruptible sleep
        self._held: dict[str, str] = {}  # lease name: token, renewed by the keeper
        self._lock = threading.Lock()
        self._keeper: threading.Thread | None = None
        self._renew_every = renew_every
        self.counts = dict.fromkeys(_COUNTS, 0)

    def find(
        self, namespace: str, key: str, decode: Callable[[bytes], T | None], grace: float = 0.0
    ) -> Hit[T] | Lease:
        """The fresh answer from level 2 (perhaps after another replica fetched it), or a
        `Lease` to fetch it; `decode` turns a payload into the answer, None when it is
        unusable; a value with no more than `grace` seconds left is stale."""
        name, token = self.cache.name("lease", namespace, key), secrets.token_hex(16)
        args = [token, self.lease_ms, int(grace * 1000)]
        read = self.cache.look(namespace, key, _FIND, [name], args)
        if read is None:  # Redis failing, or this call's Redis time spent
            return Lease(self, namespace, key, None)
        found, taken = read
        stale = found if found is not None and found.ttl <= grace else None
        hit = None if stale else self._decoded(found, decode, joined=False)
        if hit is not None:
            return hit
        if taken == 0:
            return self._wait(namespace, key, name, decode, (grace, stale))
        if taken != 1:  # an unusable value: fetch, and replace it
            return Lease(self, namespace, key, None)
        self._count("leases")
        self._hold(name, token)
        return Lease(self, namespace, key, token, stale)

    def _wait(
        self,
        namespace: str,
        key: str,
        name: str,
        decode: Callable[[bytes], T | None],
        last: tuple[float, Found | None],
    ) -> Hit[T] | Lease:
        grace, stale = last
        self._count("waits")
        left = deadline.remaining()
        wait = self.wait_seconds if left is None else max(0.0, min(self.wait_seconds, left))
        until, pause = self.clock() + wait, FIRST_PAUSE
        while True:
            if self.clock() >= until:
                self._count("wait_expired")
                return Lease(self, namespace, key, None, stale)
            self.pause(pause)
            pause = min(pause * 2, MAX_PAUSE)
            # The lease first: a holder stores before it lets go, so "gone" means "no answer".
            read = self.cache.read(namespace, key, first=("EXISTS", name))
            if read is None:
                self._count("redis_failed")
                return Lease(self, namespace, key, None, stale)
            fresh = read[0] is not None and read[0].ttl > grace  # not the stale value again
            hit = self._decoded(read[0], decode, joined=True) if fresh else None
            if hit is not None:
                self._count("joins")
                return hit
            if not read[1]:
                self._count("holder_gone")
                return Lease(self, namespace, key, None, stale)

    @staticmethod
    def _decoded(found: Any, decode: Callable[[bytes], T | None], *, joined: bool) -> Hit[T] | None:
        if found is None:
            return None
        value = decode(found.payload)
        return None if value is None else Hit(value, found.ttl, joined)

    # -- holding ----------------------------------------------------------------------------

    def share(self, lease: Lease, payload: bytes, ttl: float) -> bool:
        """Store `payload` and release `lease` (if held) in one round trip; False if not stored."""
        name = self.cache.name("lease", lease.namespace, lease.key)
        release = ("EVAL", _RELEASE, 1, name, lease.token) if lease.token is not None else ()
        if not self.cache.put(lease.namespace, lease.key, payload, ttl, then=release):
            return False
        self._drop(lease, name)
        return True

    def release(self, lease: Lease) -> None:
        name, token = self.cache.name("lease", lease.namespace, lease.key), lease.token
        self._drop(lease, name)
        self.cache.run(lambda: self.cache.redis.eval(_RELEASE, 1, name, token))  # or it expires

    def _drop(self, lease: Lease, name: str) -> None:
        with self._lock:
            self._held.pop(name, None)
        lease.token = None

    def _hold(self, name: str, token: str) -> None:
        with self._lock:
            self._held[name] = token
            if self._keeper is None:
                self._keeper = threading.Thread(target=self._keep, name="pwc-leases", daemon=True)
                self._keeper.start()

    def _keep(self) -> None:
        """Renew every held lease each `renew_every` seconds; ends when none is held (the next
        lease starts another)."""
        tick = threading.Event()
        while True:
            tick.wait(self._renew_every)
            with self._lock:
                held = list(self._held.items())
                if not held:
                    self._keeper = None
                    return
            for name, token in held:
                try:
                    self.cache.redis.eval(_RENEW, 1, name, token, self.lease_ms)
                except Exception:  # Redis failing: the lease lapses and the waiters fetch
                    break

    def _count(self, name: str) -> None:
        with self._lock:
            self.counts[name] += 1

    def stats(self) -> dict[str, Any]:
        with self._lock:
            return {**self.counts, "held": len(self._held)}
