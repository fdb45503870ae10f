"""No pinned failures (issues #23.5, #24): a catalog that answers 200 with an unusable body, or
answers part of a call too late, and then recovers, is answered well by the very next call. The
first failure must not be kept by the response cache or by the memo of tool results."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from fastmcp import Client

from pwc_mcp.sample import RunningCatalog
from pwc_mcp.server import ToolCalls, build_server
from tests.helpers.mcp import call, error_of, make_service
from tests.mcp.scripted_catalog import Scripted, serving

pytestmark = pytest.mark.anyio


def _is(path: str) -> Callable[[str], bool]:
    return lambda seen: seen == path


def _ends(suffix: str) -> Callable[[str], bool]:
    return lambda seen: seen.endswith(suffix)


@pytest.mark.parametrize(
    ("tool", "arguments", "matches", "bad"),
    [
        # a list the cache used to accept for a route whose handlers require `results`
        ("get_task", {"task": "image-classification"}, _ends("/trending-benchmarks"), []),
        (
            "get_task",
            {"task": "image-classification"},
            _ends("/trending-benchmarks"),
            {"items": []},
        ),
        # an object, as the route declares, that the handler or projection then rejects
        ("get_paper_info", {"paper": "1706.03762"}, _is("papers/1706.03762"), {"id": []}),
        ("get_framework", {"framework": "pytorch"}, _is("frameworks/"), {"detail": "busy"}),
        (
            "search_papers",
            {"query": "transformer", "has_official_implementation": True},
            _is("papers/search"),
            {"count": 0, "results": []},  # the filter not confirmed (`applied_filters`)
        ),
        # an object without the result list of a list route (never cached: a guard)
        ("search_papers", {"query": "transformer"}, _is("papers/search"), {"detail": "busy"}),
    ],
    ids=["bare-list", "items", "paper-id", "frameworks", "unconfirmed-filter", "no-list"],
)
async def test_an_unusable_200_is_not_served_again_once_the_catalog_recovers(
    sample: RunningCatalog, tool: str, arguments: dict[str, Any], matches: Any, bad: Any
) -> None:
    scripted = Scripted(upstream=sample.url)
    scripted.answer(matches, (200, bad))
    with serving(scripted) as url:
        async with Client(build_server(make_service(url))) as client:
            assert (await error_of(client, tool, **arguments)).startswith("upstream_error:")
            structured, _ = await call(client, tool, **arguments)  # the catalog has recovered
            assert structured
            before = scripted.total()
            await call(client, tool, **arguments)  # and that good answer is remembered
            assert scripted.total() == before


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def _row(dataset: str, model: str, rank: int, bleu: float, paper: str = "9") -> dict[str, Any]:
    return {
        "id": f"{paper}-{dataset}-{model}",
        "paper_id": paper,
        "dataset_id": dataset,
        "dataset_name": f"Bench {dataset}",
        "model_name": model,
        "task_id": "7",
        "task_name": "Translation",
        "metrics": {"BLEU": bleu},
        "best_metric": "BLEU",
        "best_rank": rank,
    }


def _board(dataset: str) -> dict[str, Any]:
    rows = [_row(dataset, "Leader", 1, 35.0, "1"), _row(dataset, "Mine", 2, 30.0)]
    return {"count": 2, "next_page": None, "results": rows}


async def test_a_result_with_a_lookup_skipped_at_the_deadline_is_not_remembered() -> None:
    """`against_sota` on two benchmarks: the first lookup is so slow that the second is skipped
    ("deadline reached"). Once the catalog is fast, the same call compares both."""
    clock = Clock()
    paper = {"id": "9", "arxiv_id": "1706.03762", "title": "Paper"}
    scripted = Scripted(
        dynamic=lambda path, params: {
            "papers/1706.03762": (200, paper),
            "evaluations/": (
                200,
                {"count": 2, "results": [_row("5", "Mine", 2, 30.0), _row("6", "Mine", 2, 30.0)]},
            ),
            "datasets/5/evaluations/": (200, _board("5")),
            "datasets/6/evaluations/": (200, _board("6")),
        }.get(path)
    )
    slow = ["datasets/5/evaluations/", "datasets/6/evaluations/"]

    def stall(path: str) -> None:  # the first leaderboard read takes 46 of the call's 50 s
        if path in slow and len(slow) == 2:
            slow.clear()
            clock.now += 46

    scripted.on_request = stall
    with serving(scripted) as url:
        server = build_server(make_service(url))
        (layer,) = [m for m in server.middleware if isinstance(m, ToolCalls)]
        layer.clock = clock
        async with Client(server) as client:
            question = {"paper": "1706.03762", "against_sota": True}
            structured, _ = await call(client, "get_paper_evaluations", **question)
            reasons = {r.get("sota_unavailable") for r in structured["data"]["results"]}
            assert "deadline reached" in reasons  # the slow call was degraded, as it should be
            structured, _ = await call(client, "get_paper_evaluations", **question)
    rows = structured["data"]["results"]
    assert all(r["sota"]["value"] == 35.0 for r in rows), rows
