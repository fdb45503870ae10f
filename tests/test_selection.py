"""The selection resolved once (docs/decisions.md#the-selection-resolved-once): over a real call
(the `pwc` CLI with its `--chart`, the get_benchmark tool with its text and chart, both against
the sample catalog on loopback), each metric name a request gives is matched against the board
exactly once, however many places read it."""

from __future__ import annotations

import sys
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from fastmcp import Client

from pwc_core import metrics
from pwc_mcp.sample import RunningCatalog
from pwc_mcp.server import build_server
from tests.helpers.cli import run_cli
from tests.helpers.mcp import call, make_service

PARETO = ["top-1:higher", "gflops:lower"]  # matched by alias and by containment


@pytest.fixture
def matches(monkeypatch: pytest.MonkeyPatch) -> Counter[str]:
    """Every call of the one matching function, by the name asked (casefolded), whichever module
    calls it under whatever binding."""
    seen: Counter[str] = Counter()
    original: Callable[..., Any] = metrics.match_metric

    def counted(request: str, available: dict[str, str], about: str = "metric") -> str | None:
        seen[request.strip().casefold()] += 1
        return original(request, available, about)

    for name, module in list(sys.modules.items()):
        ours = name.split(".")[0] in ("pwc_core", "pwc_cli", "pwc_mcp")
        if ours and getattr(module, "match_metric", None) is original:
            monkeypatch.setattr(module, "match_metric", counted)
    return seen


def test_the_cli_matches_each_name_once(
    sample: RunningCatalog, matches: Counter[str], tmp_path: Path
) -> None:
    chart = tmp_path / "front.svg"
    argv = ["benchmark", "ImageNet", "--pareto", ",".join(PARETO), "--sort", "top 5:higher"]
    result = run_cli(sample.url, [*argv, "--chart", str(chart)])
    assert result.code == 0, result.err
    assert "Top 1 Accuracy" in chart.read_text() and "GFLOPs" in chart.read_text()
    assert matches == {"top-1": 1, "gflops": 1, "top 5": 1}


@pytest.mark.anyio
async def test_the_tool_matches_each_name_once(
    sample: RunningCatalog, matches: Counter[str]
) -> None:
    async with Client(build_server(make_service(sample.url))) as client:
        result, text = await call(client, "get_benchmark", benchmark="ImageNet", pareto=PARETO)
    scatter = result["chart"]["scatter"]
    assert (scatter["y"]["metric"], scatter["x"]["metric"]) == ("Top 1 Accuracy", "GFLOPs")
    assert "Pareto front sorted by Top 1 Accuracy" in text
    assert matches == {"top-1": 1, "gflops": 1}


@pytest.mark.anyio
async def test_a_page_past_the_end_charts_the_objectives_as_the_board_spells_them(
    sample: RunningCatalog,
) -> None:
    """No row on the page to match against: the axes still name the board's metrics (the chart
    used to match the page's rows again, and fell back to the names as typed)."""
    async with Client(build_server(make_service(sample.url))) as client:
        result, _ = await call(
            client, "get_benchmark", benchmark="ImageNet", pareto=PARETO, page=50
        )
    scatter = result["chart"]["scatter"]
    assert result["data"]["results"] == [] and not scatter.get("points")
    assert (scatter["y"]["metric"], scatter["x"]["metric"]) == ("Top 1 Accuracy", "GFLOPs")
