"""Every task scope's best in every leaderboard answer, the extra-training-data filter, and
directions that no filter changes (issue #36), each checked against an independent oracle over
the whole board (tests/helpers/boards.py): a catalog on loopback that interleaves two task
scopes by rank over several upstream pages, names its metrics "Score" (lower is better, which
the name does not say) and "Elo", knows openness and extra data as true, false or unknown, and
filters openness itself. Read from `structuredContent` alone and from the text alone, through a
real MCP client and the `pwc` CLI."""

from __future__ import annotations

from typing import Any

import pytest
from fastmcp import Client

from tests.helpers.boards import Scope, oracle_bests, oracle_kept, oracle_records, rows_of, serve
from tests.helpers.cli import run_cli
from tests.helpers.mcp import Answers, call

pytestmark = pytest.mark.anyio

MAIN = Scope("1", "Score", True, [3.0 + (i * 37 % 101) / 10 for i in range(25)])
OTHER = Scope("2", "Elo", False, [1000.0 + (i * 53 % 97) for i in range(15)])
SCOPES = [MAIN, OTHER]
ROWS = rows_of(SCOPES)
BY_ID = {row["id"]: row for row in ROWS}

# (filters as the tool takes them, the same as the oracle takes them)
FILTERS = [
    ({}, {}),
    ({"is_open": True}, {"is_open": True}),
    ({"is_open": False}, {"is_open": False}),
    ({"extra_training_data": False}, {"extra": False}),
    ({"extra_training_data": True}, {"extra": True}),
    ({"extra_training_data": False, "is_open": True}, {"extra": False, "is_open": True}),
]
# whatever the page, its size or its order, the bests are the same
SLICES = [
    {},
    {"limit": 1, "page": 3},
    {"sort_metric": "Elo"},
    {"pareto": ["Score:lower", "Params:lower"]},
]


@pytest.fixture
def board(hostile: tuple[Client, Answers]) -> Client:
    client, answers = hostile
    serve(answers.by_path, ROWS)
    return client


def line_of(row_id: str, metric: str) -> str:
    row = BY_ID[row_id]
    return f"{row['model_name']}, {metric} {row['metrics'][metric]:g}"


def check_bests(
    data: dict[str, Any], text: str, oracle: dict[str, tuple[str | None, str]], **filters: Any
):
    """The payload's block and the text's, each against the oracle on its own (`filters`: the
    oracle's, for the count of matching rows per scope)."""
    block = data["scope_bests"]
    assert [s["task_id"] for s in block["scopes"]] == ["1", "2"], "the main scope first"
    for scope, entry in zip(SCOPES, block["scopes"], strict=True):
        best, whole = oracle[scope.task_id]
        direction = "lower" if scope.lower_is_better else "higher"
        assert (entry["metric"], entry["direction"]) == (scope.metric, direction)
        assert entry.get("best", {}).get("id") == best
        shown = whole if "whole_board_best" in entry else best
        assert entry.get("whole_board_best", entry.get("best", {})).get("id") == shown
        if best is not None:
            assert entry["best"]["value"] == BY_ID[best]["metrics"][scope.metric]
            assert entry["best"]["paper_published_date"] == BY_ID[best]["paper_published_date"]
        lead = "Best of the matching rows in" if block["among"] == "matching rows" else "Best in"
        main = "main scope; " if scope is MAIN else ""
        head = f"{lead} Task {scope.task_id} ({main}{scope.metric}, "
        said = next(line for line in text.splitlines() if line.startswith(head))
        expected = line_of(best, scope.metric) if best else "no matching row"
        matched = len(oracle_kept(ROWS, scope, **filters))
        assert entry["matched"] == matched
        noun = "matching row" if block["among"] == "matching rows" else "row"
        rows = f"{matched} {noun}{'' if matched == 1 else 's'}"
        assert said.startswith(f"{head}{direction} is better; {rows}): {expected}")
        if best != whole and block["among"] == "matching rows":
            assert f". Whole board: {line_of(whole, scope.metric)}" in said


@pytest.mark.parametrize("slice_", SLICES)
@pytest.mark.parametrize(("asked", "oracle_filters"), FILTERS)
async def test_every_scopes_best_in_one_call(board, asked, oracle_filters, slice_) -> None:
    # before: nothing in an answer said what led the other scope, or the best open row
    result, text = await call(board, "get_benchmark", benchmark="Bench", **asked, **slice_)
    check_bests(
        result["data"], text, oracle_bests(ROWS, SCOPES, **oracle_filters), **oracle_filters
    )
    assert result["data"]["scope_bests"]["among"] == ("matching rows" if asked else "all rows")


@pytest.mark.parametrize("wanted", [True, False])
@pytest.mark.parametrize("is_open", [None, True])
async def test_extra_training_data_keeps_known_rows_and_counts_the_unknown(
    board, wanted, is_open
) -> None:
    asked = {"is_open": is_open} if is_open is not None else {}
    result, text = await call(
        board, "get_benchmark", benchmark="Bench", extra_training_data=wanted, limit=25, **asked
    )
    listed = [r for r in ROWS if is_open is None or r["is_open"] is is_open]
    kept = {r["id"] for r in listed if r["uses_additional_data"] is wanted}
    unknown = sum(r["uses_additional_data"] is None for r in listed)
    data = result["data"]
    assert {r["id"] for r in data["results"]} == kept and data["matched_count"] == len(kept)
    assert data["unknown_extra_training_data"] == unknown > 0
    assert f"{unknown} rows left out: the catalog does not say whether they used extra" in text


async def test_a_filter_leaving_few_rows_keeps_the_boards_directions(board) -> None:
    # two closed rows a scope: one pair of ranks each, too few to vote. Before: "Score" was
    # higher-is-better by its generic name and Elo's direction unknown, so the sort put the
    # worst closed row first and the timeline counted the wrong records
    closed = [r for r in ROWS if r["is_open"] is False]
    assert sorted(r["task_id"] for r in closed) == ["1", "1", "2", "2"]
    plain, _ = await call(board, "get_benchmark", benchmark="Bench", is_open=False)
    assert plain["data"]["metric_direction_sources"] == {"Score": "ranks", "Elo": "ranks"}
    assert plain["data"]["metric_directions"] == {"Score": "lower", "Elo": "higher"}
    result, text = await call(
        board, "get_benchmark", benchmark="Bench", is_open=False, sort_metric="Score"
    )
    data = result["data"]
    scores = [r["metrics"]["Score"] for r in data["results"] if "Score" in r["metrics"]]
    assert scores == sorted(r["metrics"]["Score"] for r in closed if r["task_id"] == "1")
    assert "Sorted by Score, lowest first (best first: lower is better" in text
    timeline, _ = await call(
        board, "get_benchmark", benchmark="Bench", is_open=False, timeline=True
    )
    main_closed = [r for r in closed if r["task_id"] == "1"]
    records = timeline["data"]["timeline"]["records"]
    assert timeline["data"]["timeline"]["direction"] == "lower"
    assert [r["evaluation_id"] for r in records] == oracle_records(main_closed, "Score", True)


async def test_the_whole_board_is_read_once_and_shared(
    board, upstream: tuple[str, Answers]
) -> None:
    # the board before the filter is the same request as an unfiltered call's read: cached
    _, answers = upstream
    seen: list[dict[str, str]] = []
    document = answers.by_path["datasets/7/evaluations/"]

    def recorded(query: dict[str, str]) -> dict[str, Any]:
        seen.append(query)
        return document[1](query)

    answers.by_path["datasets/7/evaluations/"] = (200, recorded)
    await call(board, "get_benchmark", benchmark="Bench", is_open=True)
    filtered = [q for q in seen if q.get("is_open") == "true"]
    whole = [q for q in seen if "is_open" not in q]
    assert filtered and whole and len(filtered) + len(whole) == len(seen)
    before = len(seen)
    await call(board, "get_benchmark", benchmark="Bench")
    assert len(seen) == before, "the unfiltered call is answered from the same cached pages"


def test_the_cli_says_the_same(upstream: tuple[str, Answers]) -> None:
    url, answers = upstream
    answers.by_path.clear()
    serve(answers.by_path, ROWS)
    argv = ["benchmark", "--name", "Bench", "--extra-training-data", "false", "--limit", "2"]
    oracle = oracle_bests(ROWS, SCOPES, extra=False)
    data = run_cli(url, [*argv, "--json"])
    human = run_cli(url, argv)
    assert data.code == 0 and human.code == 0, data.err + human.err
    check_bests(data.data, human.out, oracle, extra=False)
    unknown = sum(r["uses_additional_data"] is None for r in ROWS)
    assert data.data["unknown_extra_training_data"] == unknown
    assert f"{unknown} rows left out" in human.out
