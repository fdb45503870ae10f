"""Every scan ends (issue #24, item 1): a catalog whose pages never run out cannot keep a call
reading. Pages that add nothing, a next_page that does not advance, and boards of more pages
than the bound stop the scan, and the answer says it is incomplete."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
import respx

from pwc_core.scan import MAX_PAGES
from tests.helpers.cli import fixture

COVERAGE = {"parameter_coverage_known": 1, "parameter_coverage_total": 1}


def row(i: int, **fields: Any) -> dict[str, Any]:
    return {
        "id": f"e{i}",
        "paper_id": f"p{i}",
        "paper_published_date": f"20{10 + i % 10}-01-01",
        "task_id": "12",
        "dataset_id": "205",
        "model_name": f"Model {i}",
        "metrics": {"Top 1 Accuracy": 70 + i},
        "best_metric": "Top 1 Accuracy",
        "best_rank": i,
        "num_parameters": 1_000_000,
        **fields,
    }


@pytest.fixture
def lookup(api: respx.MockRouter) -> respx.Route:
    return api.get("datasets/").respond(json=fixture("datasets_list.json"))


def endless(first: list[dict[str, Any]]):
    """The size-capped route: page 1 has rows, every later page is empty and names the next."""

    def reply(request: httpx.Request) -> httpx.Response:
        page = int(request.url.params["page"])
        rows = first if page == 1 else []
        return httpx.Response(200, json={"next_page": page + 1, "results": rows, **COVERAGE})

    return reply


@pytest.mark.parametrize(
    "flags",
    [
        ["--sort", "Top 1 Accuracy"],
        ["--timeline"],
        [],
    ],
)
def test_empty_pages_that_name_a_next_page_end_the_scan(
    pwc, api, lookup, whole_board, flags
) -> None:
    # before: 73,660 requests in a 50 s tool call; the CLI never ended
    route = api.get("evaluations/").mock(side_effect=endless([row(1), row(2)]))
    result = pwc("benchmark", "--name", "ImageNet", "--max-parameters", "1B", *flags, "--json")
    assert result.code == 0, result.err
    assert route.call_count == 2, "the empty page ends it"
    order = result.data["ordering"]
    assert (order["complete"], order["stopped"]) == (False, "a page added no rows")
    if "timeline" in result.data:
        assert result.data["timeline"]["complete"] is False


def test_pages_that_repeat_rows_end_the_scan(pwc, api, lookup, whole_board) -> None:
    # a catalog that answers every page with the same rows and a growing next_page
    route = api.get("evaluations/").mock(
        side_effect=lambda request: httpx.Response(
            200,
            json={
                "next_page": int(request.url.params["page"]) + 1,
                "results": [row(1), row(2)],
                **COVERAGE,
            },
        )
    )
    result = pwc("benchmark", "--name", "ImageNet", "--max-parameters", "1B", "--json")
    assert route.call_count == 2 and result.data["merged_count"] == 2
    assert result.data["ordering"]["stopped"] == "a page added no rows"


def test_a_next_page_that_goes_back_ends_the_scan(pwc, api, lookup, whole_board) -> None:
    route = api.get("evaluations/").mock(
        side_effect=lambda request: httpx.Response(
            200,
            json={
                "next_page": 2 if request.url.params["page"] == "1" else 1,
                "results": [row(int(request.url.params["page"]))],
                **COVERAGE,
            },
        )
    )
    result = pwc("benchmark", "--name", "ImageNet", "--max-parameters", "1B", "--json")
    assert route.call_count == 2
    assert result.data["ordering"]["stopped"] == "pagination did not advance"


def test_short_pages_stop_at_the_page_bound(pwc, api, lookup) -> None:
    # one new row a page, a count that never comes: the page bound ends it
    route = api.get("datasets/205/evaluations/").mock(
        side_effect=lambda request: httpx.Response(
            200,
            json={"count": 5000, "results": [row(int(request.url.params["page"]))]},
        )
    )
    result = pwc("benchmark", "--name", "ImageNet", "--json")
    assert route.call_count == MAX_PAGES
    assert result.data["ordering"]["stopped"] == "page limit reached"
    assert result.data["rows_read"] == MAX_PAGES


def test_paper_evaluations_read_whole_end_on_an_empty_page(pwc, api) -> None:
    api.get("papers/1706.03762").respond(json={"id": "9", "arxiv_id": "1706.03762"})
    route = api.get("evaluations/").mock(
        side_effect=lambda request: httpx.Response(
            200,
            json={
                "count": 900,
                "results": [row(1)] if request.url.params["page"] == "1" else [],
            },
        )
    )
    result = pwc("paper", "info", "1706.03762", "--include-evals", "--json")
    assert result.code == 0, result.err
    assert route.call_count == 2
    assert result.data["evaluations"]["complete"] is False


def test_against_sota_stops_a_board_that_repeats_its_page(pwc, api) -> None:
    # a 250-row board that answers every page with its first rows: before, the call read its
    # whole budget of 20 extra pages; now the second page, which adds nothing, ends that board
    api.get("papers/1706.03762").respond(json={"id": "9", "arxiv_id": "1706.03762"})
    mine = row(3, paper_id="9", metrics={"Top 1 Accuracy": 60})
    api.get("evaluations/").respond(json={"count": 1, "results": [mine]})
    board = api.get("datasets/205/evaluations/").respond(
        json={"count": 250, "results": [row(1), row(2)]}
    )
    result = pwc("paper", "evaluations", "1706.03762", "--against-sota", "--json")
    assert result.code == 0, result.err
    assert board.call_count == 2
    assert result.data["against_sota"]["pages_read"] == 2


def test_against_sota_takes_rows_whose_id_is_not_a_string(pwc, api) -> None:
    # a hostile board: ids that are objects (unhashable) must neither crash the scan nor merge
    api.get("papers/1706.03762").respond(json={"id": "9", "arxiv_id": "1706.03762"})
    mine = row(3, paper_id="9", metrics={"Top 1 Accuracy": 60})
    api.get("evaluations/").respond(json={"count": 1, "results": [mine]})
    api.get("datasets/205/evaluations/").respond(
        json={"count": 2, "results": [row(1, id={"x": 1}), row(2, id=[2])]}
    )
    result = pwc("paper", "evaluations", "1706.03762", "--against-sota", "--json")
    assert result.code == 0, result.err
    assert result.data["results"][0]["sota"]["value"] == 72
