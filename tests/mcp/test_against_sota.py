"""`get_paper_evaluations` with `against_sota` (issue #18, item 2): `sota` on each row of `data`
(the handler's, sent once: issue #26) and the standalone text, over the sample catalog; the lookups share the server's response cache;
a failed lookup or a leaderboard longer than the bounded scan is said, never a failed call."""

from __future__ import annotations

from typing import Any

import pytest
from fastmcp import Client

from pwc_mcp.sample import RunningCatalog
from pwc_mcp.server import build_server
from tests.helpers.mcp import call, make_service

pytestmark = pytest.mark.anyio
QUESTION = {"paper": "1706.03762", "against_sota": True}


def rows_on(structured: dict[str, Any], benchmark: str) -> dict[str, dict[str, Any]]:
    rows = structured["data"]["results"]
    return {r["model_name"]: r for r in rows if r["dataset_name"] == benchmark}


async def test_how_far_the_original_transformer_is_from_todays_best(cached_client: Client) -> None:
    """How far is the original Transformer from today's best on WMT 2014 English-German?"""
    structured, text = await call(cached_client, "get_paper_evaluations", **QUESTION)
    rows = rows_on(structured, "WMT2014 English-German")
    assert rows["Transformer Big"]["sota"] == {
        "metric": "BLEU score",
        "direction": "higher",
        "value": 35.0,
        "gap": 6.6,
        "rank": 6,
        "of": 7,
        "model_name": "Transformer Big + BT",
        "paper_title": "Understanding Back-Translation at Scale",
        "paper_id": "52108",
        "uses_additional_data": True,  # back-translation: the best row's qualifier is said too
        "protocol": None,
    }
    assert rows["Transformer Base"]["sota"]["gap"] == 7.7
    assert (
        "- Transformer Big on WMT2014 English-German: BLEU score: 28.4 · rank 6 in Machine "
        "Translation · 213M params · open · no extra training data · newstest2014 split — best "
        "now 35 (Transformer Big + BT, "
        "Understanding Back-Translation at Scale, extra training data): 6.6 behind, rank 6/7"
    ) in text.splitlines()
    assert "the best, rank 1/2" in text  # Penn Treebank: the paper's own result leads


async def test_without_the_parameter_rows_carry_no_standing(cached_client: Client) -> None:
    structured, text = await call(cached_client, "get_paper_evaluations", paper="1706.03762")
    rows = structured["data"]["results"]
    assert all("sota" not in r and "sota_unavailable" not in r for r in rows)
    assert "best now" not in text and "against_sota" not in structured["data"]


async def test_the_lookups_share_the_response_cache(sample: RunningCatalog) -> None:
    """The leaderboard page is the request a `get_benchmark` metric scan makes first: after
    one, the comparison reads no leaderboard upstream, and a repeated call reads nothing."""
    async with Client(build_server(make_service(sample.url))) as client:
        await call(client, "get_benchmark", benchmark="WMT2014 English-German", sort_metric="BLEU")
        sample.stats.reset()
        await call(client, "get_paper_evaluations", **QUESTION)
        first = sample.stats.requests
        sample.stats.reset()
        await call(client, "get_paper_evaluations", **QUESTION)
        again = sample.stats.requests
    assert "datasets/402/evaluations/" not in first
    assert first["datasets/403/evaluations/"] == first["datasets/455/evaluations/"] == 1
    assert again == {}


async def test_a_failed_lookup_is_said_and_the_call_succeeds(
    client: Client, sample: RunningCatalog
) -> None:
    sample.faults.fail(502, times=5, path_prefix="datasets/403/evaluations")
    structured, text = await call(client, "get_paper_evaluations", **QUESTION)
    french = rows_on(structured, "WMT2014 English-French")
    assert {r.get("sota_unavailable") for r in french.values()} == {"lookup failed (HTTP 502)"}
    assert all("sota" in r for r in rows_on(structured, "WMT2014 English-German").values())
    assert text.count("— not compared: lookup failed (HTTP 502)") == 2
    assert "injected failure" not in text


def _row(model: str, rank: int, bleu: float, paper: str = "9") -> dict[str, Any]:
    return {
        "id": f"{paper}-{model}",
        "paper_id": paper,
        "dataset_id": "5",
        "dataset_name": "Bench",
        "model_name": model,
        "task_id": "7",
        "task_name": "Translation",
        "metrics": {"BLEU": bleu},
        "best_metric": "BLEU",
        "best_rank": rank,
    }


async def test_a_leaderboard_beyond_the_bounded_scan_is_answered_from_its_sorted_page(
    hostile,
) -> None:
    """5,000 rows: past the 1,000-row scan, so only the rank-ordered first page is read; the
    best is its rank-1 row, the rank the catalog's, the scope's size unknown."""
    client, answers = hostile
    mine = _row("Mine", 40, 27.5)
    answers.by_path.update(
        {
            "papers/1706.03762": (200, {"id": "9", "arxiv_id": "1706.03762", "title": "Paper"}),
            "evaluations/": (200, {"count": 1, "next_page": None, "results": [mine]}),
            "datasets/5/evaluations/": (
                200,
                {
                    "count": 5000,
                    "next_page": 2,
                    "results": [_row("Leader", 1, 35.25, "1"), _row("Second", 2, 33.0, "2")],
                },
            ),
        }
    )
    structured, text = await call(client, "get_paper_evaluations", **QUESTION)
    sota = structured["data"]["results"][0]["sota"]
    assert (sota["value"], sota["gap"], sota["rank"], sota.get("of")) == (35.25, 7.75, 40, None)
    assert structured["data"]["against_sota"]["pages_read"] == 1
    assert "7.75 behind, rank 40/?" in text


async def test_further_pages_stop_at_the_calls_page_budget(hostile) -> None:
    """250 rows in pages of two (each page new rows): the scan reads on, at most EXTRA_PAGES
    pages beyond the first
    for the whole call, then answers from the sorted first page like a longer leaderboard."""
    from pwc_core.standing import EXTRA_PAGES

    client, answers = hostile
    answers.by_path.update(
        {
            "papers/1706.03762": (200, {"id": "9", "arxiv_id": "1706.03762", "title": "Paper"}),
            "evaluations/": (200, {"count": 1, "results": [_row("Mine", 3, 30.0)]}),
            "datasets/5/evaluations/": (
                200,
                lambda query: {
                    "count": 250,
                    "results": [
                        _row(f"Leader {query['page']}", 1, 31.5, f"1-{query['page']}"),
                        _row(f"Next {query['page']}", 2, 31.0, f"2-{query['page']}"),
                    ],
                },
            ),
        }
    )
    structured, _ = await call(client, "get_paper_evaluations", **QUESTION)
    assert structured["data"]["against_sota"]["pages_read"] == 1 + EXTRA_PAGES
    sota = structured["data"]["results"][0]["sota"]
    assert (sota["value"], sota["gap"], sota["rank"], sota.get("of")) == (31.5, 1.5, 3, None)
