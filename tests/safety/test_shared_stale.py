"""Stale if error and refresh ahead across replicas (issue #38), through a real redis-server.

Level 2 keeps an answer as long as level 1 does (soft expiry at its TTL, hard at the stale
bound): a replica started during an outage serves the last good answer another fetched, and a
replica that finds only a stale value asks the catalog, never serving it as fresh. Redis keeps
its own time, so an answer's age there is set with PEXPIRE (no sleeps).
"""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest
import redis
import respx

from pwc_core.transport import CatalogClient, canonical_request, encode_params
from pwc_mcp.caching.cache import CachedCatalog
from pwc_mcp.caching.leases import SharedFlight
from pwc_mcp.caching.shared_cache import SharedCache, cache_secret, redis_client
from tests.helpers.safety import RedisServer, redis_server

BASE = "https://catalog.test/api/v1"
DOC = {"id": "1", "results": [{"id": "1", "title": "T"}], "count": 1}
NEWER = {"id": "1", "results": [{"id": "2", "title": "U"}], "count": 1}
SECRET = cache_secret(b"replica-shared-secret-0123456789abcdef")
DAY = 86_400.0
TTL = 60.0  # the search family's
PATH, PARAMS = "papers/search", {"q": "gan"}


@pytest.fixture(scope="module")
def server() -> Iterator[RedisServer]:
    with redis_server() as running:
        yield running


@pytest.fixture
def store(server: RedisServer) -> Iterator[redis.Redis]:
    with server.client() as client:
        client.flushall()
        yield client


@pytest.fixture
def mock() -> Iterator[respx.MockRouter]:
    with respx.mock(base_url=BASE, assert_all_called=False) as router:
        yield router


def replica(url: str, **kwargs: object) -> CachedCatalog:
    flight = SharedFlight(SharedCache(redis_client(url), SECRET, max_value_bytes=1 << 20))
    return CachedCatalog(CatalogClient(BASE), shared=flight, max_stale=DAY, **kwargs)  # type: ignore[arg-type]


def age_in_redis(catalog: CachedCatalog, store: redis.Redis, seconds: float) -> None:
    """Make the shared value `seconds` old, as Redis counts its time left."""
    assert catalog.shared is not None
    key = "json:" + canonical_request(PATH, encode_params(PARAMS))
    name = catalog.shared.cache.name("answer", "search", key)
    assert store.pttl(name) > (DAY - 1) * 1000  # kept for the stale bound, not the TTL
    store.pexpire(name, int((DAY - seconds) * 1000))


def test_a_replica_started_during_an_outage_serves_the_last_good_answer(
    server: RedisServer, store: redis.Redis, mock: respx.MockRouter
) -> None:
    upstream = mock.get(f"/{PATH}").mock(
        side_effect=[httpx.Response(200, json=DOC), httpx.Response(503)]
    )
    first = replica(server.url)
    first.get_json(PATH, PARAMS)
    age_in_redis(first, store, 600)  # ten minutes later, the catalog down
    started = replica(server.url)  # nothing in its own memory
    with started.reading() as reads:
        assert started.get_json(PATH, PARAMS) == DOC
    assert upstream.call_count == 2  # a stale value is no hit: the catalog was asked
    [stale] = reads.stale
    assert (stale.age_s, stale.reason) == (600, "503") and not reads.cacheable


def test_a_stale_shared_value_is_replaced_by_a_fresh_answer(
    server: RedisServer, store: redis.Redis, mock: respx.MockRouter
) -> None:
    upstream = mock.get(f"/{PATH}").mock(
        side_effect=[httpx.Response(200, json=DOC), httpx.Response(200, json=NEWER)]
    )
    first = replica(server.url)
    first.get_json(PATH, PARAMS)
    age_in_redis(first, store, TTL + 1)
    second = replica(server.url)
    assert second.get_json(PATH, PARAMS) == NEWER  # the catalog answers: fresh
    third = replica(server.url)
    assert third.get_json(PATH, PARAMS) == NEWER  # and it is shared
    assert upstream.call_count == 2 and third.stats()["l2_hits"] == 1


def test_a_fresh_shared_value_is_a_hit_as_before(
    server: RedisServer, store: redis.Redis, mock: respx.MockRouter
) -> None:
    upstream = mock.get(f"/{PATH}").respond(json=DOC)
    first = replica(server.url)
    first.get_json(PATH, PARAMS)
    age_in_redis(first, store, TTL - 5)
    clock_now = [1000.0]
    second = replica(server.url, clock=lambda: clock_now[0])
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
    replicas = [replica(server.url, clock=lambda: clock_now[0], ahead=2) for _ in range(3)]
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
