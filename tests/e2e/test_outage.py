"""Drills for issue #38 over loopback: the real app under uvicorn, real MCP requests, the sample
catalog failing on command, and the server's caches on an injected clock (no sleeps).

* down for ten minutes: every call answered before is still answered, labelled in its text and
  its `structuredContent`; a call never seen fails with the usual error;
* flapping: each call is fresh when the catalog answers, stale (labelled) when it does not;
* slow: a catalog slower than the client's timeout is a failure like any other;
* recovery: the next call is fresh, asked of the catalog;
* refresh ahead: a popular call read all day never waits for the catalog (no cache miss after
  its first), at one upstream request per TTL; without it, every TTL makes one caller wait.
"""

from __future__ import annotations

import contextlib
import secrets
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from pwc_core.transport import CatalogClient
from pwc_mcp.app import create_app
from pwc_mcp.caching.cache import CachedCatalog, ChunkCache
from pwc_mcp.catalog import CatalogService
from pwc_mcp.cursors import CursorCodec
from pwc_mcp.sample import RunningCatalog
from pwc_mcp.serving.localserver import serve_in_thread
from tests.helpers.e2e import RPC_HEADERS, rpc, settings_for
from tests.helpers.slow_redis import ManualClock

EPOCH = 1_796_620_000.0  # the injected wall clock's origin: 2026-12-07 05:06:40 UTC
DAY = 86_400
CHUNK = 2000  # bytes of Markdown a read returns: papers take several
TIMEOUT = 1.0  # the catalog client's timeout in these drills (the slow drill exceeds it)
SEEN = [
    ("search_papers", {"query": "outage drill vision", "mode": "keyword"}),
    ("get_paper_info", {"paper": "2010.11929"}),
    ("list_tasks", {"search": "image"}),
    ("get_related_papers", {"paper": "1512.03385", "limit": 5}),
    ("get_benchmark", {"benchmark": "ImageNet", "sort_metric": "Top 1 Accuracy"}),
]
UNSEEN = ("search_papers", {"query": "never asked before", "mode": "keyword"})
LINE = "The catalog could not be reached; this answer is from "


class Clock(ManualClock):
    def wall(self) -> float:
        return EPOCH + self.now


class Drill:
    def __init__(
        self, catalog: RunningCatalog, http: httpx.Client, clock: Clock, cache: CachedCatalog
    ) -> None:
        self.catalog, self.http, self.clock, self.cache = catalog, http, clock, cache

    def call(self, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
        reply = self.http.post(
            "/mcp",
            json=rpc("tools/call", {"name": name, "arguments": arguments}),
            headers=RPC_HEADERS,
        )
        assert reply.status_code == 200, reply.text
        result: dict[str, Any] = reply.json()["result"]
        return result

    def answered(self, name: str, arguments: dict[str, Any]) -> tuple[str, dict[str, Any]]:
        result = self.call(name, arguments)
        text = result["content"][0]["text"]
        assert not result.get("isError"), (name, text)
        return text, result["structuredContent"]


@contextlib.contextmanager
def drilled(catalog: RunningCatalog, ahead: int = 0) -> Iterator[Drill]:
    clock = Clock()
    client = CatalogClient(catalog.url, timeout=TIMEOUT)
    transport = CachedCatalog(client, clock=clock, max_stale=DAY, ahead=ahead, wall=clock.wall)
    chunks = ChunkCache(clock=clock, max_stale=DAY, wall=clock.wall)
    codec = CursorCodec(secrets.token_bytes(32))
    service = CatalogService(transport, codec, chunks, chunk_limit=CHUNK)
    app = create_app(settings_for(catalog), catalog=service)
    try:
        with (
            serve_in_thread(app, name="pwc-mcp-outage") as running,
            httpx.Client(base_url=running.origin, timeout=30) as http,
        ):
            yield Drill(catalog, http, clock, transport)
    finally:
        catalog.faults.reset()


@pytest.fixture
def drill(catalog: RunningCatalog) -> Iterator[Drill]:
    with drilled(catalog) as running:
        yield running


def stale_of(text: str, structured: dict[str, Any]) -> dict[str, Any]:
    """The stale label, checked to say the same in both channels."""
    first = text.splitlines()[0]
    assert first.startswith(LINE), first
    label = structured["stale"]
    when = label["as_of"].replace("T", " ")[:16] + " UTC"
    assert first.startswith(f"{LINE}{when}, "), (first, label)
    return dict(label)


def test_down_for_ten_minutes_every_known_call_is_answered_and_labelled(drill: Drill) -> None:
    fresh = {name: drill.answered(name, arguments) for name, arguments in SEEN}
    for _, structured in fresh.values():
        assert "stale" not in structured
    drill.catalog.faults.fail(503, times=100_000)  # down from now on
    labelled: dict[str, list[int]] = {name: [] for name, _ in SEEN}
    for minute in range(1, 11):
        drill.clock.now += 60
        for name, arguments in SEEN:
            text, structured = drill.answered(name, arguments)
            assert structured["data"] == fresh[name][1]["data"], name  # the last good answer
            if "stale" in structured or text.startswith(LINE):  # an entry it read outlived its TTL
                label = stale_of(text, structured)
                assert label["reason"] == "503" and label["age_s"] >= 60, name
                labelled[name].append(minute)
        unseen = drill.call(*UNSEEN)
        assert unseen["isError"] and LINE not in unseen["content"][0]["text"]
    # Each is labelled once an entry it read outlives its family's TTL (search 1 minute, paper
    # data 5, taxonomy 10): after ten minutes, all of them.
    assert labelled["search_papers"] == list(range(1, 11))
    assert labelled["get_paper_info"] == list(range(5, 11))
    assert all(minutes[-1] == 10 for minutes in labelled.values()), labelled
    metrics = drill.http.get("/metrics.json").json()["cache"]
    assert metrics["stale_served"] > 0
    health = drill.http.get("/health").json()
    assert health["stale"] and all(count > 0 for count in health["stale"].values())
    public = drill.http.get("/health", headers={"X-Forwarded-For": "203.0.113.9"}).json()
    assert "stale" not in public  # the operator's business, as the other fallbacks


def test_a_stale_answer_is_never_remembered_and_recovery_is_fresh(drill: Drill) -> None:
    name, arguments = SEEN[0]
    drill.answered(name, arguments)
    drill.catalog.faults.fail(502, times=100_000)
    drill.clock.now += 120
    for _ in range(2):  # the second is asked of the catalog again: the first was not kept
        before = drill.catalog.stats.total()
        text, structured = drill.answered(name, arguments)
        assert stale_of(text, structured)["reason"] == "502"
        assert drill.catalog.stats.total() > before
    drill.catalog.faults.reset()  # recovered
    text, structured = drill.answered(name, arguments)
    assert "stale" not in structured and not text.startswith(LINE)
    before = drill.catalog.stats.total()
    assert drill.answered(name, arguments) == (text, structured)  # and now remembered
    assert drill.catalog.stats.total() == before


def test_a_flapping_catalog_labels_exactly_the_answers_it_failed(drill: Drill) -> None:
    name, arguments = SEEN[1]
    drill.answered(name, arguments)
    for step in range(6):
        drill.clock.now += 301  # past the paper family's TTL every time
        down = step % 2 == 0
        if down:
            drill.catalog.faults.fail(500, times=100_000)
        text, structured = drill.answered(name, arguments)
        assert ("stale" in structured) is down and text.startswith(LINE) is down, step
        drill.catalog.faults.reset()


def test_a_catalog_slower_than_the_timeout_is_answered_from_before(drill: Drill) -> None:
    name, arguments = SEEN[0]
    drill.answered(name, arguments)
    drill.clock.now += 61
    drill.catalog.faults.latency = TIMEOUT * 3
    text, structured = drill.answered(name, arguments)
    assert stale_of(text, structured) == {
        "as_of": "2026-12-07T05:23:20Z",  # EPOCH + 1000 s, when it was fetched
        "age_s": 61,
        "reason": "timeout",
    }
    assert text.splitlines()[0] == f"{LINE}2026-12-07 05:23 UTC, 1 minute old."


def test_a_paper_being_read_goes_on_from_the_chunks_kept(drill: Drill) -> None:
    """Markdown chunks are immutable per content version: a continuation (its cursor names the
    version) is served from the chunk kept past its hour when the catalog fails."""
    _, first = drill.answered("read_paper", {"paper": "1706.03762"})
    cursor = {"paper": "1706.03762", "cursor": first["next_cursor"]}
    _, second = drill.answered("read_paper", cursor)
    drill.catalog.faults.fail(503, times=100_000)
    drill.clock.now += 3700
    text, structured = drill.answered("read_paper", cursor)
    assert stale_of(text, structured)["reason"] == "503"
    assert structured["data"] == second["data"]


@pytest.mark.parametrize("ahead", [0, 4])
def test_a_popular_call_never_waits_for_the_catalog_when_refreshed_ahead(
    catalog: RunningCatalog, ahead: int
) -> None:
    name, arguments = SEEN[0]  # a search: one catalog request, a one-minute TTL
    with drilled(catalog, ahead=ahead) as drill:
        drill.answered(name, arguments)  # the first caller waits: nothing is known yet
        catalog.stats.reset()
        for _ in range(60):  # ten minutes, a call every 10 s
            drill.clock.now += 10
            drill.answered(name, arguments)
            for thread in list(drill.cache.ahead.threads):
                thread.join(10)  # the refresh behind the call ends before the next call
        counters = drill.http.get("/metrics.json").json()["cache"]["families"]["papers/search"]
    waited = counters["misses"] - 1  # calls answered only after asking the catalog
    requests = catalog.stats.requests["papers/search"]
    if ahead:
        assert waited == 0  # every call after the first answered from the cache at once
        assert requests == 12  # one refresh per entry, at 50 s of its 60 (read at 50 s)
    else:
        assert waited == 10  # each TTL's first caller waited for the catalog
        assert requests == 10
