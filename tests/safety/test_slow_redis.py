"""A slow Redis cannot stall calls (#37): replies delayed by a proxy that charges each round trip
to an injected clock (tests/helpers/slow_redis.py), so what a call spent on Redis is counted by
the proxy, not timed.

The attack: with replies 0.8 s late (under the old 1 s socket timeout), a cold 1,000-row
leaderboard took 30 s (three round trips one after another per catalog request) and the rate
limits added 0.8 s to every request, while /health said ok."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import anyio
import pytest
import respx
from limits import RateLimitItemPerMinute

from pwc_core.transport import CatalogClient
from pwc_mcp.caching.cache import CachedCatalog
from pwc_mcp.caching.leases import SharedFlight
from pwc_mcp.caching.shared_cache import SharedCache, cache_secret, redis_client
from pwc_mcp.edge.windows import Windows
from pwc_mcp.storage.budget import CALL_SECONDS
from tests.helpers.safety import RedisServer, redis_server
from tests.helpers.slow_redis import ManualClock, SlowProxy, slow_proxy

BASE = "https://catalog.test/api/v1"
SECRET = cache_secret(b"replica-shared-secret-0123456789abcdef")
PAGES = 40  # a whole-board read: one catalog request per page


@pytest.fixture(scope="module")
def server() -> Iterator[RedisServer]:
    with redis_server() as running:
        yield running


@pytest.fixture
def mock() -> Iterator[respx.MockRouter]:
    with respx.mock(base_url=BASE, assert_all_called=False) as router:
        router.get(path__regex=r"/tasks/.*").respond(json={"results": [], "count": 0})
        yield router


def replica(proxy: SlowProxy, clock: ManualClock) -> CachedCatalog:
    cache = SharedCache(redis_client(proxy.url), SECRET, max_value_bytes=1 << 16, clock=clock)
    cache.redis.ping()  # the connection's own set-up is not a call's round trip
    proxy.round_trips = 0
    return CachedCatalog(CatalogClient(BASE), shared=SharedFlight(cache, clock=clock))


def stats(catalog: CachedCatalog) -> dict[str, Any]:
    assert catalog.shared is not None
    return catalog.shared.cache.stats()


def test_a_cold_request_is_two_round_trips_and_a_level_two_hit_one(
    server: RedisServer, mock: respx.MockRouter
) -> None:
    clock = ManualClock()
    with slow_proxy(server.port, clock, 0.0) as proxy:
        first = replica(proxy, clock)
        first.get_json("tasks/cold-1/")
        assert proxy.round_trips == 2  # look-and-lease, then store-and-release
        other = replica(proxy, clock)  # another replica: its level 1 is empty
        other.get_json("tasks/cold-1/")
        assert proxy.round_trips == 1 and other.stats()["l2_hits"] == 1


@pytest.mark.parametrize("delay", [0.8, 0.15], ids=["slower-than-slow", "just-under-slow"])
def test_a_slow_redis_costs_a_call_at_most_its_budget(
    server: RedisServer, mock: respx.MockRouter, delay: float
) -> None:
    clock = ManualClock()
    with slow_proxy(server.port, clock, delay) as proxy:
        catalog = replica(proxy, clock)
        with catalog.reading():  # one call reading a whole board, page by page
            for page in range(PAGES):
                catalog.get_json(f"tasks/board-{delay}/", {"page": page + 1})
        assert proxy.spent() <= CALL_SECONDS + delay  # never 3 x 40 x delay
        assert catalog.stats()["upstream_calls"] == PAGES  # every page answered
        counts = stats(catalog)
        if delay > catalog.shared.cache.health.slow_seconds:  # type: ignore[union-attr]
            assert counts["degraded"] and counts["slow"] >= 1  # slow counts like an error
        else:
            assert counts["over_budget"] >= 1  # the rest of the call went without Redis


def test_slow_rate_limit_storage_falls_back_after_one_slow_reply(server: RedisServer) -> None:
    clock = ManualClock()
    with slow_proxy(server.port, clock, 0.0) as proxy:
        windows = Windows(proxy.url, clock=clock)
        item = RateLimitItemPerMinute(5)

        async def scenario() -> list[int | None]:
            await windows.hit(item, "request", "warm-up")  # the storage's own set-up
            proxy.round_trips, proxy.delay = 0, 0.8
            return [await windows.hit(item, "request", f"client {n}") for n in range(20)]

        assert anyio.run(scenario) == [None] * 20
        assert proxy.spent() <= 0.8  # one slow reply, then the windows in this process
        assert windows.degraded and windows.health.stats()["slow"] == 1
