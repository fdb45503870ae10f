"""Stale if error and refresh ahead in the answer caches (issue #38), on an injected clock.

The upstream is an HTTP mock that answers, then fails; what is asserted is what the cache does
with that: the last good answer stands in for a failure (labelled, never kept as fresh), an
answer of the catalog is never masked, and a read late in a TTL refreshes the entry ahead.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator

import httpx
import pytest
import respx

from pwc_core.errors import HTTPStatusError, UpstreamShapeError, UpstreamTimeout
from pwc_core.transport import CatalogClient
from pwc_mcp.caching.bounded_cache import BoundedTTLCache
from pwc_mcp.caching.cache import CachedCatalog
from tests.helpers.mcp import CATALOG_BASE as BASE
from tests.helpers.slow_redis import ManualClock as Clock

DOC = {"id": "1", "results": [{"id": "1", "title": "T"}], "count": 1}
NEWER = {"id": "1", "results": [{"id": "2", "title": "U"}], "count": 1}
DAY = 86_400.0
EPOCH = 1_796_620_000.0  # 2026-12-07 05:06:40 UTC: the wall clock when the test starts


@pytest.fixture
def clock() -> Clock:
    return Clock()


def catalog_for(clock: Clock, *, max_stale: float = DAY, ahead: int = 0) -> CachedCatalog:
    wall = lambda: EPOCH + clock.now  # noqa: E731  the same injected time, as a wall clock
    return CachedCatalog(
        CatalogClient(BASE), clock=clock, max_stale=max_stale, ahead=ahead, wall=wall
    )


# -- the bounded cache keeps a last good copy -----------------------------------------------


def test_a_stale_entry_is_no_hit_but_is_kept_until_the_grace_ends(clock: Clock) -> None:
    cache = BoundedTTLCache(ttl=60, max_entries=4, max_bytes=100, clock=clock, grace=100)
    cache.set("k", "v", 10)
    clock.now += 60
    assert cache.lookup("k") is None  # past its TTL: not an answer
    assert cache.lookup_stale("k") == ("v", 1, 60)
    assert cache.stats()["stale_entries"] == 1 and cache.bytes == 10  # one copy, counted
    clock.now += 100
    assert cache.lookup_stale("k") is None and cache.entries == 0


def test_without_grace_nothing_is_kept_past_the_ttl(clock: Clock) -> None:
    cache = BoundedTTLCache(ttl=60, max_entries=4, max_bytes=100, clock=clock)
    cache.set("k", "v", 10)
    clock.now += 60
    assert cache.lookup_stale("k") is None and cache.entries == 0


def test_stale_entries_make_room_first_whatever_their_popularity(clock: Clock) -> None:
    cache = BoundedTTLCache(ttl=60, max_entries=2, max_bytes=100, clock=clock, grace=1000)
    for _ in range(10):
        cache.lookup("popular")
    cache.set("popular", "p", 10)
    clock.now += 30
    cache.lookup("other")
    cache.set("other", "o", 10)
    clock.now += 40  # "popular" is stale, "other" fresh
    cache.lookup("new")
    assert cache.set("new", "n", 10) is not None  # admitted over a stale entry, seen 10 times
    assert cache.lookup_stale("popular") is None and cache.lookup("other") is not None


# -- stale if error -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("failure", "reason"),
    [
        (httpx.Response(503, json={"detail": "down"}), "503"),
        (httpx.Response(429, json={"detail": "slow down"}), "429"),
        (httpx.ConnectError("refused"), "error"),
        (httpx.ReadTimeout("slow"), "timeout"),
        (httpx.Response(200, text="<html>maintenance</html>"), "invalid"),
    ],
)
def test_a_failure_is_answered_with_the_last_good_answer_labelled(
    mock: respx.MockRouter, clock: Clock, failure: object, reason: str
) -> None:
    upstream = mock.get("/papers/search").mock(side_effect=[httpx.Response(200, json=DOC), failure])
    catalog = catalog_for(clock)
    assert catalog.get_json("papers/search", {"q": "gan"}) == DOC
    clock.now += 240  # four minutes: the one-minute TTL has run out
    with catalog.reading() as reads:
        assert catalog.get_json("papers/search", {"q": "gan"}) == DOC
    assert upstream.call_count == 2  # the catalog was asked first
    [stale] = reads.stale
    assert (stale.as_of, stale.age_s, stale.reason) == (EPOCH + 1000, 240, reason)
    assert not reads.cacheable  # a result made from it is never remembered
    assert catalog.stats()["stale_served"] == 1


def test_an_answer_of_the_catalog_is_never_masked(mock: respx.MockRouter, clock: Clock) -> None:
    mock.get("/tasks/1/page").mock(
        side_effect=[httpx.Response(200, json=DOC), httpx.Response(404, json={"detail": "gone"})]
    )
    catalog = catalog_for(clock)
    catalog.get_json("tasks/1/page")
    clock.now += 3601  # past any family's TTL
    with pytest.raises(HTTPStatusError) as raised:
        catalog.get_json("tasks/1/page")
    assert raised.value.status == 404 and catalog.stats()["stale_served"] == 0


def test_with_no_stale_bound_a_failure_is_an_error_as_before(
    mock: respx.MockRouter, clock: Clock
) -> None:
    mock.get("/papers/search").mock(
        side_effect=[httpx.Response(200, json=DOC), httpx.ReadTimeout("slow")]
    )
    catalog = catalog_for(clock, max_stale=0)
    catalog.get_json("papers/search", {"q": "gan"})
    clock.now += 61
    with pytest.raises(UpstreamTimeout):
        catalog.get_json("papers/search", {"q": "gan"})
    assert catalog.caches["search"].entries == 0  # nothing kept past the TTL


def test_an_answer_older_than_the_bound_is_not_served(mock: respx.MockRouter, clock: Clock) -> None:
    mock.get("/papers/search").mock(
        side_effect=[httpx.Response(200, json=DOC), httpx.Response(500)]
    )
    catalog = catalog_for(clock, max_stale=600)
    catalog.get_json("papers/search", {"q": "gan"})
    clock.now += 601
    with pytest.raises(HTTPStatusError):
        catalog.get_json("papers/search", {"q": "gan"})


def test_a_stale_answer_is_not_kept_as_fresh_and_recovery_is_fresh(
    mock: respx.MockRouter, clock: Clock
) -> None:
    upstream = mock.get("/papers/search").mock(
        side_effect=[
            httpx.Response(200, json=DOC),
            httpx.Response(502),
            httpx.Response(502),
            httpx.Response(200, json=NEWER),
        ]
    )
    catalog = catalog_for(clock)
    catalog.get_json("papers/search", {"q": "gan"})
    clock.now += 120
    assert catalog.get_json("papers/search", {"q": "gan"}) == DOC  # stale
    assert catalog.get_json("papers/search", {"q": "gan"}) == DOC  # asked again: no hit
    with catalog.reading() as reads:
        assert catalog.get_json("papers/search", {"q": "gan"}) == NEWER  # recovered: fresh
    assert upstream.call_count == 4 and reads.stale == [] and reads.cacheable


def test_unusable_answers_are_still_dropped_for_good(mock: respx.MockRouter, clock: Clock) -> None:
    """A call that finds a kept answer of the wrong shape forgets it, stale copy included."""
    mock.get("/papers/search").mock(
        side_effect=[httpx.Response(200, json=DOC), httpx.Response(503)]
    )
    catalog = catalog_for(clock)
    with pytest.raises(UpstreamShapeError), catalog.reading():
        catalog.get_json("papers/search", {"q": "gan"})
        raise UpstreamShapeError("a handler found it unusable")
    clock.now += 120
    with pytest.raises(HTTPStatusError):
        catalog.get_json("papers/search", {"q": "gan"})


# -- refresh ahead --------------------------------------------------------------------------


def test_a_read_late_in_the_ttl_is_answered_at_once_and_refreshed_behind(
    mock: respx.MockRouter, clock: Clock
) -> None:
    release = threading.Event()

    def held(request: httpx.Request) -> httpx.Response:
        release.wait(10)  # the refresh is in flight while the caller is answered
        return httpx.Response(200, json=NEWER)

    upstream = mock.get("/papers/search").mock(
        side_effect=[httpx.Response(200, json=DOC), held, held]
    )
    catalog = catalog_for(clock, ahead=2)
    catalog.get_json("papers/search", {"q": "gan"})
    clock.now += 47  # within the TTL's first four fifths: no refresh
    catalog.get_json("papers/search", {"q": "gan"})
    assert not catalog.ahead.threads
    clock.now += 2  # 49 s of 60: the last fifth
    assert catalog.get_json("papers/search", {"q": "gan"}) == DOC  # from cache, not waiting
    assert catalog.get_json("papers/search", {"q": "gan"}) == DOC  # one refresh per entry
    [refresh] = catalog.ahead.threads
    release.set()
    refresh.join(10)
    assert upstream.call_count == 2
    clock.now += 20  # past the first answer's TTL: the refreshed one is a hit
    with catalog.reading() as reads:
        assert catalog.get_json("papers/search", {"q": "gan"}) == NEWER
    assert upstream.call_count == 2 and reads.cacheable
    assert catalog.stats()["ahead"]["refreshes"] == 1


def test_refreshes_at_once_are_bounded_and_the_rest_skipped(
    mock: respx.MockRouter, clock: Clock
) -> None:
    release = threading.Event()

    def held(request: httpx.Request) -> httpx.Response:
        release.wait(10)
        return httpx.Response(200, json=DOC)

    keys = [f"q{index}" for index in range(3)]
    answers = iter([httpx.Response(200, json=DOC)] * 3 + [held] * 3)
    upstream = mock.get("/papers/search").mock(side_effect=lambda request: _next(answers, request))
    catalog = catalog_for(clock, ahead=1)
    for key in keys:
        catalog.get_json("papers/search", {"q": key})
    clock.now += 50
    for key in keys:
        catalog.get_json("papers/search", {"q": key})
    release.set()
    for thread in list(catalog.ahead.threads):
        thread.join(10)
    ahead = catalog.stats()["ahead"]
    assert (ahead["refreshes"], ahead["refresh_skipped"]) == (1, 2)
    assert upstream.call_count == 4  # never more requests than keys read


def test_a_failed_refresh_is_not_retried_within_the_ttl(
    mock: respx.MockRouter, clock: Clock
) -> None:
    upstream = mock.get("/papers/search").mock(
        side_effect=[httpx.Response(200, json=DOC), httpx.Response(503)]
    )
    catalog = catalog_for(clock, ahead=2)
    catalog.get_json("papers/search", {"q": "gan"})
    clock.now += 50
    for _ in range(3):
        catalog.get_json("papers/search", {"q": "gan"})
        for thread in list(catalog.ahead.threads):
            thread.join(10)
    assert upstream.call_count == 2


def _next(answers: Iterator[object], request: httpx.Request) -> httpx.Response:
    answer = next(answers)
    return answer(request) if callable(answer) else answer  # type: ignore[return-value]
