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
"""

from __future__ import annotations

import contextlib
import re
import sys
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any

from pydantic_core import from_json

from pwc_cli.commands import load_all
from pwc_cli.errors import HTTPStatusError, ResponseError, UpstreamShapeError, UpstreamTimeout
from pwc_cli.routes import ANY, GENERAL, LIST, OBJECT, Route, collect
from pwc_cli.transport import CatalogClient, Reply, canonical_request, encode_params
from pwc_mcp.bounded_cache import BoundedTTLCache

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

# hits/misses: cache lookups (misses include coalesced waiters); coalesced: waited on another
# caller's identical upstream call; uncached: chunked raw reads that bypass the cache.
_COUNTERS = ("hits", "misses", "coalesced", "uncached", "upstream_calls")


def _declared() -> dict[str, Route]:
    """The routes declared by the modules that register command handlers (pwc_cli.routes)."""
    modules = sorted({handler.__module__ for handler in load_all().values()})
    return collect(getattr(sys.modules[name], "ROUTES", ()) for name in modules)


# Counter label (the declared path) → route; `{ref}` may hold anything, `{id}` one segment. Any
# other path is labelled by its root ("tasks/*") or "other", shape ANY.
ROUTES = _declared()
_EXACT = {label.strip("/"): declared for label, declared in ROUTES.items() if "{" not in label}
_PATTERNS = [
    (
        re.compile("^" + label.replace("{ref}", ".+").replace("{id}", "[^/]+").strip("/") + "$"),
        declared,
    )
    for label, declared in ROUTES.items()
    if "{" in label
]
_PATTERNS.sort(key=lambda item: -len(re.sub(r"\{\w+\}", "", item[1].path)))  # .../related first


def _root(path: str) -> str:
    return path.strip("/").split("/", 1)[0]


_ROOTS = {
    root: {r.family for r in ROUTES.values() if _root(r.path) == root}
    for root in map(_root, ROUTES)
}
# An undeclared path takes its root's family when every declared route under that root agrees.
_ROOT_FAMILY = {
    root: next(iter(families)) for root, families in _ROOTS.items() if len(families) == 1
}


def _match(path: str) -> Route | None:
    if path in _EXACT:
        return _EXACT[path]
    for pattern, declared in _PATTERNS:
        if pattern.match(path):
            return declared
    return None


def _classify(path: str) -> tuple[str, str, str]:
    """(counter label, expected JSON shape, TTL family) of an upstream path, matched once."""
    p = path.strip("/")
    declared = _match(p)
    if declared is not None:
        return declared.path, declared.shape, declared.family
    root = _root(p)
    label = f"{root}/*" if root in _ROOTS else "other"
    return label, ANY, _ROOT_FAMILY.get(root, GENERAL)


def ttl_family(path: str) -> str:
    """Which TTL family (and so which cache) an upstream path belongs to."""
    return _classify(path)[2]


def route(path: str) -> tuple[str, str]:
    """(content-free counter label, expected JSON shape) of an upstream path."""
    label, shape, _ = _classify(path)
    return label, shape


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

    @staticmethod
    def key(paper: str, content_version: str, offset: int, limit: int) -> tuple[str, str, int, int]:
        return (paper, content_version, offset, limit)


@dataclass(frozen=True)
class _Miss:
    """A cached public-metadata 404, re-raised on every hit."""

    status: int
    detail: str


class _Flight:
    __slots__ = ("done", "value", "stored", "error")

    def __init__(self) -> None:
        self.done = threading.Event()
        self.value: Any = None
        self.stored = False
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
        shape == OBJECT and not isinstance(document, dict)
    ):
        raise UpstreamShapeError(SHAPE_MESSAGE)
    if shape == LIST and isinstance(document, dict):
        rows = document.get("results")
        if not isinstance(rows if rows is not None else document.get("items"), list):
            raise UpstreamShapeError(LIST_MESSAGE)
    return document


@dataclass
class Reads:
    """The cache entries one call read (family, counter label, key, the stored object), for
    pwc_mcp.memo; `cacheable` turns false when the call read anything the cache did not keep."""

    entries: list[tuple[str, str, str, Any]] = field(default_factory=list)
    cacheable: bool = True
    bytes: int = 0


_READS: ContextVar[Reads | None] = ContextVar("pwc_cache_reads", default=None)


def _note(family: str, label: str, key: str, value: Any, stored: bool) -> None:
    reads = _READS.get()
    if reads is None:
        return
    if not stored:
        reads.cacheable = False
        return
    reads.entries.append((family, label, key, value))
    reads.bytes += len(value) if isinstance(value, bytes) else 1024


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
        label, shape, family = _classify(path)

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
        label, _, family = _classify(path)
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
        """Record every cache entry read inside the block (this context and the worker threads
        it hands to), for a result that may be reused while they stay current."""
        reads = Reads()
        token = _READS.set(reads)
        try:
            yield reads
        finally:
            _READS.reset(token)

    def still_current(self, reads: Reads) -> bool:
        """Whether every entry in `reads` is still the one cached under its key; if so each
        counts as the cache hit it stands for."""
        with self._lock:
            for family, _, key, value in reads.entries:
                if self.caches[family].get(key) is not value:
                    return False
            for _, label, _, _ in reads.entries:
                self._count(label, "hits")
        return True

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
            "evictions": sum(c["evictions"] for c in caches.values()),
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
        _note(GENERAL, label, "", None, stored=False)
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
            value = cache.get(key)
            if value is not None:
                self._count(label, "hits")
                _note(family, label, key, value, stored=True)
                return value
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
                _note(family, label, key, None, stored=False)
                raise flight.error
            _note(family, label, key, flight.value, stored=flight.stored)
            return flight.value
        try:
            value, size, status = fetch()
        except BaseException as exc:
            with self._lock:
                self._count(label, "upstream_calls", _status_label(exc))
                miss = None
                if cache_404 and isinstance(exc, HTTPStatusError) and exc.status == 404:
                    miss = _Miss(404, exc.detail)
                    cache.set(key, miss, len(exc.detail.encode()) + 64)
                # A caller may recover from the failure: its result depends on it.
                _note(family, label, key, miss, stored=miss is not None)
                flight.error = exc
                del self._flights[key]
            flight.done.set()
            raise
        with self._lock:
            self._count(label, "upstream_calls", status)
            if size is not None:
                cache.set(key, value, size)
            flight.value, flight.stored = value, size is not None
            _note(family, label, key, value, stored=size is not None)
            del self._flights[key]
        flight.done.set()
        return value
