"""Remembered tool results (pwc_mcp.caching.memo): the same answer a fresh call gives, never a stale,
mixed-up, pinned or unmetered one, and never unbounded."""

from __future__ import annotations

import copy
import json
import secrets
from collections.abc import AsyncIterator
from typing import Any

import anyio
import pytest
from fastmcp import Client
from fastmcp.tools import ToolResult
from mcp.types import TextContent

from pwc_core.errors import HTTPStatusError
from pwc_core.transport import CatalogClient
from pwc_mcp.caching.cache import CachedCatalog, ChunkCache
from pwc_mcp.caching.memo import ResultMemo
from pwc_mcp.catalog import CatalogService
from pwc_mcp.cursors import CursorCodec
from pwc_mcp.sample import RunningCatalog
from pwc_mcp.server import build_server
from pwc_mcp.site.examples import TOOL_EXAMPLES
from tests.helpers.mcp import Answers, call, error_of, make_service

pytestmark = pytest.mark.anyio


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def service(url: str, clock: Clock) -> CatalogService:
    transport = CachedCatalog(CatalogClient(url, timeout=25.0), clock=clock)
    return CatalogService(transport, CursorCodec(secrets.token_bytes(32)), ChunkCache())


def memo_of(client: Client) -> ResultMemo:
    from pwc_mcp.server import ToolCalls

    server = client.transport.server  # type: ignore[attr-defined]
    (layer,) = [m for m in server.middleware if isinstance(m, ToolCalls)]
    assert layer.memo is not None
    return layer.memo


@pytest.fixture
async def fresh(sample: RunningCatalog) -> AsyncIterator[Client]:
    async with Client(build_server(make_service(sample.url))) as connected:
        yield connected


async def test_a_remembered_result_is_the_fresh_result_and_asks_the_catalog_nothing(
    fresh: Client, sample: RunningCatalog
) -> None:
    for tool, examples in TOOL_EXAMPLES.items():
        first = await fresh.call_tool_mcp(tool, examples[0])
        before = sample.stats.total()
        again = await fresh.call_tool_mcp(tool, examples[0])
        assert unsigned(again) == unsigned(first), tool
        if tool != "read_paper":  # its cursor is signed afresh: never remembered
            assert sample.stats.total() == before, f"{tool} asked the catalog again"


def unsigned(result: Any) -> str:
    """A result as JSON with its continuation cursor blanked: a cursor is signed afresh for each
    call with an expiry in whole seconds, so two calls a second boundary apart differ only there."""
    dumped = json.dumps(result.model_dump(), sort_keys=True)
    cursor = (result.structured_content or {}).get("next_cursor")
    return dumped.replace(cursor, "<cursor>") if cursor else dumped


async def test_repeated_calls_count_as_the_cache_hits_they_stand_for(fresh: Client) -> None:
    arguments = TOOL_EXAMPLES["get_benchmark"][0]
    await call(fresh, "get_benchmark", **arguments)
    catalog = memo_of(fresh).catalog
    hits = catalog.stats()["hits"]
    await call(fresh, "get_benchmark", **arguments)
    second = catalog.stats()["hits"] - hits
    await call(fresh, "get_benchmark", **arguments)
    assert second > 0 and catalog.stats()["hits"] - hits == 2 * second


async def test_different_arguments_never_share_a_result(fresh: Client) -> None:
    # The two spellings the cache-poisoning attack used: one must not answer for the other.
    plain, _ = await call(fresh, "search_papers", query="vision transformer")
    tricked, _ = await call(
        fresh, "search_papers", query="vision transformer&start_date=2021-01-01"
    )
    dated, _ = await call(
        fresh, "search_papers", query="vision transformer", published_after="2021-01-01"
    )
    assert json.dumps(dated) != json.dumps(tricked)
    assert json.dumps(plain) != json.dumps(dated)
    keys = {
        ResultMemo.key("search_papers", {"query": "a", "mode": "keyword"}),
        ResultMemo.key("search_papers", {"query": "a"}),
        ResultMemo.key("search_papers", {"query": 'a", "mode": "keyword'}),
        ResultMemo.key("list_papers", {"query": "a"}),
    }
    assert len(keys) == 4


async def test_an_expired_catalog_entry_is_read_again(upstream: tuple[str, Answers]) -> None:
    url, answers = upstream
    answers.by_path.clear()
    clock = Clock()
    answers.by_path["papers/recent"] = (200, [{"id": "1", "title": "Old title"}])
    async with Client(build_server(service(url, clock))) as client:
        _, text = await call(client, "list_recent_papers")
        assert "Old title" in text
        answers.by_path["papers/recent"] = (200, [{"id": "1", "title": "New title"}])
        clock.now += 30  # the search family's entries live 60 s: still the cached answer
        _, text = await call(client, "list_recent_papers")
        assert "Old title" in text
        clock.now += 31  # expired: the remembered result must not outlive it
        _, text = await call(client, "list_recent_papers")
        assert "New title" in text and "Old title" not in text


async def test_failures_are_never_remembered(sample: RunningCatalog, fresh: Client) -> None:
    sample.faults.fail(500, times=1)
    assert (await error_of(fresh, "get_method", method="transformer")).startswith("upstream_error:")
    structured, _ = await call(fresh, "get_method", method="transformer")
    assert structured


async def test_read_paper_is_never_remembered(fresh: Client, sample: RunningCatalog) -> None:
    await call(fresh, "read_paper", paper="1706.03762")
    assert ResultMemo.key("read_paper", {"paper": "1706.03762"}) is None
    before = sample.stats.total()
    await call(fresh, "read_paper", paper="1706.03762")
    assert sample.stats.total() > before


async def test_a_caller_cannot_change_what_the_next_caller_gets(sample: RunningCatalog) -> None:
    memo = ResultMemo(CachedCatalog(CatalogClient(sample.url, timeout=25.0)))
    fresh = {"paper": {"title": "Attention Is All You Need", "tasks": ["Translation"]}}

    async def compute() -> ToolResult:
        await anyio.to_thread.run_sync(lambda: memo.catalog.get_json("tasks/", {"page": 1}))
        return ToolResult(content=[TextContent(type="text", text="t")], structured_content=fresh)

    key = ResultMemo.key("get_paper_info", {"paper": "1706.03762"})
    snapshot = copy.deepcopy(fresh)
    await memo.result(key, compute)
    fresh["paper"]["title"] = "changed by the first caller"
    first = await memo.result(key, compute)
    first.structured_content["paper"]["tasks"].append("changed by the second caller")
    again = await memo.result(key, compute)
    assert again.structured_content == snapshot
    assert memo.counts["served"] == 2


async def test_distinct_calls_cannot_grow_the_memo_past_its_bound(
    sample: RunningCatalog,
) -> None:
    catalog = CachedCatalog(CatalogClient(sample.url, timeout=25.0))
    memo = ResultMemo(catalog, max_entries=1000, max_bytes=64 * 1024)

    def compute(page: int) -> Any:
        async def run() -> ToolResult:
            payload = await anyio.to_thread.run_sync(
                lambda: catalog.get_json("tasks/", {"page": 1, "page_size": page % 21 + 1})
            )
            return ToolResult(content=[TextContent(type="text", text=json.dumps(payload))])

        return run

    for page in range(1, 40):  # a client varying its arguments to fill the memo
        await memo.result(ResultMemo.key("list_tasks", {"page": page}), compute(page))
    store = memo.store
    assert store.evictions + store.rejections > 0 and store.entries >= 1
    assert store.bytes <= 64 * 1024


def test_huge_or_unencodable_arguments_get_no_key() -> None:
    assert ResultMemo.key("search_papers", {"query": "x" * 5000}) is None
    assert ResultMemo.key("search_papers", {"query": {1, 2}}) is None  # type: ignore[dict-item]


async def test_admission_checks_run_on_remembered_calls(sample: RunningCatalog) -> None:
    charged: list[str] = []

    async def check(message: Any) -> None:  # as the semantic-search limit does
        charged.append(message.name)

    async with Client(build_server(make_service(sample.url), checks=[check])) as client:
        for _ in range(3):
            await call(client, "search_papers", query="transformer", mode="semantic")
    assert charged == ["search_papers"] * 3


async def test_a_repeated_call_does_not_run_the_handler_again(sample: RunningCatalog) -> None:
    catalog = make_service(sample.url)
    runs: list[str] = []
    real_run = catalog.answer  # every tool's handler runs through it

    def counted(command: str, values: dict[str, Any]) -> Any:
        runs.append(command)
        return real_run(command, values)

    catalog.answer = counted  # type: ignore[method-assign]
    async with Client(build_server(catalog)) as client:
        for _ in range(3):
            await call(client, "get_benchmark", **TOOL_EXAMPLES["get_benchmark"][0])
    assert runs == ["benchmark"]


def test_a_result_that_survived_a_failure_is_not_remembered(sample: RunningCatalog) -> None:
    catalog = CachedCatalog(CatalogClient(sample.url, timeout=25.0))
    with catalog.reading() as reads:
        catalog.get_json("tasks/", {"page": 1, "page_size": 2})
    assert reads.cacheable and len(reads.entries) == 1
    sample.faults.fail(500, times=1)
    with catalog.reading() as reads:
        with pytest.raises(HTTPStatusError):
            catalog.get_json("methods/", {"page": 1})
        catalog.get_json("tasks/", {"page": 1, "page_size": 2})  # a fallback after the failure
    assert not reads.cacheable


async def test_a_result_that_read_nothing_is_not_remembered(sample: RunningCatalog) -> None:
    memo = ResultMemo(CachedCatalog(CatalogClient(sample.url, timeout=25.0)))
    calls: list[int] = []

    async def compute() -> ToolResult:
        calls.append(1)
        return ToolResult(content=[TextContent(type="text", text="constant")])

    for _ in range(2):
        await memo.result(ResultMemo.key("list_tasks", {}), compute)
    assert len(calls) == 2 and memo.store.entries == 0
