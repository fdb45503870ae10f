"""The memo of tool results is sized by what each entry holds itself (issue #24.4): the catalog
bodies a result was made from are the response cache's, counted there once, so a small result
made from a large leaderboard is a small entry, and the memo holds as many results as its entry
bound says."""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

import pytest
from fastmcp.tools import ToolResult
from mcp.types import TextContent

from pwc_core.transport import Reply
from pwc_mcp.caching.cache import CachedCatalog
from pwc_mcp.caching.memo import ResultMemo

pytestmark = pytest.mark.anyio


class Leaderboards:
    """The catalog client's `get`: pages of 100 leaderboard rows (about 60 KB each)."""

    def get(self, path: str, params: Mapping[str, Any] | None = None) -> Reply:
        page = int((params or {}).get("page", 1))
        rows = [
            {
                "id": f"{page}-{n}",
                "paper_id": str(n),
                "paper_title": f"A paper title of a typical length, number {n}",
                "model_name": f"Model {n}",
                "metrics": {"Top 1 Accuracy": 90 - n / 100, "Params": "86M"},
                "best_rank": 100 * (page - 1) + n + 1,
                "paper_date": "2021-06-01",
                "extra_training_data": False,
                "evaluated_on": "2021-06-01",
                "code_links": [{"url": "https://github.com/example/repository", "official": True}],
                "tags": ["ImageNet", "Transformer"],
            }
            for n in range(100)
        ]
        body = {"count": 1000, "next_page": page + 1 if page < 10 else None, "results": rows}
        return Reply(200, {"content-type": "application/json"}, json.dumps(body).encode())


def small_result(n: int) -> ToolResult:
    """The size of a `get_method` / `get_organization` answer: a record and a short text."""
    record = {
        "id": str(n),
        "name": f"Method {n}",
        "full_name": f"A Method Named After Its Paper {n}",
        "description": "A sentence or two about what the method does. " * 8,
        "paper": {"id": str(n), "title": "Its paper", "arxiv_id": f"2101.{n:05d}"},
        "area": "Computer Vision",
    }
    text = f"## Method {n}\n\n" + record["description"]
    return ToolResult(
        content=[TextContent(type="text", text=text)],
        structured_content={"method": record, "data": record},
    )


def computing(
    catalog: CachedCatalog, pages: int, result: ToolResult
) -> Callable[[], Awaitable[ToolResult]]:
    async def compute() -> ToolResult:
        for page in range(1, pages + 1):  # shared answers: cached once, hits for every call
            catalog.get_json("datasets/1/evaluations/", {"page": page, "page_size": 100})
        return result

    return compute


async def test_the_memo_holds_small_results_up_to_its_entry_bound() -> None:
    catalog = CachedCatalog(Leaderboards())  # type: ignore[arg-type]  # only `get` is used
    memo = ResultMemo(catalog)  # 1,024 results, 4 MiB
    for n in range(1100):  # each made from one 60 KB leaderboard page
        await memo.result(f"get_method\x00{n}", computing(catalog, 1, small_result(n)))
    assert memo.store.entries == memo.store.max_entries == 1024
    assert memo.store.bytes <= memo.store.max_bytes and memo.stats()["stored"] == 1024


async def test_two_timelines_of_a_thousand_rows_take_a_small_part_of_the_memo() -> None:
    catalog = CachedCatalog(Leaderboards())  # type: ignore[arg-type]
    memo = ResultMemo(catalog)
    for n in range(2):  # ten pages (600 KB) read, twenty points answered
        points = [
            {"date": f"20{10 + i}-01-01", "value": 70 + i, "model": f"M{i}"} for i in range(20)
        ]
        result = ToolResult(
            content=[TextContent(type="text", text="## SOTA over time\n" + "- a point\n" * 20)],
            structured_content={"timeline": points, "benchmark": f"Benchmark {n}"},
        )
        await memo.result(f"get_benchmark\x00{n}", computing(catalog, 10, result))
    assert memo.store.entries == 2
    assert memo.store.bytes < 16 * 1024  # of 4 MiB: the catalog bodies are not counted here


async def test_a_large_result_is_still_counted_at_its_own_size() -> None:
    catalog = CachedCatalog(Leaderboards())  # type: ignore[arg-type]
    memo = ResultMemo(catalog, max_bytes=256 * 1024)
    rows = [{"id": str(n), "text": "x" * 1000} for n in range(300)]  # 300 KB of its own
    big = ToolResult(content=[TextContent(type="text", text="t")], structured_content={"r": rows})
    await memo.result("big", computing(catalog, 1, big))
    assert memo.store.entries == 0 and memo.stats()["refused"]["too_big"] == 1
