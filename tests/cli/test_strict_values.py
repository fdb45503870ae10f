"""Strict where it is not safe (issue #16), through `pwc` against the sample catalog: a
threshold that is not a finite number and Pareto objectives that name one metric twice are
usage errors naming the flag, refused before any request."""

from __future__ import annotations

import shlex

import pytest

from pwc_core.declarations import COMMANDS
from pwc_core.declare import arguments
from pwc_core.errors import ArgumentError
from pwc_core.values import MAX_METRICS, pareto_objectives
from pwc_mcp.sample import RunningCatalog
from tests.helpers.cli import run_cli

BENCH = "benchmark --name ImageNet "


def pwc(sample: RunningCatalog, line: str) -> tuple[int, str]:
    result = run_cli(sample.url, shlex.split(line))
    return result.code, result.err


@pytest.mark.parametrize(
    ("line", "message"),
    [
        (BENCH + "--min 'Top 1 Accuracy=nan'", "argument --min: metric threshold must be a finite"),
        (
            BENCH + "--min 'Top 1 Accuracy=-inf'",
            "argument --min: metric threshold must be a finite",
        ),
        (BENCH + "--max 'GFLOPs=inf'", "argument --max: metric threshold must be a finite"),
        (BENCH + "--max 'GFLOPs=Infinity'", "argument --max: metric threshold must be a finite"),
        (BENCH + "--min ' =80'", "argument --min: a metric name must not be blank"),
        (
            BENCH + "--pareto 'Top 1 Accuracy:higher,top 1 accuracy:lower'",
            "argument --pareto: each Pareto objective must be a different metric; "
            "'Top 1 Accuracy' and 'top 1 accuracy' are the same metric",
        ),
        (
            BENCH + "--pareto 'GFLOPs:lower,GFLOPs:lower'",
            "argument --pareto: each Pareto objective must be a different metric; 'GFLOPs' repeats",
        ),
        (
            BENCH + "--pareto 'Top-1:higher,Top 1 Accuracy:lower'",
            "argument --pareto: each Pareto objective must be a different metric",
        ),
        ("paper trending --min-velocity nan", "argument --min-velocity: expected a finite number"),
    ],
)
def test_unsafe_values_are_usage_errors_naming_the_flag(
    sample: RunningCatalog, line: str, message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    sample.stats.reset()
    code, _ = pwc(sample, line)
    err = capsys.readouterr().err  # argparse's own error line
    assert code == 2 and message in err, err
    assert sample.stats.total() == 0


def test_distinct_pareto_objectives_still_run(sample: RunningCatalog) -> None:
    code, err = pwc(sample, BENCH + "--pareto 'Top 1 Accuracy:higher,GFLOPs:lower'")
    assert code == 0, err


def test_as_many_distinct_objectives_as_the_bound_allows_are_kept() -> None:
    text = ",".join(f"{f'metric {i}'.rjust(100)}:higher" for i in range(MAX_METRICS))
    assert len(pareto_objectives(text)) == MAX_METRICS


def test_a_refused_value_carries_its_dest() -> None:
    """The MCP server names the parameter from the dest; the CLI's text names the flag."""
    with pytest.raises(ArgumentError) as raised:
        arguments(
            COMMANDS["benchmark"],
            {"name": "ImageNet", "minimum_metrics": {"Top 1 Accuracy": float("nan")}},
        )
    assert raised.value.dest == "minimum_metrics"
    assert str(raised.value).startswith("argument --min: metric threshold must be a finite")
