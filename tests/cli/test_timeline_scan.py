"""`benchmark --name --timeline` over catalogs larger than the sample: the bounded scan stops at
1,000 rows and says `complete: false` (metric selection alone still refuses), undated rows are
counted, and a metric without a known direction is refused. Through the CLI with respx."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
import respx

from tests.cli.test_benchmarks import LEADERBOARD, evaluation, page_of
from tests.helpers.cli import fixture

CAPPED = "evaluations/"


@pytest.fixture
def lookup(api: respx.MockRouter) -> respx.Route:
    return api.get("datasets/").respond(json=fixture("datasets_list.json"))


def paged(rows: list[dict[str, Any]], total: int | None) -> Any:
    def answer(request: httpx.Request) -> httpx.Response:
        page = int(request.url.params["page"])
        return httpx.Response(200, json=page_of(rows[(page - 1) * 100 :][:100], total))

    return answer


def test_the_scan_stops_at_1000_rows_and_says_so(pwc, api, lookup) -> None:
    rows = [evaluation(i, paper_published_date=None) for i in range(1, 1501)]
    rows[0]["paper_published_date"] = "2020-01-01"
    board = api.get(LEADERBOARD).mock(side_effect=paged(rows, 1500))
    result = pwc("benchmark", "--name", "imagenet", "--timeline", "--json")
    assert result.code == 0, result.err
    assert board.call_count == 10  # 1,000 rows, never page 11
    data = result.data
    assert (data["rows_read"], data["count"]) == (1000, 1500)
    assert {k: v for k, v in data["timeline"].items() if k != "records"} == {
        "metric": "Top 1 Accuracy",
        "direction": "higher",
        "considered": 1000,
        "undated": 999,
        "complete": False,
    }
    assert [r["evaluation_id"] for r in data["timeline"]["records"]] == ["e1"]
    text = pwc("benchmark", "--name", "imagenet", "--timeline")
    assert "999 without a publication date left out." in text.out
    assert "The scan stopped at its row limit: earlier records may be missing." in text.out


def test_metric_selection_without_timeline_still_refuses(pwc, api, lookup) -> None:
    api.get(LEADERBOARD).mock(side_effect=paged([evaluation(i) for i in range(1, 1501)], 1500))
    result = pwc("benchmark", "--name", "imagenet", "--require-metrics", "Top 1 Accuracy")
    assert result.code == 4
    assert "safety limit is 1000" in result.err


def test_exactly_1000_rows_is_complete(pwc, api, lookup) -> None:
    # 100 rows a year, 2010-2019, each better than the one before
    rows = [
        evaluation(i, paper_published_date=f"{2010 + (i - 1) // 100}-01-01") for i in range(1, 1001)
    ]
    api.get(LEADERBOARD).mock(side_effect=paged(rows, 1000))
    found = pwc("benchmark", "--name", "imagenet", "--timeline", "--json").data["timeline"]
    assert (found["complete"], found["considered"], found["undated"]) == (True, 1000, 0)
    # One record a year: each year's best (its last row) beats every earlier year.
    assert [r["date"] for r in found["records"]] == [f"{y}-01-01" for y in range(2010, 2020)]
    assert [r["value"] for r in found["records"]] == [70.0 + 100 * k for k in range(1, 11)]
    assert [r["improvement"] for r in found["records"]] == [None] + [100.0] * 9


def test_the_capped_scan_stops_too(pwc, api, lookup, whole_board) -> None:
    rows = [evaluation(i, paper_published_date="2021-01-01") for i in range(1, 1201)]

    def answer(request: httpx.Request) -> httpx.Response:
        page = int(request.url.params["page"])
        body = page_of(
            rows[(page - 1) * 100 :][:100],
            None,
            next_page=page + 1,  # the catalog never says it is done
            parameter_coverage_known=1200,
            parameter_coverage_total=1200,
        )
        return httpx.Response(200, json=body)

    board = api.get(CAPPED).mock(side_effect=answer)
    result = pwc(
        "benchmark", "--name", "imagenet", "--timeline", "--max-parameters", "2B", "--json"
    )
    assert result.code == 0, result.err
    assert board.call_count == 10
    assert result.data["timeline"]["complete"] is False


def test_a_metric_without_a_known_direction_is_refused(pwc, api, lookup) -> None:
    rows = [
        evaluation(1, metrics={"Elo": 1200, "Top 1 Accuracy": 80}, best_metric="Elo"),
        evaluation(2, metrics={"Elo": 1300, "Top 1 Accuracy": 81}, best_metric="Elo"),
    ]
    api.get(LEADERBOARD).respond(json=page_of(rows, 2))
    result = pwc("benchmark", "--name", "imagenet", "--timeline")
    assert (result.code, result.out) == (2, "")
    assert result.err == (
        "pwc: the direction of metric Elo is unknown (neither its name nor the catalog's ranks "
        'say which is better); state it with --metric "Elo:higher" or "Elo:lower", or name '
        "another metric: Top 1 Accuracy\n"
    )
    named = pwc("benchmark", "--name", "imagenet", "--timeline", "--metric", "top1", "--json")
    assert named.data["timeline"]["metric"] == "Top 1 Accuracy"


def test_no_rows_is_an_empty_timeline(pwc, api, lookup) -> None:
    api.get(LEADERBOARD).respond(json=page_of([], 0))
    result = pwc("benchmark", "--name", "imagenet", "--timeline", "--is-open", "false")
    assert result.code == 0
    assert "No row reports a metric, so there is no timeline." in result.out
    assert result.err.startswith("# no results")
    found = pwc("benchmark", "--name", "imagenet", "--timeline", "--json").data["timeline"]
    assert (found["metric"], found["records"], found["considered"]) == (None, [], 0)
