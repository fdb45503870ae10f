"""Bounded upstream caches for the server: per-family TTLs, single-flight, content-free counters.

`CachedCatalog` wraps the shared `CatalogClient` as the handlers' `Catalog`. Answers are keyed
by the exact upstream request (`canonical_request`: path and encoded parameters as one JSON
array, so no value can pose as another parameter): spellings and tools making one request share
entries. Only answers read whole and parsed into the expected shape are stored (as body bytes);
a miss is parsed once, every hit afresh (no two callers share a mutable answer). Errors are
never stored, except public-metadata 404s. TTLs and ceilings per family: `FAMILIES` below, in
sixteenths of `max_entries` / `max_bytes` (defaults 2,048 / 64 MiB); a route's family is declared
with it, in the `ROUTES` of its pwc_core/commands module.

Fair shares: each cache admits a new key only over entries looked up less often
(pwc_mcp/caching/bounded_cache.py), and one call (a `reading()` block: every tool call and resource read
of the server) may add at most 1/16 of a family's entries and bytes, 1/8 of the chunk cache's
(one whole outline); what it reads beyond that is served, not stored. A call that fails because
an answer had the wrong shape drops every entry it read, so no such answer outlives the call.

Level 2 (`shared`, with `PWC_MCP_CACHE_STORAGE`): a local leader's miss asks the replicas' shared
cache and takes a lease in one round trip (pwc_mcp/caching/leases.py); what it keeps in level 1 it
also shares, and an entry copied from level 2 is as old there as here, so no answer is served
older than its family's TTL. A `reading()` block spends one call's Redis budget. Stale if error:
pwc_mcp/caching/stale.py (`max_stale`); refresh ahead: pwc_mcp/caching/ahead.py (`ahead`).

Counters per path label: `hits`/`misses` of level 1 (misses include coalesced waiters),
`coalesced` (joined this process's identical upstream call), `l2_hits`/`l2_misses` (the leader's
look in level 2), `shared_joins` (another replica fetched it during this one's lease wait),
`uncached` (chunked raw reads), `upstream_calls` by `status`, `upstream_failures` (timeouts,
transport errors, unusable answers, 429 and 5xx), `stale_served` (last good answers served).
"""

from __future__ import annotations

import contextlib
import functools
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

from pydantic_core import from_json

from pwc_core.errors import HTTPStatusError, UpstreamShapeError
from pwc_core.routes import GENERAL
from pwc_core.transport import CatalogClient, Reply, canonical_request, encode_params
from pwc_mcp.caching.ahead import Ahead
from pwc_mcp.caching.answer_checks import failed, parse, status_label
from pwc_mcp.caching.bounded_cache import Aged, BoundedTTLCache
from pwc_mcp.caching.cache_routes import ROUTES, classify, route, ttl_family
from pwc_mcp.caching.chunk_cache import CHUNK_CALL_SHARE, ChunkCache
from pwc_mcp.caching.families import CALL_SHARE, FAMILIES, MAX_ENTRIES
from pwc_mcp.caching.flights import Codec, Fetch, Flight, Led, size_of
from pwc_mcp.caching.leases import Hit, Lease, SharedFlight
from pwc_mcp.caching.reads import CURRENT, Read, Reads, allowance, answered_wrong, by_family, note
from pwc_mcp.caching.shared_values import (
    Miss,
    decode_answer,
    decode_reply,
    encode_body,
    encode_miss,
    encode_reply,
    keepable,
)
from pwc_mcp.caching.stale import LastGood, grace, noted
from pwc_mcp.config import MiB
from pwc_mcp.storage.budget import per_call

__all__ = ["CALL_SHARE", "CHUNK_CALL_SHARE", "FAMILIES", "MAX_ENTRIES", "ROUTES", "CachedCatalog"]
__all__ += ["ChunkCache", "Reads", "route", "ttl_family"]


FORGET_THREADS = 4  # level-2 deletes in flight; past it a shared entry ends with its TTL

# Per path label (the module's docstring says what each counts).
_LOCAL = ("hits", "misses", "coalesced", "uncached", "upstream_calls", "upstream_failures")
_COUNTERS = (*_LOCAL, "l2_hits", "l2_misses", "shared_joins", "stale_served")
# Why entries were dropped or never stored, summed over the caches (pwc_mcp/caching/bounded_cache.py).
_DROPS = ("evictions", "rejections", "over_budget")


class CachedCatalog:
    """The handlers' `Catalog` over a shared `CatalogClient`, with per-family bounded caches."""

    def __init__(
        self,
        client: CatalogClient,
        *,
        clock: Callable[[], float] = time.monotonic,
        max_entries: int = MAX_ENTRIES,
        max_bytes: int = 64 * MiB,
        shared: SharedFlight | None = None,
        max_stale: float = 0.0,
        ahead: int = 0,
        wall: Callable[[], float] = time.time,
    ) -> None:
        self.client = client
        self.clock = clock
        self.shared = shared
        self.caches = {
            name: BoundedTTLCache(
                ttl=ttl,
                max_entries=max(1, max_entries * entry_share // 16),
                max_bytes=max(1, max_bytes * byte_share // 16),
                clock=clock,
                grace=grace(ttl, max_stale),
            )
            for name, (ttl, entry_share, byte_share) in FAMILIES.items()
        }
        self.last_good = LastGood(max_stale, wall)
        self.ahead = Ahead(ahead, None if shared is None else shared.cache)
        self._lock = threading.Lock()
        self._forgetting = threading.BoundedSemaphore(FORGET_THREADS)
        self._flights: dict[str, Flight] = {}
        self._counters: dict[str, dict[str, Any]] = {}

    def get_json(
        self, path: str, params: Mapping[str, Any] | None = None, *, cached_only: bool = False
    ) -> Any:
        """The answer, parsed; with `cached_only`, None unless level 1 holds it (no fetch)."""
        label, shape, family = classify(path)

        parsed: list[tuple[bytes, Any]] = []  # (body, its parse) the leader fetched or borrowed

        def fetch() -> tuple[bytes, int | None, str]:
            reply = self.client.get(path, params)
            parsed.append((reply.body, parse(reply.body, shape)))
            return reply.body, len(reply.body), str(reply.status)

        def borrowed(payload: bytes) -> bytes | Miss | None:
            answer = decode_answer(payload)
            if isinstance(answer, Miss):
                return answer if family == "public_metadata" else None
            try:
                parsed[:] = [] if answer is None else [(answer, parse(answer, shape))]
            except UpstreamShapeError:
                return None
            return answer

        key = "json:" + canonical_request(path, encode_params(params))
        codec = (lambda v: encode_miss(v) if isinstance(v, Miss) else encode_body(v), borrowed)
        pull = None if cached_only else fetch
        body = self._load(key, family, label, pull, codec, cache_404=family == "public_metadata")
        if body is None:
            return None
        if isinstance(body, Miss):
            raise HTTPStatusError(body.status, body.detail)
        # A leader answers with the document it validated; hits and coalesced waiters parse afresh.
        return parsed[0][1] if parsed and parsed[0][0] is body else from_json(body)

    def get(self, path: str, params: Mapping[str, Any] | None = None) -> Reply:
        """Raw reply: a whole-document read (no params) is cached; a chunked read (params) is not."""
        label, _, family = classify(path)
        pairs = encode_params(params)
        if pairs:
            return self._uncached(label, path, params)

        def fetch() -> tuple[Reply, int | None, str]:
            reply = self.client.get(path, params)
            keep = keepable(reply.headers, reply.body)
            size = len(reply.body) if keep else None  # None: serve, never cache
            return Reply(reply.status, dict(reply.headers), reply.body), size, str(reply.status)

        key = "raw:" + canonical_request(path, pairs)
        value = self._load(key, family, label, fetch, (encode_reply, decode_reply))
        return Reply(value.status, dict(value.headers), value.body)

    @contextlib.contextmanager
    def reading(self) -> Iterator[Reads]:
        """One call: record every cache entry read inside the block (this context and the
        worker threads it hands to), for a result that may be reused while they stay current;
        hold what it adds to the caches, and its Redis time, to the call's share. A block that
        fails on an answer of the wrong shape forgets what it read: whichever answer, it is not
        served again (a handler may check more than the route's declared shape)."""
        reads = Reads()
        token = CURRENT.set(reads)
        try:
            with per_call():
                yield reads
        except BaseException as error:
            if answered_wrong(error):
                self.forget(reads.entries)
            raise
        finally:
            CURRENT.reset(token)

    def still_current(self, entries: Sequence[Read]) -> bool:
        """Whether every entry read is still the one cached under its key (one look a family),
        none due a refresh ahead (read it again); if so each counts as the hit it stands for."""
        with self._lock:
            for family, reads in by_family(entries).items():
                looks = (cache := self.caches[family]).lookup_aged([read[2] for read in reads])
                for (_, _, key, stamp), found in zip(reads, looks, strict=True):
                    if found is None or found[1] != stamp or self.ahead.wanted(key, found, cache):
                        return False
            for _, label, _, _ in entries:
                self._count(label, "hits")
        return True

    def forget(self, entries: Sequence[Read]) -> None:
        """Drop each entry read that is still the one cached under its key, in level 2 too
        (from a thread: this may run on the event loop, and Redis is network I/O)."""
        with self._lock:
            for family, _, key, stamp in entries:
                self.caches[family].discard(key, stamp)
        if self.shared is not None and entries:
            shared, dropped = self.shared.cache, [(family, key) for family, _, key, _ in entries]

            def drop() -> None:  # a slow Redis must not cost a thread per wrong answer
                try:
                    for family, key in dropped:
                        shared.delete(family, key)
                finally:
                    self._forgetting.release()

            if self._forgetting.acquire(blocking=False):
                threading.Thread(target=drop, name="pwc-forget", daemon=True).start()

    def stats(self) -> dict[str, Any]:
        """Content-free counters: totals, per path family, and per cache."""
        with self._lock:
            families = {
                label: {**c, "status": dict(c["status"])} for label, c in self._counters.items()
            }
        caches = {name: cache.stats() for name, cache in self.caches.items()}
        totals = {name: sum(c[name] for c in families.values()) for name in _COUNTERS}
        return {
            **totals,
            **{name: sum(c[name] for c in caches.values()) for name in _DROPS},
            "families": families,
            "caches": caches,
            "ahead": self.ahead.stats(),
        }

    def stale_served(self) -> dict[str, int]:  # per path label that served any (/health)
        with self._lock:
            return {k: c["stale_served"] for k, c in self._counters.items() if c["stale_served"]}

    # -- internals -------------------------------------------------------------------------

    def _count(self, label: str, name: str, status: str | None = None) -> None:
        """Caller holds `self._lock`."""
        counters = self._counters.get(label)
        if counters is None:
            counters = self._counters[label] = {**dict.fromkeys(_COUNTERS, 0), "status": {}}
        counters[name] += 1
        if status is not None:
            counters["status"][status] = counters["status"].get(status, 0) + 1
            if failed(status):
                counters["upstream_failures"] += 1

    def _lookup(self, family: str, key: str) -> Aged | None:
        """(value, stamp, age) of a fresh entry in level 1, or None. Caller holds `self._lock`."""
        return self.caches[family].lookup_aged((key,))[0]

    def _store(
        self, family: str, key: str, value: Any, size: int, ttl: float | None = None
    ) -> int | None:
        """Level 1 within the call's share, a copy from level 2 (`ttl` left there, stale time
        included) as old as it is there; caller holds `self._lock`."""
        cache = self.caches[family]
        age = 0.0 if ttl is None else max(0.0, cache.ttl + cache.grace - ttl)
        return cache.set(key, value, size, budget=allowance(family, cache, CALL_SHARE), age=age)

    def _uncached(self, label: str, path: str, params: Mapping[str, Any] | None) -> Reply:
        note(GENERAL, label, "", None)
        with self._lock:
            self._count(label, "uncached")
        try:
            reply = self.client.get(path, params)
        except BaseException as exc:
            with self._lock:
                self._count(label, "upstream_calls", status_label(exc))
            raise
        with self._lock:
            self._count(label, "upstream_calls", str(reply.status))
        return reply

    def _load(
        self,
        key: str,
        family: str,
        label: str,
        fetch: Fetch | None,
        codec: Codec,
        *,
        cache_404: bool = False,
    ) -> Any:
        """Cached value, or one upstream fetch shared by every concurrent identical miss (and,
        with level 2, by the replicas); without `fetch`, None on a miss."""
        with self._lock:
            found = self._lookup(family, key)
            if found is not None:
                self._count(label, "hits")
                note(family, label, key, found[1])
        if found is not None:
            if fetch is not None:  # refreshed in the background when due
                run = functools.partial(self._lead, key, family, label, fetch, codec, cache_404)
                self.ahead.consider(label, key, found[1:], self.caches[family].ttl, run)
            return found[0]
        with self._lock:
            if fetch is None:  # cached only
                return None
            self._count(label, "misses")
            flight = self._flights.get(key)
            leader = flight is None
            if flight is None:
                flight = self._flights[key] = Flight()
            else:
                self._count(label, "coalesced")
        if not leader:
            flight.done.wait()
            if flight.error is not None:
                note(family, label, key, None)
                raise flight.error
            note(family, label, key, flight.stamp)
            if flight.stale is not None:
                noted(flight.stale)
            return flight.value
        try:
            value, stamp, stale = self._lead(key, family, label, fetch, codec, cache_404)
        except BaseException as exc:
            with self._lock:
                flight.error = exc
                del self._flights[key]
            flight.done.set()
            raise
        with self._lock:
            flight.value, flight.stamp, flight.stale = value, stamp, stale
            del self._flights[key]
        flight.done.set()
        if stale is not None:
            noted(stale)
        return value

    def _lead(
        self,
        key: str,
        family: str,
        label: str,
        fetch: Fetch,
        codec: Codec,
        cache_404: bool,
        ahead: bool = False,
    ) -> Led:
        """The local leader's value, its level-1 stamp (None: not stored) and, for a last good
        answer standing in for a failure, its label: from level 2, else from the upstream under
        a lease, shared when it is complete. `ahead`: a refresh, which goes to the upstream."""
        cache = self.caches[family]
        flight = None if ahead else self.shared
        found = None if flight is None else flight.find(family, key, codec[1], cache.grace)
        if isinstance(found, Hit):
            with self._lock:
                self._count(label, "l2_hits")
                if found.joined:
                    self._count(label, "shared_joins")
                stamp = self._store(family, key, found.value, size_of(found.value), found.ttl)
                note(family, label, key, stamp)
            return found.value, stamp, None
        ttl = cache.ttl + cache.grace  # level 2 keeps it as long as level 1 does
        if found is not None:
            with self._lock:
                self._count(label, "l2_misses")
        try:
            try:
                value, size, status = fetch()
            except BaseException as exc:
                miss = None
                with self._lock:
                    self._count(label, "upstream_calls", status_label(exc))
                    stamp = None
                    if cache_404 and isinstance(exc, HTTPStatusError) and exc.status == 404:
                        miss = Miss(404, exc.detail)
                        stamp = self._store(family, key, miss, size_of(miss))
                    # A caller may recover from the failure: its result depends on it.
                    note(family, label, key, stamp)
                if found is not None and miss is not None:
                    found.publish(encode_miss(miss), ttl)
                kept = (found.stale if found else None, codec[1])
                last = self.last_good.find(cache, key, exc, kept)
                if last is None:
                    raise
                with self._lock:
                    self._count(label, "stale_served")
                return last[0], None, last[1]
            with self._lock:
                self._count(label, "upstream_calls", status)
                stamp = None if size is None else self._store(family, key, value, size)
                note(family, label, key, stamp)
            if size is not None and self.shared is not None:
                (found or Lease(self.shared, family, key, None)).publish(codec[0](value), ttl)
            return value, stamp, None
        finally:
            if found is not None:
                found.release()
