"""The second-level cache through a real redis-server: two `CachedCatalog`s stand for two
replicas (each its own level 1, one Redis), the upstream is mocked and counted.

What is shared and for how long, what is never shared, and attack tests: a hostile, corrupt,
oversized or foreign value in Redis is a miss, never an error; Redis down or slow degrades to
level 1 with one content-free warning. Last, what a replica keeps past a TTL (issue #38).
"""

from __future__ import annotations

import logging
import socket
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest
import redis
import respx

from pwc_core.errors import HTTPStatusError, UpstreamShapeError
from pwc_core.transport import CatalogClient, canonical_request, encode_params
from pwc_mcp.caching import shared_cache as shared_module
from pwc_mcp.caching.cache import CachedCatalog, ChunkCache
from pwc_mcp.caching.leases import SharedFlight
from pwc_mcp.caching.shared_cache import SharedCache, cache_secret, redis_client
from pwc_mcp.caching.shared_values import encode_body, encode_chunk
from tests.helpers import wait_until
from tests.helpers.safety import RedisServer, redis_server

BASE = "https://catalog.test/api/v1"
DOC = {"id": "1", "results": [{"id": "1", "title": "T"}], "count": 1}
SECRET = cache_secret(b"replica-shared-secret-0123456789abcdef")
BOUND = 4096  # a small per-answer bound, so an oversized value is cheap to make


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture(scope="module")
def server() -> Iterator[RedisServer]:
    with redis_server() as running:
        yield running


@pytest.fixture
def store(server: RedisServer) -> Iterator[redis.Redis]:
    """Direct access to the test's Redis, emptied for each test."""
    with server.client() as client:
        client.flushall()
        yield client


@pytest.fixture
def mock() -> Iterator[respx.MockRouter]:
    with respx.mock(base_url=BASE, assert_all_called=False) as router:
        yield router


def shared(url: str, *, bound: int = BOUND, **kwargs: Any) -> SharedCache:
    return SharedCache(redis_client(url), SECRET, max_value_bytes=bound, **kwargs)


def replica(url: str, clock: Callable[[], float] | None = None, **kwargs: Any) -> CachedCatalog:
    """A replica's catalog; `clock` is its level 1's and its Redis health's."""
    timing = {"clock": clock} if clock else {}
    flight = SharedFlight(shared(url, **timing, **kwargs))
    return CachedCatalog(CatalogClient(BASE), shared=flight, **timing)


def answers(client: redis.Redis) -> list[bytes]:
    return sorted(client.keys("pwc-mcp:answer:*"))


def name_of(catalog: CachedCatalog, family: str, path: str, params: Any = None) -> str:
    assert catalog.shared is not None
    key = "json:" + canonical_request(path, encode_params(params))
    return catalog.shared.cache.name("answer", family, key)


def test_an_answer_one_replica_fetched_is_served_to_another(server, store, mock) -> None:
    upstream = mock.get("/tasks/1/page").respond(json=DOC)
    a, b = replica(server.url), replica(server.url)
    assert a.get_json("tasks/1/page") == DOC
    assert b.get_json("tasks/1/page") == DOC
    assert b.get_json("tasks/1/page") == DOC  # now from b's own level 1
    assert upstream.call_count == 1
    assert (a.stats()["l2_misses"], a.stats()["upstream_calls"]) == (1, 1)
    stats = b.stats()["families"]["tasks/{id}/page"]
    assert (stats["l2_hits"], stats["hits"], stats["upstream_calls"]) == (1, 1, 0)
    (key,) = answers(store)
    assert key.startswith(f"pwc-mcp:answer:v{shared_module.FORMAT}:taxonomy:".encode())
    assert b"tasks" not in key
    assert 0 < store.pttl(key) <= 600_000  # the family's TTL


def test_a_copy_lives_no_longer_than_its_entry_had_left(server, store, mock) -> None:
    """Replica b copies an entry with 5 s left (of search's 60): its copy is gone 5 s later,
    so no answer is served older than its family's TTL, however many replicas pass it on."""
    upstream = mock.get("/papers/search").respond(json=DOC)
    clock = Clock()
    a, b = replica(server.url), replica(server.url, clock)
    a.get_json("papers/search", {"q": "x"})
    store.pexpire(name_of(a, "search", "papers/search", {"q": "x"}), 5000)  # fetched 55 s ago
    b.get_json("papers/search", {"q": "x"})
    clock.now += 4.9
    b.get_json("papers/search", {"q": "x"})
    assert b.stats()["hits"] == 1  # still its copy
    clock.now += 0.1
    b.get_json("papers/search", {"q": "x"})
    assert b.stats()["hits"] == 1 and b.stats()["l2_hits"] == 2  # its copy ran out: asked again
    assert upstream.call_count == 1


def test_a_new_payload_format_never_reads_an_old_one(server, store, mock, monkeypatch) -> None:
    upstream = mock.get("/tasks/").respond(json=DOC)
    replica(server.url).get_json("tasks/")
    monkeypatch.setattr(shared_module, "FORMAT", shared_module.FORMAT + 1)  # the next deploy
    new = replica(server.url)
    assert new.get_json("tasks/") == DOC
    assert upstream.call_count == 2 and new.stats()["l2_hits"] == 0
    old, new_format = shared_module.FORMAT - 1, shared_module.FORMAT
    assert [k.split(b":")[2] for k in answers(store)] == [
        f"v{old}".encode(),
        f"v{new_format}".encode(),
    ]


@pytest.mark.parametrize(
    ("path", "bad"),
    [
        ("tasks/1/page", httpx.Response(503, json={"detail": "busy"})),
        ("tasks/1/page", httpx.Response(200, content=b'{"count": 3, "results": [')),
        ("papers/search", httpx.Response(200, json={"detail": "no results key"})),
        ("papers/1706.03762", httpx.Response(404, json={"detail": "missing"})),
    ],
    ids=["5xx", "truncated", "wrong-shape", "404"],
)
def test_errors_and_unusable_answers_are_never_shared(server, store, mock, path, bad) -> None:
    good = httpx.Response(200, json=DOC)
    upstream = mock.get(f"/{path}").mock(side_effect=[bad, good])
    a, b = replica(server.url), replica(server.url)
    with pytest.raises((HTTPStatusError, UpstreamShapeError)):
        a.get_json(path)
    assert answers(store) == []
    assert b.get_json(path) == DOC and upstream.call_count == 2


def test_raw_replies_are_shared_but_not_empty_or_html_ones(server, store, mock) -> None:
    markdown = mock.get("/research/papers/1/read").respond(
        text="# Title\n", headers={"x-pwc-content-version": "a" * 64}
    )
    html = mock.get("/research/papers/2/read").respond(
        text="<html></html>", headers={"content-type": "text/html"}
    )
    a, b = replica(server.url), replica(server.url)
    for catalog in (a, b):
        reply = catalog.get("research/papers/1/read")
        assert reply.body == b"# Title\n" and reply.headers["x-pwc-content-version"] == "a" * 64
        assert catalog.get("research/papers/2/read").text() == "<html></html>"
    assert markdown.call_count == 1 and html.call_count == 2
    assert len(answers(store)) == 1


def test_public_metadata_misses_are_shared_as_level_1_keeps_them(server, store, mock) -> None:
    miss = mock.get("/papers/x/public-metadata").respond(404, json={"detail": "nope"})
    a, b = replica(server.url), replica(server.url)
    for catalog in (a, b):
        with pytest.raises(HTTPStatusError) as info:
            catalog.get_json("papers/x/public-metadata")
        assert info.value.status == 404 and "nope" in info.value.detail
    assert miss.call_count == 1 and b.stats()["l2_hits"] == 1


def test_a_value_above_the_bound_is_neither_stored_nor_used(server, store, mock) -> None:
    big = {"id": "1", "results": [], "blob": "x" * BOUND}
    upstream = mock.get("/tasks/1/page").respond(json=big)
    a, b = replica(server.url), replica(server.url)
    assert a.get_json("tasks/1/page") == big
    assert answers(store) == [] and a.shared is not None
    assert a.shared.cache.stats()["too_big"] == 1
    # Written by someone else under the right name: refused unread, the upstream answers.
    store.set(name_of(b, "taxonomy", "tasks/1/page"), b"x" * (BOUND + 1), px=60_000)
    assert b.get_json("tasks/1/page") == big and upstream.call_count == 2
    # read once: a value is there, so no lease; the direct fetch replaces it (caching/leases.py)
    assert b.shared is not None and b.shared.cache.stats()["invalid"] == 1


def _forged(catalog: CachedCatalog, store: redis.Redis, name: str, kind: str) -> None:
    """Store a hostile value under `name` (the entry of tasks/1/page)."""
    assert catalog.shared is not None
    cache = catalog.shared.cache
    other_key = "json:" + canonical_request("tasks/2/page", ())
    if kind == "garbage":
        store.set(name, b"\x00\xff" * 50, px=60_000)
    elif kind == "bad-tag":
        store.set(name, b"\x00" * 32 + encode_body(b'{"id": "evil", "results": []}'), px=60_000)
    elif kind == "another-key":  # a genuine entry, copied under another entry's name
        cache.put("taxonomy", other_key, encode_body(b'{"id": "2", "results": []}'), 60)
        store.set(name, store.get(cache.name("answer", "taxonomy", other_key)), px=60_000)
    elif kind == "no-expiry":  # genuine, but stored to live forever
        key = "json:" + canonical_request("tasks/1/page", ())
        cache.put("taxonomy", key, encode_body(b'{"id": "old", "results": []}'), 60)
        store.persist(name)
    elif kind in ("wrong-shape", "unknown-kind", "truncated"):  # tagged, by a buggy replica
        key = "json:" + canonical_request("tasks/1/page", ())
        payload = {"wrong-shape": b"j[1, 2]", "unknown-kind": b"z{}", "truncated": b'j{"id"'}
        cache.put("taxonomy", key, payload[kind], 60)


HOSTILE = ["garbage", "bad-tag", "another-key", "no-expiry", "wrong-shape", "unknown-kind"]


@pytest.mark.parametrize("kind", [*HOSTILE, "truncated"])
def test_a_hostile_or_corrupt_value_is_a_miss_never_an_error(server, store, mock, kind) -> None:
    upstream = mock.get("/tasks/1/page").respond(json=DOC)
    b = replica(server.url)
    name = name_of(b, "taxonomy", "tasks/1/page")
    _forged(b, store, name, kind)
    assert b.get_json("tasks/1/page") == DOC and upstream.call_count == 1
    assert b.stats()["l2_hits"] == 0
    # The replica's own answer replaced it, and the next replica reads that one.
    assert replica(server.url).get_json("tasks/1/page") == DOC and upstream.call_count == 1


def test_a_call_that_finds_an_answer_wrong_drops_it_from_level_2_too(server, store, mock) -> None:
    mock.get("/papers/1706.03762").respond(json={"id": "someone-else"})
    a = replica(server.url)
    with pytest.raises(UpstreamShapeError), a.reading():
        a.get_json("papers/1706.03762")
        assert answers(store)
        raise UpstreamShapeError("the paper's ID is not the one asked for")  # as a handler does
    wait_until(lambda: answers(store) == [])


def test_chunks_are_shared_and_a_hostile_chunk_is_a_miss(server, store) -> None:
    a = ChunkCache(shared=shared(server.url, bound=1 << 17))
    b = ChunkCache(shared=shared(server.url, bound=1 << 17))
    key = repr(ChunkCache.key("1706.03762", "a" * 64, 0, 65536))
    chunk = (b"# Attention\n", True, 12, "a" * 64)
    a.set(key, chunk, len(chunk[0]))
    assert b.get(key) == chunk and b.stats()["l2_hits"] == 1
    assert b.get(key) == chunk and b.stats()["l2_hits"] == 1  # b's own copy now
    other = repr(ChunkCache.key("1706.03762", "a" * 64, 12, 65536))
    assert b.shared is not None
    for bad in (
        (b"\xff\xfe", False, 0, "a" * 64),  # not UTF-8
        (b"x", True, 0, "a" * 64),  # truncated without a next offset
        (b"x", False, 0, "not-a-version"),
    ):
        b.shared.put("chunks", other, encode_chunk(bad), 60)
        assert b.get(other) is None
    assert b.stats()["l2_misses"] == 3


def closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def test_redis_down_is_level_1_with_one_warning_that_names_nothing(mock, caplog) -> None:
    upstream = mock.get(url__regex=r"/tasks/\d+/page$").respond(json=DOC)
    port, clock = closed_port(), Clock()
    catalog = replica(f"redis://127.0.0.1:{port}/0", clock, retry_seconds=5)
    assert catalog.shared is not None
    caplog.set_level(logging.WARNING, logger="pwc_mcp.cache")
    for n in range(3):
        assert catalog.get_json(f"tasks/{n}/page") == DOC
        clock.now += 30  # a retry is due each time: one failure each
    assert catalog.get_json("tasks/0/page") == DOC  # level 1 still works
    assert upstream.call_count == 3
    health = catalog.shared.cache.health.stats()
    assert health["degraded"] and health["failures"] == 3
    warnings = [r.getMessage() for r in caplog.records if r.name == "pwc_mcp.cache"]
    assert (
        warnings
        == ["cache storage unavailable type=ConnectionError; caching in process memory"] * 2
    )  # at 0 s and 60 s: one a minute
    assert str(port) not in caplog.text and "127.0.0.1" not in caplog.text


def test_a_redis_that_stops_answering_costs_one_socket_timeout(mock) -> None:
    """A Redis that accepts and never answers: the first call waits out the socket timeout,
    then the storage is skipped until the retry is due; every call is answered."""
    upstream = mock.get(url__regex=r"/tasks/\d+/page$").respond(json=DOC)
    with socket.socket() as silent:
        silent.bind(("127.0.0.1", 0))
        silent.listen(16)  # connections complete in the backlog; nothing ever reads them
        client = redis.Redis(
            host="127.0.0.1", port=silent.getsockname()[1], socket_timeout=0.2, retry=None
        )
        cache = SharedCache(client, SECRET, max_value_bytes=BOUND)
        catalog = CachedCatalog(CatalogClient(BASE), shared=SharedFlight(cache))
        for n in range(3):
            assert catalog.get_json(f"tasks/{n}/page") == DOC
    assert upstream.call_count == 3
    # one failure; then each call skips its lookup and its store until a retry is due
    assert cache.health.stats() == {"degraded": True, "failures": 1, "slow": 0, "skipped": 5}


def test_wrong_answers_against_a_stuck_redis_start_a_bounded_number_of_threads(
    server, monkeypatch
) -> None:
    """Attack: a hostile upstream's wrong answers while Redis hangs. Each call's level-2 delete
    would wait on Redis; at most FORGET_THREADS of them are in flight, never one per call."""
    import threading

    from pwc_mcp.caching.cache import FORGET_THREADS

    a = replica(server.url)
    stuck = threading.Event()
    monkeypatch.setattr(a.shared.cache, "delete", lambda *_: stuck.wait(10))
    try:
        for n in range(50):
            a.forget([("general", "papers/{ref}", f"key-{n}", 0)])
        forgetting = [t for t in threading.enumerate() if t.name == "pwc-forget"]
        assert 1 <= len(forgetting) <= FORGET_THREADS
    finally:
        stuck.set()


# -- stale if error and refresh ahead across replicas (issue #38) ---------------------------
# Level 2 keeps an answer as long as level 1 does (soft expiry at its TTL, hard at the stale
# bound): a replica started during an outage serves the last good answer another fetched, and
# one that finds only a stale value asks the catalog. Redis keeps its own time, so an answer's
# age there is set with PEXPIRE (no sleeps).

DAY = 86_400.0
TTL = 60.0  # the search family's
PATH, PARAMS = "papers/search", {"q": "gan"}
STALE_NEWER = {"id": "1", "results": [{"id": "2", "title": "U"}], "count": 1}


def stale_replica(
    url: str, clock: Callable[[], float] | None = None, ahead: int = 0
) -> CachedCatalog:
    """A replica that keeps answers for a day past their TTL."""
    timing = {"clock": clock} if clock else {}
    flight = SharedFlight(shared(url, bound=1 << 20))
    return CachedCatalog(CatalogClient(BASE), shared=flight, max_stale=DAY, ahead=ahead, **timing)


def age_in_redis(catalog: CachedCatalog, store: redis.Redis, seconds: float) -> None:
    """Make the shared value `seconds` old, as Redis counts its time left."""
    name = name_of(catalog, "search", PATH, PARAMS)
    assert store.pttl(name) > (DAY - 1) * 1000  # kept for the stale bound, not the TTL
    store.pexpire(name, int((DAY - seconds) * 1000))


def test_a_replica_started_during_an_outage_serves_the_last_good_answer(
    server: RedisServer, store: redis.Redis, mock: respx.MockRouter
) -> None:
    upstream = mock.get(f"/{PATH}").mock(
        side_effect=[httpx.Response(200, json=DOC), httpx.Response(503)]
    )
    first = stale_replica(server.url)
    first.get_json(PATH, PARAMS)
    age_in_redis(first, store, 600)  # ten minutes later, the catalog down
    started = stale_replica(server.url)  # nothing in its own memory
    with started.reading() as reads:
        assert started.get_json(PATH, PARAMS) == DOC
    assert upstream.call_count == 2  # a stale value is no hit: the catalog was asked
    [stale] = reads.stale
    assert (stale.age_s, stale.reason) == (600, "503") and not reads.cacheable


def test_a_stale_shared_value_is_replaced_by_a_fresh_answer(
    server: RedisServer, store: redis.Redis, mock: respx.MockRouter
) -> None:
    upstream = mock.get(f"/{PATH}").mock(
        side_effect=[httpx.Response(200, json=DOC), httpx.Response(200, json=STALE_NEWER)]
    )
    first = stale_replica(server.url)
    first.get_json(PATH, PARAMS)
    age_in_redis(first, store, TTL + 1)
    second = stale_replica(server.url)
    assert second.get_json(PATH, PARAMS) == STALE_NEWER  # the catalog answers: fresh
    third = stale_replica(server.url)
    assert third.get_json(PATH, PARAMS) == STALE_NEWER  # and it is shared
    assert upstream.call_count == 2 and third.stats()["l2_hits"] == 1


def test_a_fresh_shared_value_is_a_hit_as_before(
    server: RedisServer, store: redis.Redis, mock: respx.MockRouter
) -> None:
    upstream = mock.get(f"/{PATH}").respond(json=DOC)
    first = stale_replica(server.url)
    first.get_json(PATH, PARAMS)
    age_in_redis(first, store, TTL - 5)
    clock_now = [1000.0]
    second = stale_replica(server.url, clock=lambda: clock_now[0])
    assert second.get_json(PATH, PARAMS) == DOC and upstream.call_count == 1
    clock_now[0] += 5  # its copy is as old as the shared one: it expires with it
    second.get_json(PATH, PARAMS)
    stats = second.stats()
    assert (stats["hits"], stats["l2_hits"], upstream.call_count) == (0, 2, 1)


def test_one_replica_refreshes_ahead_for_all(
    server: RedisServer, store: redis.Redis, mock: respx.MockRouter
) -> None:
    upstream = mock.get(f"/{PATH}").respond(json=DOC)
    clock_now = [1000.0]
    replicas = [stale_replica(server.url, clock=lambda: clock_now[0], ahead=2) for _ in range(3)]
    replicas[0].get_json(PATH, PARAMS)
    for other in replicas[1:]:
        other.get_json(PATH, PARAMS)  # level-2 hits
    assert upstream.call_count == 1
    clock_now[0] += 50  # the last fifth of the TTL, for all three copies
    for each in replicas:
        each.get_json(PATH, PARAMS)
        for thread in list(each.ahead.threads):
            thread.join(10)
    assert upstream.call_count == 2  # one refresh, for every replica
    counts = [each.stats()["ahead"] for each in replicas]
    assert sum(c["refreshes"] for c in counts) == 1
    assert sum(c["refresh_shared"] for c in counts) == 2
