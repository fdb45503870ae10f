"""get_benchmark's text header says what the CLI's leaderboard says (one shared sentence,
pwc_core.sentences.leaderboard_summary): which slice of how many evaluation rows, what
merging did, a page past the end as such, and the main task scope with its primary metric.
Through a real MCP cached_client against the sample catalog."""

from __future__ import annotations

import pytest
from fastmcp import Client

from tests.helpers.mcp import call

pytestmark = pytest.mark.anyio

MAIN_SCOPE = "Main task scope: Image Classification, ranked by Top 1 Accuracy (higher is better)."


def header(text: str) -> str:
    return text.splitlines()[1]


async def test_page_past_the_end_says_so(cached_client: Client) -> None:
    # before: "39 evaluation rows; returned 0 on page 50."
    data, text = await call(cached_client, "get_benchmark", benchmark="ImageNet", page=50)
    assert data["data"]["results"] == [] and "evaluations" not in data
    assert header(text).startswith("Page 50 is past the end: 38 rows fill 2 pages of 20.")
    assert "returned 0" not in text


async def test_page_one_names_its_slice_and_the_main_scope(cached_client: Client) -> None:
    # before: "39 evaluation rows; returned 20 on page 1."
    _, text = await call(cached_client, "get_benchmark", benchmark="ImageNet")
    assert header(text).startswith(
        "38 rows from 39 evaluation rows (one result in several task scopes is one row); "
        f"showing rows 1–20. {MAIN_SCOPE}"
    )


async def test_page_one_of_a_selection_says_the_merge(cached_client: Client) -> None:
    # Selecting reads every row: 39 evaluation rows, of which CLIP ViT-L/14@336px (zero-shot)
    # is listed twice (two task scopes) and merged into one, leaving 38.
    # before: "39 evaluation rows; 38 match the metric filters; returned 20 on page 1."
    data, text = await call(
        cached_client, "get_benchmark", benchmark="ImageNet", sort_metric="Top 1 Accuracy"
    )
    assert (data["data"]["rows_read"], data["data"]["merged_count"]) == (39, 38)
    assert header(text).startswith(
        "38 of 38 merged rows match (39 evaluation rows); showing rows 1–20. Sorted by Top 1 "
        "Accuracy, highest first (best first: higher is better, by its name). " + MAIN_SCOPE
    )


async def test_the_header_is_the_cli_sentence(cached_client: Client) -> None:
    arguments = {
        "benchmark": "ImageNet",
        "max_parameters": "1.5B",
        "minimum_metrics": {"Top 1 Accuracy": 85},
        "sort_metric": "Top 1 Accuracy",
    }
    _, text = await call(cached_client, "get_benchmark", **arguments)
    assert header(text).startswith(
        "4 of 35 merged rows match (35 evaluation rows); all shown. Sorted by Top 1 Accuracy, "
        "highest first (best first: higher is better, by its name). " + MAIN_SCOPE
    )
