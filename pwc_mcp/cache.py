"""Bounded upstream caches for the server: per-family TTLs, single-flight, content-free counters.

`CachedCatalog` wraps the shared `CatalogClient` and implements the handlers' `Catalog`
protocol. Answers are keyed by the exact upstream request (`canonical_request`: path and
encoded parameters as one JSON array, so no value can pose as another parameter); spellings and
tools that resolve to the same request share entries. Only answers read whole and parsed into
the expected shape are stored (as body bytes). A miss is parsed once; every hit parses afresh,
so no two callers share a mutable answer. Errors are never stored, except public-metadata 404s.

Per-family ceilings (shares of the constructor's `max_entries` / `max_bytes`; defaults 512 / 64 MiB).
Each route's family is declared with the route, in the `ROUTES` of its pwc_cli/commands module:

| family          | upstream paths                                         | TTL    | entries  | bytes           |
|-----------------|--------------------------------------------------------|--------|----------|-----------------|
| search          | papers/search, papers/, papers/recent, papers/trending | 60 s   | 2/16: 64 | 2/16: 8 MiB     |
| taxonomy        | tasks/, methods/, areas/, conferences/, organizations/, frameworks/ | 600 s | 4/16: 128 | 4/16: 16 MiB |
| public_metadata | papers/{ref}/public-metadata, papers/public-metadata/search (misses too) | 3600 s | 2/16: 64 | 1/16: 4 MiB |
| general         | everything else (paper detail, related, lineage, datasets, evaluations, Markdown) | 300 s | 8/16: 256 | 9/16: 36 MiB |

`ChunkCache` (immutable versioned Markdown chunks) is separate: 3600 s, 256 entries, 16 MiB.

Fair shares: each cache admits a new key only over entries looked up less often
(pwc_mcp/bounded_cache.py), and one call (a `reading()` block: every tool call and resource read
of the server) may add at most 1/16 of a family's entries and bytes, 1/8 of the chunk cache's
(one whole outline); what it reads beyond that is served, not stored. A call that fails because
an answer had the wrong shape drops every entry it read, so no such answer outlives the call.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable, Hashable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from pydantic_core import from_json

from pwc_core.errors import HTTPStatusError, ResponseError, UpstreamShapeError, UpstreamTimeout
from pwc_core.routes import GENERAL, LIST, OBJECT, RESULTS
from pwc_core.transport import CatalogClient, Reply, canonical_request, encode_params
from pwc_mcp.bounded_cache import BoundedTTLCache, Budget
from pwc_mcp.cache_routes import ROUTES, classify, route, ttl_family
from pwc_mcp.reads import CURRENT, Read, Reads, allowance, answered_wrong, note

__all__ = ["FAMILIES", "ROUTES", "CachedCatalog", "ChunkCache", "Reads", "route", "ttl_family"]

MiB = 1024 * 1024
SHAPE_MESSAGE = "API returned an unexpected response shape"
LIST_MESSAGE = "API response did not contain a result list"

# family: (ttl seconds, entry share /16, byte share /16)
FAMILIES: dict[str, tuple[float, int, int]] = {
    "search": (60.0, 2, 2),
    "taxonomy": (600.0, 4, 4),
    "public_metadata": (3600.0, 2, 1),
    "general": (300.0, 8, 9),
}
CALL_SHARE = 16  # one call adds at most 1/16 of a family cache's entries and bytes
CHUNK_CALL_SHARE = 8  # and 1/8 of the chunk cache's: 32 chunks, the longest outline

# hits/misses: cache lookups (misses include coalesced waiters); coalesced: waited on another
# caller's identical upstream call; uncached: chunked raw reads that bypass the cache.
_COUNTERS = ("hits", "misses", "coalesced", "uncached", "upstream_calls")
# Why entries were dropped or never stored, summed over the caches (pwc_mcp/bounded_cache.py).
_DROPS = ("evictions", "rejections", "over_budget")


class ChunkCache(BoundedTTLCache):
    """Immutable versioned Markdown chunks; key with `ChunkCache.key(...)`."""

    def __init__(
        self,
        *,
        ttl: float = 3600.0,
        max_entries: int = 256,
        max_bytes: int = 16 * MiB,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        super().__init__(ttl=ttl, max_entries=max_entries, max_bytes=max_bytes, clock=clock)

    def set(
        self, key: Hashable, value: Any, size: int, *, budget: Budget | None = None
    ) -> int | None:
        """As `BoundedTTLCache.set`, within the current call's share of the chunk cache."""
        own = budget or allowance("chunks", self, CHUNK_CALL_SHARE)
        return super().set(key, value, size, budget=own)

    @staticmethod
    def key(paper: str, content_version: str, offset: int, limit: int) -> tuple[str, str, int, int]:
        return (paper, content_version, offset, limit)


@dataclass(frozen=True)
class _Miss:
    """A cached public-metadata 404, re-raised on every hit."""

    status: int
    detail: str


class _Flight:
    __slots__ = ("done", "value", "stamp", "error")

    def __init__(self) -> None:
        self.done = threading.Event()
        self.value: Any = None
        self.stamp: int | None = None  # of the stored answer; None when it was not stored
        self.error: BaseException | None = None


def _status_label(exc: BaseException) -> str:
    if isinstance(exc, UpstreamTimeout):
        return "timeout"
    if isinstance(exc, HTTPStatusError):
        return str(exc.status)
    if isinstance(exc, ResponseError):
        return "invalid"
    return "error"


def _parse(body: bytes, shape: str) -> Any:
    """The document of a body, checked against its route's shape. pydantic-core's parser is
    several times faster than json's, and hits parse with it too, so both agree exactly."""
    try:
        document = from_json(body)
    except ValueError as exc:
        raise UpstreamShapeError("API returned invalid JSON") from exc
    if not isinstance(document, dict | list) or (
        shape in (OBJECT, RESULTS) and not isinstance(document, dict)
    ):
        raise UpstreamShapeError(SHAPE_MESSAGE)
    if shape == RESULTS and not (
        isinstance(document, dict) and isinstance(document.get("results"), list)
    ):
        raise UpstreamShapeError(LIST_MESSAGE)
    if shape == LIST and isinstance(document, dict):
        rows = document.get("results")
        if not isinstance(rows if rows is not None else document.get("items"), list):
            raise UpstreamShapeError(LIST_MESSAGE)
    return document


class CachedCatalog:
    """The handlers' `Catalog` over a shared `CatalogClient`, with per-family bounded caches."""

    def __init__(
        self,
        client: CatalogClient,
        *,
        clock: Callable[[], float] = time.monotonic,
        max_entries: int = 512,
        max_bytes: int = 64 * MiB,
    ) -> None:
        self.client = client
        self.clock = clock
        self.caches = {
            name: BoundedTTLCache(
                ttl=ttl,
                max_entries=max(1, max_entries * entry_share // 16),
                max_bytes=max(1, max_bytes * byte_share // 16),
                clock=clock,
            )
            for name, (ttl, entry_share, byte_share) in FAMILIES.items()
        }
        self._lock = threading.Lock()
        self._flights: dict[str, _Flight] = {}
        self._counters: dict[str, dict[str, Any]] = {}

    def get_json(self, path: str, params: Mapping[str, Any] | None = None) -> Any:
        label, shape, family = classify(path)

        parsed: list[Any] = []  # the leader's own parse of the body it fetched

        def fetch() -> tuple[bytes, int | None, str]:
            reply = self.client.get(path, params)
            parsed.append(_parse(reply.body, shape))
            return reply.body, len(reply.body), str(reply.status)

        key = "json:" + canonical_request(path, encode_params(params))
        body = self._load(key, family, label, fetch, cache_404=family == "public_metadata")
        if isinstance(body, _Miss):
            raise HTTPStatusError(body.status, body.detail)
        # A miss answers with the document it validated; hits and coalesced waiters parse afresh.
        return parsed[0] if parsed else from_json(body)

    def get(self, path: str, params: Mapping[str, Any] | None = None) -> Reply:
        """Raw reply: a whole-document read (no params) is cached; a chunked read (params) is not."""
        label, _, family = classify(path)
        pairs = encode_params(params)
        if pairs:
            return self._uncached(label, path, params)

        def fetch() -> tuple[Reply, int | None, str]:
            reply = self.client.get(path, params)
            html = reply.headers.get("content-type", "").lower().startswith("text/html")
            size = None if not reply.body or html else len(reply.body)  # None: serve, never cache
            return Reply(reply.status, dict(reply.headers), reply.body), size, str(reply.status)

        value = self._load("raw:" + canonical_request(path, pairs), family, label, fetch)
        return Reply(value.status, dict(value.headers), value.body)

    @contextlib.contextmanager
    def reading(self) -> Iterator[Reads]:
        """One call: record every cache entry read inside the block (this context and the
        worker threads it hands to), for a result that may be reused while they stay current,
        and hold what the block adds to the caches to the call's share. A block that fails on an
        answer of the wrong shape forgets what it read: whichever answer it was, it is not
        served again (a handler may check more than the route's declared shape)."""
        reads = Reads()
        token = CURRENT.set(reads)
        try:
            yield reads
        except BaseException as error:
            if answered_wrong(error):
                self.forget(reads.entries)
            raise
        finally:
            CURRENT.reset(token)

    def still_current(self, entries: Sequence[Read]) -> bool:
        """Whether every entry read is still the one cached under its key; if so each counts
        as the cache hit it stands for."""
        with self._lock:
            for family, _, key, stamp in entries:
                found = self.caches[family].lookup(key)
                if found is None or found[1] != stamp:
                    return False
            for _, label, _, _ in entries:
                self._count(label, "hits")
        return True

    def forget(self, entries: Sequence[Read]) -> None:
        """Drop each entry read that is still the one cached under its key."""
        with self._lock:
            for family, _, key, stamp in entries:
                self.caches[family].discard(key, stamp)

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
        }

    # -- internals -------------------------------------------------------------------------

    def _count(self, label: str, name: str, status: str | None = None) -> None:
        """Caller holds `self._lock`."""
        counters = self._counters.get(label)
        if counters is None:
            counters = self._counters[label] = {**dict.fromkeys(_COUNTERS, 0), "status": {}}
        counters[name] += 1
        if status is not None:
            counters["status"][status] = counters["status"].get(status, 0) + 1

    def _uncached(self, label: str, path: str, params: Mapping[str, Any] | None) -> Reply:
        note(GENERAL, label, "", None)
        with self._lock:
            self._count(label, "uncached")
        try:
            reply = self.client.get(path, params)
        except BaseException as exc:
            with self._lock:
                self._count(label, "upstream_calls", _status_label(exc))
            raise
        with self._lock:
            self._count(label, "upstream_calls", str(reply.status))
        return reply

    def _load(
        self,
        key: str,
        family: str,
        label: str,
        fetch: Callable[[], tuple[Any, int | None, str]],
        *,
        cache_404: bool = False,
    ) -> Any:
        """Cached value, or one upstream fetch shared by every concurrent identical miss.

        `fetch` returns (value, size or None to serve without caching, upstream status label).
        """
        cache = self.caches[family]
        with self._lock:
            found = cache.lookup(key)
            if found is not None:
                self._count(label, "hits")
                note(family, label, key, found[1])
                return found[0]
            self._count(label, "misses")
            flight = self._flights.get(key)
            leader = flight is None
            if flight is None:
                flight = self._flights[key] = _Flight()
            else:
                self._count(label, "coalesced")
        if not leader:
            flight.done.wait()
            if flight.error is not None:
                note(family, label, key, None)
                raise flight.error
            note(family, label, key, flight.stamp)
            return flight.value
        try:
            value, size, status = fetch()
        except BaseException as exc:
            with self._lock:
                self._count(label, "upstream_calls", _status_label(exc))
                stamp = None
                if cache_404 and isinstance(exc, HTTPStatusError) and exc.status == 404:
                    miss = _Miss(404, exc.detail)
                    share = allowance(family, cache, CALL_SHARE)
                    stamp = cache.set(key, miss, len(exc.detail.encode()) + 64, budget=share)
                # A caller may recover from the failure: its result depends on it.
                note(family, label, key, stamp)
                flight.error = exc
                del self._flights[key]
            flight.done.set()
            raise
        with self._lock:
            self._count(label, "upstream_calls", status)
            stamp = None
            if size is not None:
                stamp = cache.set(key, value, size, budget=allowance(family, cache, CALL_SHARE))
            flight.value, flight.stamp = value, stamp
            note(family, label, key, stamp)
            del self._flights[key]
        flight.done.set()
        return value
