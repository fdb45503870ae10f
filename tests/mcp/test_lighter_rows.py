"""Lighter leaderboard rows (issue #36): in `structuredContent`, a row leaves out the
`metric_directions` we add to each row where the board's `metric_directions` says the same, and
nothing else; the CLI's `--json` keeps every row whole (v1). Checked against the CLI's own
payload for the same board, through a real MCP client and the CLI, both on the sample catalog."""

from __future__ import annotations

import pytest
from fastmcp import Client

from pwc_mcp.answers.additions import lighter_rows
from pwc_mcp.sample import RunningCatalog
from tests.helpers.cli import run_cli
from tests.helpers.mcp import call

pytestmark = pytest.mark.anyio

BOARDS = ["ImageNet", "Penn Treebank (Word Level)", "MMLU"]


@pytest.mark.parametrize("board", BOARDS)
async def test_a_row_says_no_direction_the_board_says_and_loses_nothing_else(
    cached_client: Client, sample: RunningCatalog, board: str
) -> None:
    structured, _ = await call(cached_client, "get_benchmark", benchmark=board, limit=25)
    cli = run_cli(sample.url, ["benchmark", "--name", board, "--limit", "25", "--json"])
    assert cli.code == 0, cli.err
    said = structured["data"]["metric_directions"]
    assert said == cli.data["metric_directions"]
    whole = cli.data["results"]
    assert whole and all("metric_directions" in row for row in whole), "the CLI keeps them"
    for light, row in zip(structured["data"]["results"], whole, strict=True):
        assert light == {k: v for k, v in row.items() if k != "metric_directions"}
        # what was left out is the board's: each of the row's directions, read from there
        assert {m: said[m] for m in row["metric_directions"]} == row["metric_directions"]


def test_a_row_with_a_direction_the_board_does_not_say_keeps_its_own() -> None:
    payload = {
        "metric_directions": {"A": "higher"},
        "results": [
            {"id": 1, "metric_directions": {"A": "higher"}},
            {"id": 2, "metric_directions": {"A": "higher", "B": "lower"}},
            {"id": 3, "metric_directions": {"A": "lower"}},
        ],
    }
    rows = lighter_rows(payload)["results"]
    assert rows == [{"id": 1}, payload["results"][1], payload["results"][2]]
    assert payload["results"][0] == {"id": 1, "metric_directions": {"A": "higher"}}, "unchanged"
