"""Server caches: per-family TTLs, bounds, canonical keys, what is (not) cached, single-flight."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from typing import Any

import httpx
import pytest
import respx

from pwc_core.errors import HTTPStatusError, ResponseError, TransportError, UpstreamTimeout
from pwc_core.transport import CatalogClient
from pwc_mcp.caching import answer_checks
from pwc_mcp.caching import cache as cache_module
from pwc_mcp.caching.cache import (
    MAX_ENTRIES,
    BoundedTTLCache,
    CachedCatalog,
    ChunkCache,
    MiB,
    route,
    ttl_family,
)
from tests.helpers import wait_until
from tests.helpers.mcp import CATALOG_BASE as BASE

DOC = {"id": "1", "results": [{"id": "1", "title": "T"}], "count": 1}


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def catalog(mock: respx.MockRouter, clock: Clock) -> CachedCatalog:
    return CachedCatalog(CatalogClient(BASE), clock=clock)


def responses(*items: httpx.Response) -> Callable[[httpx.Request], httpx.Response]:
    queue = list(items)
    return lambda request: queue.pop(0) if len(queue) > 1 else queue[0]


@pytest.mark.parametrize(
    ("path", "params", "ttl", "family"),
    [
        ("papers/search", {"q": "gan"}, 60, "search"),
        ("papers/", {"page": 1}, 60, "search"),
        ("papers/recent", None, 60, "search"),
        ("papers/trending", None, 60, "search"),
        ("tasks/1/page", None, 600, "taxonomy"),
        ("frameworks/", None, 600, "taxonomy"),
        ("papers/1706.03762", None, 300, "general"),
        ("datasets/72/evaluations/", None, 300, "general"),
        ("research/papers/1706.03762/lineage", None, 300, "general"),
        ("papers/1706.03762/public-metadata", None, 3600, "public_metadata"),
        ("papers/public-metadata/search", {"title": "x"}, 3600, "public_metadata"),
    ],
)
def test_ttl_per_family(mock, clock, catalog, path, params, ttl, family) -> None:
    upstream = mock.get(f"/{path}").respond(json=DOC)
    assert ttl_family(path) == family and catalog.caches[family].ttl == ttl
    assert catalog.get_json(path, params) == DOC
    clock.now += ttl - 0.5
    catalog.get_json(path, params)
    assert upstream.call_count == 1
    clock.now += 0.5
    catalog.get_json(path, params)
    assert upstream.call_count == 2


def test_public_metadata_misses_are_cached_for_an_hour(mock, clock, catalog) -> None:
    miss = mock.get("/papers/10.1000%2Fx/public-metadata").respond(404, json={"detail": "nope"})
    empty = mock.get("/papers/public-metadata/search").respond(
        json={"count": 0, "match": None, "results": []}
    )
    for _ in range(3):
        with pytest.raises(HTTPStatusError) as info:
            catalog.get_json("papers/10.1000%2Fx/public-metadata")
        assert info.value.status == 404 and "nope" in info.value.detail
        assert (
            catalog.get_json("papers/public-metadata/search", {"title": "No Such"})["results"] == []
        )
    assert miss.call_count == 1 and empty.call_count == 1
    clock.now += 3600
    with pytest.raises(HTTPStatusError):
        catalog.get_json("papers/10.1000%2Fx/public-metadata")
    assert miss.call_count == 2


@pytest.mark.parametrize(
    ("path", "status"),
    [
        ("papers/1706.03762", 404),
        ("papers/x/public-metadata", 422),
        ("papers/x/public-metadata", 503),
    ],
)
def test_other_errors_are_not_cached(mock, catalog, path, status) -> None:
    upstream = mock.get(f"/{path}").mock(
        side_effect=responses(
            httpx.Response(status, json={"detail": "e"}), httpx.Response(200, json=DOC)
        )
    )
    with pytest.raises(HTTPStatusError):
        catalog.get_json(path)
    assert catalog.get_json(path) == DOC and catalog.get_json(path) == DOC
    assert upstream.call_count == 2


def test_transport_errors_are_not_cached(mock, catalog) -> None:
    upstream = mock.get("/tasks/").mock(
        side_effect=[
            httpx.ConnectError("down"),
            httpx.ReadTimeout("slow"),
            httpx.Response(200, json=DOC),
        ]
    )
    with pytest.raises(TransportError):
        catalog.get_json("tasks/")
    with pytest.raises(UpstreamTimeout):
        catalog.get_json("tasks/")
    assert catalog.get_json("tasks/") == DOC and catalog.get_json("tasks/") == DOC
    assert upstream.call_count == 3
    assert catalog.stats()["families"]["tasks/"]["status"] == {"error": 1, "timeout": 1, "200": 1}


@pytest.mark.parametrize(
    ("path", "bad", "message"),
    [
        (
            "papers/search",
            httpx.Response(
                200,
                text="<html><body>Bad gateway</body></html>",
                headers={"content-type": "text/html"},
            ),
            "API returned invalid JSON",
        ),
        ("papers/search", httpx.Response(200, content=b""), "API returned invalid JSON"),
        (
            "papers/search",
            httpx.Response(200, content=b'{"count": 3, "results": [{"id": "1"}, {"id"'),
            "API returned invalid JSON",
        ),
        ("papers/search", httpx.Response(200, content=b"\xff\xfe{}"), "API returned invalid JSON"),
        (
            "papers/search",
            httpx.Response(200, json="a string"),
            "API returned an unexpected response shape",
        ),
        (
            "papers/search",
            httpx.Response(200, json={"detail": "x"}),
            "API response did not contain a result list",
        ),
        (
            "papers/search",
            httpx.Response(200, json={"results": {"id": 1}}),
            "API response did not contain a result list",
        ),
        (
            "papers/1706.03762",
            httpx.Response(200, json=[DOC]),
            "API returned an unexpected response shape",
        ),
        ("tasks/1/page", httpx.Response(200, json=3), "API returned an unexpected response shape"),
        (
            "papers/1/public-metadata",
            httpx.Response(200, content=b"null"),
            "API returned an unexpected response shape",
        ),
    ],
)
def test_unusable_answers_are_errors_never_entries(mock, catalog, path, bad, message) -> None:
    upstream = mock.get(f"/{path}").mock(side_effect=responses(bad, httpx.Response(200, json=DOC)))
    with pytest.raises(ResponseError, match=f"^{message}$"):
        catalog.get_json(path)
    assert catalog.get_json(path) == DOC and catalog.get_json(path) == DOC
    assert upstream.call_count == 2
    label = route(path)[0]
    assert catalog.stats()["families"][label]["status"] == {"invalid": 1, "200": 1}


def test_list_paths_accept_bare_arrays_and_items(mock, catalog) -> None:
    mock.get("/papers/recent").respond(json=[{"id": "1"}])
    mock.get("/datasets/").respond(json={"items": [], "total": 0})
    mock.get("/weird/endpoint").respond(json=[1])
    assert catalog.get_json("papers/recent") == [{"id": "1"}]
    assert catalog.get_json("datasets/") == {"items": [], "total": 0}
    assert catalog.get_json("weird/endpoint") == [1]


def test_identical_requests_share_entries_and_different_ones_do_not(mock, catalog) -> None:
    upstream = mock.get("/papers/search").respond(json=DOC)
    catalog.get_json("papers/search", {"q": "gan", "page": 1, "mode": "hybrid"})
    # The same request as sent: None omitted, "1" and 1 encode alike, a leading slash dropped.
    catalog.get_json(
        "/papers/search", {"q": "gan", "start_date": None, "page": "1", "mode": "hybrid"}
    )
    assert upstream.call_count == 1
    catalog.get_json("papers/search", {"q": "gan", "page": 2, "mode": "hybrid"})
    catalog.get_json("papers/search", {"q": "gan", "mode": "hybrid&page=1"})  # not page 1
    assert upstream.call_count == 3


def test_returned_objects_are_independent_copies(mock, catalog) -> None:
    mock.get("/papers/1706.03762").respond(json={"id": "1", "tasks": [{"name": "NLP"}]})
    first = catalog.get_json("papers/1706.03762")
    first["tasks"].append({"name": "mutated"})
    first["title"] = "mutated"
    second = catalog.get_json("papers/1706.03762")
    assert second == {"id": "1", "tasks": [{"name": "NLP"}]} and second is not first


def test_a_miss_parses_the_answer_once_and_a_hit_parses_afresh(mock, catalog, monkeypatch) -> None:
    body = json.dumps(DOC).encode()
    mock.get("/papers/search").respond(content=body, headers={"content-type": "application/json"})
    parses: list[str] = []
    real_loads, real_from_json = json.loads, cache_module.from_json

    def loads(text: Any, *args: Any, **kwargs: Any) -> Any:
        parses.extend(["json"] if text in (body, body.decode()) else [])
        return real_loads(text, *args, **kwargs)

    def from_json(data: Any, *args: Any, **kwargs: Any) -> Any:
        parses.extend(["pydantic"] if data == body else [])
        return real_from_json(data, *args, **kwargs)

    monkeypatch.setattr(json, "loads", loads)
    monkeypatch.setattr(cache_module, "from_json", from_json)  # hits
    monkeypatch.setattr(answer_checks, "from_json", from_json)  # the check of a fetched answer
    first = catalog.get_json("papers/search", {"q": "x"})
    assert len(parses) == 1, parses  # validated and returned from one parse
    second = catalog.get_json("papers/search", {"q": "x"})
    assert len(parses) == 2 and first == second == DOC and first is not second


def test_entry_ceiling_evicts_least_recently_used_for_a_more_frequent_key(clock) -> None:
    # Admission by frequency (pwc_mcp/caching/bounded_cache.py) changed this from plain LRU: a full
    # cache evicts its least recently used entry only for a key looked up more often.
    cache = BoundedTTLCache(ttl=60, max_entries=3, max_bytes=1000, clock=clock)
    for key in "abc":
        cache.get(key)  # the miss before each store, as CachedCatalog has it
        cache.set(key, key.upper(), 10)
    assert cache.get("a") == "A"  # refresh "a": "b" is now the least recently used
    cache.get("d")
    cache.get("d")
    assert cache.set("d", "D", 10) is not None  # looked up twice: displaces "b" (once)
    cache.get("e")
    assert cache.set("e", "E", 10) is None  # once, no more than "c": refused
    assert [cache.get(k) for k in "abcde"] == ["A", None, "C", "D", None]
    assert (cache.entries, cache.bytes, cache.evictions, cache.rejections) == (3, 30, 1, 1)
    cache.set("d", "D2", 20)  # replacing a key is not an eviction
    assert (cache.entries, cache.bytes, cache.evictions) == (3, 40, 1)
    clock.now += 60
    assert (cache.entries, cache.bytes, cache.get("a")) == (0, 0, None)


def test_byte_ceiling_and_oversized_values(clock) -> None:
    cache = BoundedTTLCache(ttl=60, max_entries=100, max_bytes=100, clock=clock)
    cache.set("a", b"x", 40)
    cache.set("b", b"x", 40)
    cache.get("c")  # looked up more often than "a", the least recently used
    cache.set("c", b"x", 40)
    assert (cache.entries, cache.bytes, cache.evictions, cache.get("a")) == (2, 80, 1, None)
    cache.set("huge", b"x", 101)
    assert cache.get("huge") is None and cache.bytes == 80
    cache.set("b", b"x", 101)  # an oversized replacement drops the old value too
    assert cache.get("b") is None and cache.bytes == 40


def test_general_cache_stays_under_its_byte_ceiling(mock, clock) -> None:
    catalog = CachedCatalog(CatalogClient(BASE), clock=clock, max_bytes=8 * MiB)
    general = catalog.caches["general"]
    assert general.max_bytes == 9 * 8 * MiB // 16
    assert sum(c.max_bytes for c in catalog.caches.values()) <= 8 * MiB
    assert sum(c.max_entries for c in catalog.caches.values()) <= MAX_ENTRIES
    blob = "x" * (2 * MiB - 200)
    mock.get(url__regex=r"/papers/\d+$").mock(
        side_effect=lambda request: httpx.Response(200, json={"id": request.url.path, "blob": blob})
    )
    for n in range(8):
        assert catalog.get_json(f"papers/{n}")["id"].endswith(f"/{n}")
        assert general.bytes <= general.max_bytes
    # each paper was looked up once, like the two stored: refused, not evicting (admission by
    # frequency; plain LRU evicted six)
    assert general.entries == 2 and general.rejections == 6 and general.evictions == 0
    assert catalog.stats()["rejections"] == 6
    assert catalog.stats()["caches"]["general"]["bytes"] == general.bytes > 3 * MiB


def test_family_entry_ceiling_through_the_catalog(mock, clock) -> None:
    catalog = CachedCatalog(CatalogClient(BASE), clock=clock, max_entries=16)
    upstream = mock.get("/papers/search").respond(json=DOC)
    assert catalog.caches["search"].max_entries == 2
    for query in ("a", "b", "c", "c", "a"):
        catalog.get_json("papers/search", {"q": query})
    # Admission by frequency: "c" is stored on its second lookup (it then displaces "a", and
    # "a", asked again, displaces "b"); plain LRU stored it on the first and made 4 calls.
    search = catalog.caches["search"]
    assert upstream.call_count == 5 and (search.evictions, search.rejections) == (2, 1)


def test_raw_reads_whole_documents_cached_chunks_not(mock, clock, catalog) -> None:
    markdown = mock.get("/research/papers/1706.03762/read").respond(
        text="# Title\n", headers={"x-pwc-content-version": "a" * 64}
    )
    first = catalog.get("research/papers/1706.03762/read")
    first.headers["x-pwc-content-version"] = "tampered"  # type: ignore[index]
    second = catalog.get("research/papers/1706.03762/read")
    assert second.body == b"# Title\n" and second.headers["x-pwc-content-version"] == "a" * 64
    assert markdown.call_count == 1
    for _ in range(2):
        catalog.get("research/papers/1706.03762/read", {"offset": 0, "limit": 5})
    assert markdown.call_count == 3
    clock.now += 300
    catalog.get("research/papers/1706.03762/read")
    assert markdown.call_count == 4
    family = catalog.stats()["families"]["research/papers/{ref}/read"]
    assert family["uncached"] == 2 and family["hits"] == 1 and family["upstream_calls"] == 4


def test_raw_empty_or_html_reads_are_served_but_not_cached(mock, catalog) -> None:
    empty = mock.get("/research/papers/1/read").respond(content=b"")
    html = mock.get("/research/papers/2/read").respond(
        text="<html></html>", headers={"content-type": "text/html; charset=utf-8"}
    )
    for _ in range(2):
        assert catalog.get("research/papers/1/read").body == b""
        assert catalog.get("research/papers/2/read").text() == "<html></html>"
    assert empty.call_count == 2 and html.call_count == 2


def run_threads(
    count: int, target: Callable[[], Any]
) -> tuple[list[Any], list[BaseException], list[threading.Thread]]:
    results: list[Any] = []
    errors: list[BaseException] = []
    lock = threading.Lock()

    def work() -> None:
        try:
            value = target()
            with lock:
                results.append(value)
        except BaseException as exc:  # collected for assertions
            with lock:
                errors.append(exc)

    threads = [threading.Thread(target=work) for _ in range(count)]
    for thread in threads:
        thread.start()
    return results, errors, threads


def blocking_upstream(catalog: CachedCatalog, waiters: int, answer: Callable[[], httpx.Response]):
    """A side effect that holds the leader until every other thread waits on its flight."""
    release = threading.Event()

    def side_effect(request: httpx.Request) -> httpx.Response:
        assert release.wait(timeout=10), "waiters never gathered"
        return answer()

    def gather() -> None:
        wait_until(lambda: catalog.stats()["coalesced"] >= waiters, interval=0.001)
        release.set()

    return side_effect, gather


def test_single_flight_one_upstream_call_for_fifty_threads(mock, catalog) -> None:
    side_effect, gather = blocking_upstream(catalog, 49, lambda: httpx.Response(200, json=DOC))
    upstream = mock.get("/tasks/1/page").mock(side_effect=side_effect)
    results, errors, threads = run_threads(50, lambda: catalog.get_json("tasks/1/page"))
    gather()
    for thread in threads:
        thread.join(timeout=10)
    assert not errors and len(results) == 50 and all(r == DOC for r in results)
    assert len({id(r) for r in results}) == 50  # every caller got its own object
    assert upstream.call_count == 1
    stats = catalog.stats()["families"]["tasks/{id}/page"]
    assert stats == {
        "hits": 0,
        "misses": 50,
        "coalesced": 49,
        "uncached": 0,
        "upstream_calls": 1,
        "upstream_failures": 0,
        "l2_hits": 0,  # no second level configured: never asked
        "l2_misses": 0,
        "shared_joins": 0,
        "stale_served": 0,
        "status": {"200": 1},
    }
    catalog.get_json("tasks/1/page")
    assert upstream.call_count == 1 and catalog.stats()["hits"] == 1


def test_single_flight_shares_the_leaders_error_without_caching_it(mock, catalog) -> None:
    side_effect, gather = blocking_upstream(catalog, 49, lambda: httpx.Response(503, text="busy"))
    upstream = mock.get("/papers/search").mock(side_effect=side_effect)
    results, errors, threads = run_threads(
        50, lambda: catalog.get_json("papers/search", {"q": "x"})
    )
    gather()
    for thread in threads:
        thread.join(timeout=10)
    assert not results and len(errors) == 50
    assert all(isinstance(e, HTTPStatusError) and e.status == 503 for e in errors)
    assert upstream.call_count == 1 and not any(t.is_alive() for t in threads)
    upstream.mock(side_effect=None).respond(json=DOC)
    assert catalog.get_json("papers/search", {"q": "x"}) == DOC
    assert upstream.call_count == 2


def test_distinct_requests_do_not_wait_for_each_other(mock, catalog) -> None:
    mock.get(url__regex=r"/tasks/\d+$").mock(
        side_effect=lambda request: httpx.Response(200, json={"id": request.url.path})
    )
    results, errors, threads = run_threads(1, lambda: catalog.get_json("tasks/1"))
    for thread in threads:
        thread.join(timeout=10)
    assert catalog.get_json("tasks/2") == {"id": "/api/v1/tasks/2"} and results and not errors


def test_counters_are_content_free(mock, catalog) -> None:
    mock.get("/papers/search").respond(json=DOC)
    mock.get("/papers/secret-paper-9999").respond(404, json={"detail": "secret-paper-9999 missing"})
    mock.get("/datasets/98765/evaluations/").respond(json=DOC)
    catalog.get_json("papers/search", {"q": "my private query"})
    catalog.get_json("papers/search", {"q": "my private query"})
    with pytest.raises(HTTPStatusError):
        catalog.get_json("papers/secret-paper-9999")
    catalog.get_json("datasets/98765/evaluations/", {"page": 1})
    stats = catalog.stats()
    assert set(stats["families"]) == {"papers/search", "papers/{ref}", "datasets/{id}/evaluations/"}
    assert stats["families"]["papers/search"]["hits"] == 1
    assert stats["families"]["papers/{ref}"]["status"] == {"404": 1}
    assert (stats["hits"], stats["misses"], stats["upstream_calls"]) == (1, 3, 3)
    assert set(stats["caches"]) == {"search", "taxonomy", "public_metadata", "general"}
    assert stats["caches"]["search"]["entries"] == 1 and stats["caches"]["general"]["entries"] == 1
    text = repr(stats)
    assert "private" not in text and "secret" not in text and "98765" not in text


def test_route_labels_replace_identifiers() -> None:
    assert route("papers/math.GT%2F0309136/related") == ("papers/{ref}/related", "list")
    assert route("research/papers/1706.03762/read")[0] == "research/papers/{ref}/read"
    assert route("tasks/OCR/trending-benchmarks")[0] == "tasks/{ref}/trending-benchmarks"
    assert route("papers/public-metadata/search")[0] == "papers/public-metadata/search"
    assert route("tasks/1/unknown/x") == ("tasks/*", "any")
    assert route("secret/123") == ("other", "any")
    assert ttl_family("tasks/") == ttl_family("areas/with-tasks/") == "taxonomy"
    assert ttl_family("papers/search") == "search" and ttl_family("evaluations/") == "general"


def test_chunk_cache_defaults_and_expiry(clock) -> None:
    chunks = ChunkCache(clock=clock)
    assert (chunks.ttl, chunks.max_entries, chunks.max_bytes) == (3600, 256, 16 * MiB)
    key = ChunkCache.key("1706.03762", "a" * 64, 0, 65536)
    chunks.set(key, "abcde", 5)
    assert chunks.get(ChunkCache.key("1706.03762", "a" * 64, 0, 65536)) == "abcde"
    assert chunks.get(ChunkCache.key("1706.03762", "b" * 64, 0, 65536)) is None
    clock.now += 3600
    assert chunks.get(key) is None


def test_a_cached_only_read_never_fetches_and_answers_only_what_is_held(
    catalog: CachedCatalog, mock: respx.MockRouter, clock: Clock
) -> None:
    """What the snippet reads take in the calling thread (pwc_mcp.tools.abstracts): a hit or nothing."""
    route_ = mock.get("/papers/1").mock(return_value=httpx.Response(200, json=DOC))
    assert catalog.get_json("papers/1", cached_only=True) is None and route_.call_count == 0
    assert catalog.stats()["misses"] == 0, "a look is not a miss"
    assert catalog.get_json("papers/1") == DOC and route_.call_count == 1
    assert catalog.get_json("papers/1", cached_only=True) == DOC and route_.call_count == 1
    assert catalog.stats()["hits"] == 1
    clock.now += 301  # past the paper TTL: held no more
    assert catalog.get_json("papers/1", cached_only=True) is None and route_.call_count == 1
