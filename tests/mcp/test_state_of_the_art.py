"""Right answers about the state of the art (issue #23), checked against an independent oracle
over the whole board (tests/helpers/boards.py), through a real MCP client and the `pwc` CLI,
both against a catalog on loopback that interleaves task scopes by rank, caps its page size (so
a board takes several upstream pages) and names its metrics "Score" and "Elo"."""

from __future__ import annotations

from typing import Any

import pytest
from fastmcp import Client

from tests.helpers.boards import (
    Scope,
    oracle_front,
    oracle_order,
    oracle_records,
    rows_of,
    serve,
)
from tests.helpers.cli import run_cli
from tests.helpers.mcp import Answers, call

pytestmark = pytest.mark.anyio

# The main scope (25 rows) is ranked lowest "Score" first; the other (15 rows) highest "Elo"
# first. Neither name says which way is better, and "score" even suggests the wrong one.
MAIN = Scope("1", "Score", True, [3.0 + (i * 37 % 101) / 10 for i in range(25)])
OTHER = Scope("2", "Elo", False, [1000.0 + (i * 53 % 97) for i in range(15)])
ROWS = rows_of([MAIN, OTHER])
ORDER = oracle_order(ROWS)


@pytest.fixture
def board(hostile: tuple[Client, Answers]) -> Client:
    client, answers = hostile
    serve(answers.by_path, ROWS)
    return client


async def pages(client: Client, limit: int, **arguments: Any) -> list[list[dict[str, Any]]]:
    """Every page of get_benchmark at this page size, following next_page."""
    seen: list[list[dict[str, Any]]] = []
    page: int | None = 1
    while page is not None:
        result, _ = await call(
            client, "get_benchmark", benchmark="Bench", limit=limit, page=page, **arguments
        )
        seen.append(result["data"]["results"])
        page = result.get("next_page")
        assert len(seen) <= 40, "paging must end"
    return seen


@pytest.mark.parametrize("limit", [2, 3, 5, 10, 25])
async def test_pages_are_slices_of_one_whole_board_order(board: Client, limit: int) -> None:
    # before: the main scope was chosen from the page in hand, and pages mixed the scopes
    seen = await pages(board, limit)
    ids = [row["id"] for page in seen for row in page]
    assert ids == ORDER, "every row on exactly one page, main scope first, best first"
    first, _ = await call(board, "get_benchmark", benchmark="Bench", limit=limit)
    main = [s for s in first["data"]["task_scopes"] if s["main"]]
    assert [s["task_id"] for s in main] == ["1"]
    assert first["data"]["matched_count"] == len(ROWS)
    assert first["data"]["ordering"]["complete"] is True


async def test_the_state_of_the_art_does_not_depend_on_the_page_size(board: Client) -> None:
    best = min(MAIN.values)  # lower is better in the main scope, by the catalog's ranks
    for limit in (1, 2, 7, 25):
        result, text = await call(board, "get_benchmark", benchmark="Bench", limit=limit)
        assert result["data"]["results"][0]["metrics"]["Score"] == best
        assert "Main task scope: Task 1" in text


async def test_a_sort_without_a_direction_puts_the_best_first(board: Client) -> None:
    # "Score" sounds higher-is-better; the catalog ranks it lowest first: ranks decide
    result, text = await call(board, "get_benchmark", benchmark="Bench", sort_metric="Score")
    values = [r["metrics"]["Score"] for r in result["data"]["results"]]
    assert values == sorted(MAIN.values)[:20]
    assert result["data"]["metric_direction_sources"] == {"Score": "ranks"}
    assert result["data"]["ordering"] | {"complete": True} == {
        "by": "sort",
        "metric": "Score",
        "order": "asc",
        "basis": "best first",
        "direction": "lower",
        "direction_source": "ranks",
        "complete": True,
        "rows_ordered": len(ROWS),
    }
    assert (
        "Sorted by Score, lowest first (best first: lower is better, by the catalog's ranks)"
        in (text)
    )


@pytest.mark.parametrize(("word", "reverse"), [("asc", False), ("desc", True)])
async def test_an_explicit_order_is_honoured(board: Client, word: str, reverse: bool) -> None:
    result, text = await call(
        board, "get_benchmark", benchmark="Bench", sort_metric=f"Elo:{word}", limit=25
    )
    values = [r["metrics"]["Elo"] for r in result["data"]["results"]]
    assert values == sorted(OTHER.values, reverse=reverse)
    assert "as asked; higher is better, by the catalog's ranks" in text


async def test_a_stated_direction_wins_over_the_ranks(board: Client) -> None:
    result, text = await call(
        board, "get_benchmark", benchmark="Bench", sort_metric="Score:higher", limit=3
    )
    values = [r["metrics"]["Score"] for r in result["data"]["results"]]
    assert values == sorted(MAIN.values, reverse=True)[:3]
    assert result["data"]["metric_direction_sources"] == {"Score": "stated"}
    assert "higher is better, as stated" in text


async def test_the_timeline_reads_the_direction_from_the_ranks(board: Client) -> None:
    # before: "Score" was higher-is-better by its name, so the lowest-first board showed the
    # records of the wrong direction
    result, _ = await call(board, "get_benchmark", benchmark="Bench", timeline=True)
    timeline = result["data"]["timeline"]
    main_rows = [r for r in ROWS if r["task_id"] == "1"]
    expected = oracle_records(main_rows, "Score", lower=True)
    assert (timeline["metric"], timeline["direction"]) == ("Score", "lower")
    assert [r["evaluation_id"] for r in timeline["records"]] == expected
    assert len(expected) > 1


async def test_parameters_are_a_pareto_objective(board: Client) -> None:
    # the schema's own example spelling: "Params"
    result, text = await call(
        board, "get_benchmark", benchmark="Bench", pareto=["Score:lower", "Params:lower"]
    )
    front = oracle_front(
        [r for r in ROWS if "Score" in r["metrics"]],
        [(lambda r: r["metrics"]["Score"], "lower"), (lambda r: r["num_parameters"], "lower")],
    )
    got = [r["id"] for r in result["data"]["results"]]
    assert set(got) == front and len(got) == len(front)
    scores = [r["metrics"]["Score"] for r in result["data"]["results"]]
    assert scores == sorted(scores), "ordered by the first objective, best first"
    assert "Pareto front sorted by Score, lowest first" in text


async def test_parameters_sort_smallest_first(board: Client) -> None:
    result, _ = await call(board, "get_benchmark", benchmark="Bench", sort_metric="Parameters")
    sizes = [r["num_parameters"] for r in result["data"]["results"]]
    assert sizes == sorted(r["num_parameters"] for r in ROWS)[:20]
    assert result["data"]["ordering"]["direction"] == "lower"


def test_the_cli_pages_the_same_order(upstream: tuple[str, Answers]) -> None:
    url, answers = upstream
    answers.by_path.clear()
    serve(answers.by_path, ROWS)
    ids: list[str] = []
    for page in range(1, 20):
        result = run_cli(
            url, ["benchmark", "--name", "Bench", "--limit", "4", "--page", str(page), "--json"]
        )
        assert result.code == 0, result.err
        ids += [r["id"] for r in result.data["results"]]
        if result.data["next_page"] is None:
            break
    assert ids == ORDER
    human = run_cli(url, ["benchmark", "--name", "Bench", "--sort", "Score", "--limit", "2"])
    assert (
        "Sorted by Score, lowest first (best first: lower is better, by the catalog's ranks)."
        in (human.out)
    )


def test_a_board_longer_than_the_bound_says_it_is_ordered_over_the_rows_read(
    upstream: tuple[str, Answers],
) -> None:
    url, answers = upstream
    answers.by_path.clear()
    long = rows_of([Scope("1", "Score", True, [float(i) for i in range(1100)])])
    serve(answers.by_path, long)
    result = run_cli(url, ["benchmark", "--name", "Bench", "--json"])
    order = result.data["ordering"]
    assert (order["complete"], order["rows_ordered"], order["stopped"]) == (
        False,
        300,  # 20 pages of 15 (the catalog's cap): the page bound, not a silent cut
        "page limit reached",
    )
    human = run_cli(url, ["benchmark", "--name", "Bench"])
    assert "Ordered over the first 300 evaluation rows read of 1,100 (page limit reached)" in (
        human.out
    )
