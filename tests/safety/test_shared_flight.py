"""Single flight across replicas through a real redis-server: two `CachedCatalog`s stand for
two replicas, the upstream is mocked, held and counted.

One replica fetches and the other joins it; a wait always ends in an answer: the holder's, or
the replica's own direct request when the holder died, the wait ran out or Redis went away.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest
import redis
import respx

from pwc_core.transport import CatalogClient, canonical_request
from pwc_mcp.caching.cache import CachedCatalog
from pwc_mcp.caching.leases import SharedFlight
from pwc_mcp.caching.shared_cache import SharedCache, cache_secret, redis_client
from tests.helpers import wait_until
from tests.helpers.safety import RedisServer, redis_server

BASE = "https://catalog.test/api/v1"
DOC = {"id": "1", "results": [], "count": 0}
SECRET = cache_secret(b"replica-shared-secret-0123456789abcdef")
PATH = "tasks/1/page"
KEY = "json:" + canonical_request(PATH, ())


@pytest.fixture
def server() -> Iterator[RedisServer]:
    """Its own redis-server per test: some tests kill it."""
    with redis_server() as running:
        yield running


@pytest.fixture
def mock() -> Iterator[respx.MockRouter]:
    with respx.mock(base_url=BASE, assert_all_called=False) as router:
        yield router


def replica(url: str, **flight: Any) -> CachedCatalog:
    cache = SharedCache(redis_client(url), SECRET, max_value_bytes=1 << 16)
    return CachedCatalog(CatalogClient(BASE), shared=SharedFlight(cache, **flight))


def flight_of(catalog: CachedCatalog) -> SharedFlight:
    assert catalog.shared is not None
    return catalog.shared


class Held:
    """An upstream answer that waits until `release()`; `entered` counts arrivals."""

    def __init__(
        self, answer: Callable[[], httpx.Response] = lambda: httpx.Response(200, json=DOC)
    ):
        self.answer, self.entered, self.opened = answer, threading.Semaphore(0), threading.Event()

    def __call__(self, request: httpx.Request) -> httpx.Response:
        self.entered.release()
        assert self.opened.wait(20), "never released"
        return self.answer()

    def wait_entered(self) -> None:
        assert self.entered.acquire(timeout=20), "the upstream was never asked"

    def release(self) -> None:
        self.opened.set()


def in_thread(work: Callable[[], Any]) -> tuple[threading.Thread, list[Any]]:
    out: list[Any] = []

    def run() -> None:
        try:
            out.append(work())
        except BaseException as error:  # collected for the assertions
            out.append(error)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread, out


def test_one_replica_fetches_and_the_other_joins_it(server, mock) -> None:
    held = Held()
    upstream = mock.get(f"/{PATH}").mock(side_effect=held)
    a, b = replica(server.url), replica(server.url)
    first, got_a = in_thread(lambda: a.get_json(PATH))
    held.wait_entered()  # a holds the lease and is at the upstream
    second, got_b = in_thread(lambda: b.get_json(PATH))
    wait_until(lambda: flight_of(b).stats()["waits"] == 1)
    held.release()
    first.join(20), second.join(20)
    assert got_a == got_b == [DOC] and upstream.call_count == 1
    assert flight_of(a).stats()["leases"] == 1 and flight_of(a).stats()["held"] == 0
    assert flight_of(b).stats()["joins"] == 1
    assert b.stats()["shared_joins"] == 1 and b.stats()["upstream_calls"] == 0
    assert server.client().keys("pwc-mcp:lease:*") == []  # released


def test_a_waiter_fetches_itself_when_the_holder_dies(server, mock) -> None:
    upstream = mock.get(f"/{PATH}").respond(json=DOC)
    b = replica(server.url)
    lease = flight_of(b).cache.name("lease", "taxonomy", KEY)
    server.client().set(lease, "a-replica-that-will-die", px=60_000)
    waiter, got = in_thread(lambda: b.get_json(PATH))
    wait_until(lambda: flight_of(b).stats()["waits"] == 1)
    assert upstream.call_count == 0  # it waits for the holder
    server.client().delete(lease)  # the holder's lease lapses: it renews no more
    waiter.join(20)
    assert got == [DOC] and upstream.call_count == 1
    assert flight_of(b).stats()["holder_gone"] == 1
    assert replica(server.url).get_json(PATH) == DOC and upstream.call_count == 1  # shared


def test_a_wait_is_bounded(server, mock) -> None:
    """A live lease that never ends: the wait runs out on its (injected) clock."""
    upstream = mock.get(f"/{PATH}").respond(json=DOC)
    now = [0.0]

    def pause(seconds: float) -> None:
        now[0] += seconds

    b = replica(server.url, wait_seconds=10.0, clock=lambda: now[0], pause=pause)
    server.client().set(flight_of(b).cache.name("lease", "taxonomy", KEY), "stuck", px=600_000)
    assert b.get_json(PATH) == DOC and upstream.call_count == 1
    assert flight_of(b).stats()["wait_expired"] == 1 and 10.0 <= now[0] < 10.1


def test_redis_dying_mid_wait_loses_no_call(server, mock) -> None:
    upstream = mock.get(f"/{PATH}").respond(json=DOC)
    b = replica(server.url)
    server.client().set(flight_of(b).cache.name("lease", "taxonomy", KEY), "holder", px=600_000)
    waiter, got = in_thread(lambda: b.get_json(PATH))
    wait_until(lambda: flight_of(b).stats()["waits"] == 1)
    server.stop()
    waiter.join(20)
    assert got == [DOC] and upstream.call_count == 1
    assert flight_of(b).stats()["redis_failed"] == 1
    assert flight_of(b).cache.health.degraded


def test_a_holder_that_cannot_share_its_answer_lets_the_waiter_go(server, mock) -> None:
    held = Held(lambda: httpx.Response(503, json={"detail": "busy"}))
    upstream = mock.get(f"/{PATH}").mock(side_effect=held)
    a, b = replica(server.url), replica(server.url)
    first, got_a = in_thread(lambda: a.get_json(PATH))
    held.wait_entered()
    second, got_b = in_thread(lambda: b.get_json(PATH))
    wait_until(lambda: flight_of(b).stats()["waits"] == 1)
    held.release()
    first.join(20), second.join(20)
    assert [type(e).__name__ for e in got_a + got_b] == ["HTTPStatusError"] * 2
    assert upstream.call_count == 2  # b's own request, once a let go without an answer
    assert flight_of(b).stats()["holder_gone"] == 1


def test_a_holder_keeps_its_lease_while_it_fetches(server, mock) -> None:
    """A 0.3 s lease renewed every 0.05 s outlives several lease times while the upstream is
    held, so no other replica fetches meanwhile."""
    held = Held()
    mock.get(f"/{PATH}").mock(side_effect=held)
    a = replica(server.url, lease_seconds=0.3, renew_every=0.05)
    lease = flight_of(a).cache.name("lease", "taxonomy", KEY)
    first, got = in_thread(lambda: a.get_json(PATH))
    held.wait_entered()
    client = server.client()
    token = client.get(lease)
    ttls: list[int] = []

    def now() -> float:  # Redis's own clock
        seconds, micros = client.time()
        return seconds + micros / 1e6

    def renewed_past_its_first_life() -> bool:
        ttls.append(client.pttl(lease))
        return now() >= deadline

    deadline = now() + 1.0  # more than three lease lives
    wait_until(renewed_past_its_first_life, timeout=10, interval=0.02)
    assert client.get(lease) == token and min(ttls) > 0
    held.release()
    first.join(20)
    assert got == [DOC] and client.get(lease) is None


def test_a_lease_is_released_only_by_its_holder(server) -> None:
    flight = flight_of(replica(server.url))
    client: redis.Redis = server.client()
    found = flight.find("taxonomy", KEY, lambda payload: None)
    assert not hasattr(found, "value") and getattr(found, "held", False)
    name = flight.cache.name("lease", "taxonomy", KEY)
    client.set(name, "another-holder", px=60_000)  # ours lapsed and another replica took it
    found.release()  # type: ignore[union-attr]
    assert client.get(name) == b"another-holder"


def test_a_stored_answer_is_found_without_a_lease(server, mock) -> None:
    """The look and the lease are one atomic step (a Lua script): a replica that finds the
    answer takes no lease, and one that finds none takes it in that same step, so no holder
    can store and let go in between."""
    upstream = mock.get(f"/{PATH}").respond(json=DOC)
    a, b = replica(server.url), replica(server.url)
    assert a.get_json(PATH) == DOC and flight_of(a).stats()["leases"] == 1
    assert b.get_json(PATH) == DOC and upstream.call_count == 1
    assert flight_of(b).stats()["leases"] == 0 and b.stats()["l2_hits"] == 1
    assert server.client().get(flight_of(b).cache.name("lease", "taxonomy", KEY)) is None


def test_a_holder_stores_its_answer_before_it_lets_go(server, mock) -> None:
    """Seen by Redis itself (MONITOR): the answer's SET comes before the lease's release, so a
    waiter that finds the lease gone finds the answer too (it reads the lease first)."""
    mock.get(f"/{PATH}").respond(json=DOC)
    a = replica(server.url)
    answer = flight_of(a).cache.name("answer", "taxonomy", KEY)
    lease = flight_of(a).cache.name("lease", "taxonomy", KEY)
    seen: list[str] = []
    with server.client().monitor() as monitor:
        assert a.get_json(PATH) == DOC
        while "EVAL lease" not in seen:  # the release (the look's EVAL names the answer)
            command = monitor.next_command()["command"]
            if answer in command or lease in command:
                seen.append(command.split()[0] + (" answer" if answer in command else " lease"))
    assert [c for c in seen if c in ("SET answer", "EVAL lease")] == ["SET answer", "EVAL lease"]
