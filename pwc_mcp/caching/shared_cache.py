"""The second-level cache: upstream answers shared by the replicas through Redis.

Set by `PWC_MCP_CACHE_STORAGE=redis://...`; unset, there is none and nothing changes. Each
replica keeps its in-process caches (level 1, pwc_mcp/caching/cache.py); a level-1 miss asks Redis
(level 2) before the upstream, and an answer fetched is stored there for the other replicas.
What is shared is what level 1 keeps: answers read whole and parsed into their route's shape,
public-metadata misses, Markdown chunks (pwc_mcp/caching/shared_values.py encodes them); never an error.

Keys: `pwc-mcp:answer:v{FORMAT}:{namespace}:{digest}` (leases: `pwc-mcp:lease:...`, in
pwc_mcp/caching/leases.py). FORMAT is the payload format's version: a deploy that changes the format
reads none of the old entries (they expire by their TTL). The digest is a keyed BLAKE2b of the
level-1 key (itself injective: the exact upstream request), keyed by a secret derived from the
cursor key every replica shares, so Redis holds no query, paper or path in clear, and nobody
without the secret can name an entry.

Values: `tag || payload`, the tag a keyed BLAKE2b of (FORMAT, level-1 key, payload). A value is
a miss, counted `invalid`, when it is longer than the per-answer bound (read with GETRANGE, so
no more than the bound plus one byte ever comes back), carries no expiry, or its tag does not
match: written by anything but a replica holding the secret, for another key, or corrupted. The
decoders check the payload's shape again after that. A value above the bound is never stored.

Failures: every Redis error or timeout (0.5 s for a connection or a reply, no retries) is a
miss, and so is the rest of a call once its Redis time is spent (pwc_mcp/storage/budget.py: 0.5 s
a call, counted `over_budget`). An error, a timeout or a reply later than 0.2 s turns the storage
degraded by the rule of pwc_mcp/storage/health.py: skipped for 5 s, one warning a minute with the
exception type only, the operator's /health says `"cache": "degraded"`. Never an error to the
client: the replica falls back to its own cache and the upstream.
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

from pwc_mcp.config.storage_urls import redis_py_url
from pwc_mcp.cursors import derived_key
from pwc_mcp.storage import budget
from pwc_mcp.storage.health import REDIS_OPTIONS, RETRY_SECONDS, WARN_SECONDS, StorageHealth

if TYPE_CHECKING:
    import redis

    from pwc_mcp.config import Settings

log = logging.getLogger("pwc_mcp.cache")

# Bump when a payload's layout or meaning changes (pwc_mcp/caching/shared_values.py). 2: an
# answer is kept past its TTL as the last good copy (pwc_mcp/caching/stale.py).
FORMAT = 2
PREFIX = "pwc-mcp"
TAG_BYTES = 32
ENVELOPE_BYTES = 64 * 1024  # room beside the body: a reply's status and headers, a chunk's meta
CONNECTIONS = 64  # per replica; a worker thread beyond them waits for one (socket timeout)
_COUNTS = ("hits", "misses", "invalid", "stored", "too_big", "over_budget")
T = TypeVar("T")


@dataclass(frozen=True)
class Found:
    """A verified level-2 payload and the seconds it has left (its level-1 copy lives no longer)."""

    payload: bytes
    ttl: float


def cache_secret(cursor_key: bytes) -> bytes:
    """The key for digests and tags, derived from the cursor key the replicas share (domain
    separated: the cursor key itself never leaves the process)."""
    return derived_key(cursor_key, b"pwc-mcp-cache")


def redis_client(url: str) -> redis.Redis:
    """A bounded pool with short socket timeouts and no retries: a failing Redis costs a call
    at most one timeout, then the storage is skipped (pwc_mcp/storage/health.py)."""
    import redis as redis_py
    from redis.backoff import NoBackoff
    from redis.retry import Retry

    pool = redis_py.BlockingConnectionPool.from_url(
        redis_py_url(url),
        max_connections=CONNECTIONS,
        timeout=REDIS_OPTIONS["socket_timeout"],
        retry=Retry(NoBackoff(), 0),
        **REDIS_OPTIONS,
    )
    return redis_py.Redis(connection_pool=pool, retry=Retry(NoBackoff(), 0))


class SharedCache:
    """Level 2: `get`, `put` and `delete` by (namespace, level-1 key); thread-safe."""

    def __init__(
        self,
        client: Any,
        secret: bytes,
        *,
        max_value_bytes: int,
        clock: Callable[[], float] = time.monotonic,
        retry_seconds: float = RETRY_SECONDS,
        warn_seconds: float = WARN_SECONDS,
    ) -> None:
        self.redis = client
        self.secret = secret
        self.max_value_bytes = max_value_bytes  # tag and payload together
        self.health = StorageHealth(
            log,
            unavailable="cache storage unavailable type=%s; caching in process memory",
            restored="cache storage answering again; answers are shared",
            clock=clock,
            retry_seconds=retry_seconds,
            warn_seconds=warn_seconds,
        )
        self._lock = threading.Lock()
        self.counts = dict.fromkeys(_COUNTS, 0)

    @classmethod
    def from_settings(cls, settings: Settings) -> SharedCache | None:
        if settings.cache_storage is None:
            return None
        return cls(
            redis_client(settings.cache_storage),
            cache_secret(settings.cursor_key_current),
            max_value_bytes=TAG_BYTES + ENVELOPE_BYTES + settings.max_response_bytes,
        )

    # -- names ----------------------------------------------------------------------------

    def name(self, kind: str, namespace: str, key: str) -> str:
        digest = hashlib.blake2b(key.encode(), key=self.secret, digest_size=32).hexdigest()
        return f"{PREFIX}:{kind}:v{FORMAT}:{namespace}:{digest}"

    def _tag(self, key: str, payload: bytes) -> bytes:
        mac = hashlib.blake2b(key=self.secret, digest_size=TAG_BYTES, person=b"pwc-mcp-tag")
        for part in (str(FORMAT).encode(), key.encode()):
            mac.update(len(part).to_bytes(8, "big") + part)  # length-prefixed: one reading only
        mac.update(payload)
        return mac.digest()

    # -- level 2 --------------------------------------------------------------------------

    def get(self, namespace: str, key: str) -> Found | None:
        """The verified payload stored for `key`, or None (absent, invalid, Redis failing)."""
        read = self.read(namespace, key)
        return None if read is None else read[0]

    def read(
        self, namespace: str, key: str, first: Sequence[Any] = ()
    ) -> tuple[Found | None, Any] | None:
        """(`get`, the reply to the Redis command `first`, run just before) in one round trip,
        or None when Redis is failing. pwc_mcp/caching/leases.py takes or checks a lease this way."""
        name = self.name("answer", namespace, key)

        def look() -> Any:
            pipe = self.redis.pipeline(transaction=False)
            if first:
                pipe.execute_command(*first)
            pipe.getrange(name, 0, self.max_value_bytes)  # at most the bound + 1 bytes
            pipe.pttl(name)
            return pipe.execute()

        ran = self.run(look)
        if ran is None:
            return None
        replies = ran[0]
        return self._verified(key, replies[-2], replies[-1]), replies[0] if first else None

    def look(
        self, namespace: str, key: str, script: str, keys: Sequence[str], args: Sequence[Any]
    ) -> tuple[Found | None, Any] | None:
        """Like `read`, by a Lua `script`, atomically: it gets KEYS = [the answer's name, *keys]
        and ARGV = [the last byte GETRANGE may read, *args], and returns [GETRANGE, PTTL, a
        reply of its own]. (`get`, that reply), or None when Redis is failing."""
        name = self.name("answer", namespace, key)
        ran = self.run(
            lambda: self.redis.eval(script, 1 + len(keys), name, *keys, self.max_value_bytes, *args)
        )
        if ran is None:
            return None
        raw, pttl, reply = ran[0]
        return self._verified(key, raw, pttl), reply

    def _verified(self, key: str, raw: Any, pttl: Any) -> Found | None:
        if not raw:
            self._count("misses")
            return None
        ok = (
            isinstance(raw, bytes)
            and TAG_BYTES < len(raw) <= self.max_value_bytes
            and isinstance(pttl, int)
            and pttl > 0  # -1: stored without an expiry, never by a replica
            and hmac.compare_digest(raw[:TAG_BYTES], self._tag(key, raw[TAG_BYTES:]))
        )
        if not ok:
            self._count("invalid")
            return None
        self._count("hits")
        return Found(raw[TAG_BYTES:], pttl / 1000)

    def put(
        self, namespace: str, key: str, payload: bytes, ttl: float, then: Sequence[Any] = ()
    ) -> bool:
        """Store `payload` for `ttl` seconds, then run the Redis command `then` in the same
        round trip (a lease's release); False when it is too big (`then` not run) or Redis
        fails."""
        if TAG_BYTES + len(payload) > self.max_value_bytes:
            self._count("too_big")
            return False
        value = self._tag(key, payload) + payload

        def store() -> Any:
            pipe = self.redis.pipeline(transaction=False)
            pipe.set(self.name("answer", namespace, key), value, px=max(1, int(ttl * 1000)))
            if then:
                pipe.execute_command(*then)
            return pipe.execute()

        if self.run(store) is None:
            return False
        self._count("stored")
        return True

    def delete(self, namespace: str, key: str) -> None:
        """Drop `key` (a call found its answer unusable: no replica may serve it again)."""
        self.run(lambda: self.redis.delete(self.name("answer", namespace, key)))

    def run(self, operation: Callable[[], T]) -> tuple[T] | None:
        """One round trip under the storage's health and the call's Redis budget: (its reply,),
        or None when it was skipped (degraded, the call's budget spent) or failed. The time it
        took is spent from the budget; a slow reply degrades the storage like a failure."""
        if not budget.affordable():
            self._count("over_budget")
            return None
        if not self.health.usable():
            return None
        started = self.health.clock()
        try:
            reply = operation()
        except Exception as exc:  # any storage failure is a miss
            budget.spend(self.health.clock() - started)
            self.health.failed(exc)
            return None
        budget.spend(self.health.replied(started))
        return (reply,)

    def _count(self, name: str) -> None:
        with self._lock:
            self.counts[name] += 1

    def stats(self) -> dict[str, Any]:
        with self._lock:
            counts = dict(self.counts)
        return {**counts, **self.health.stats(), "format": FORMAT}
