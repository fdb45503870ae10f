"""Right answers about the state of the art on the sample catalog (issue #23), each checked
against an independent computation over the whole board read with `--json` (the CLI over real
HTTP on loopback)."""

from __future__ import annotations

import shlex
from typing import Any

import pytest

from pwc_mcp.sample import RunningCatalog
from tests.helpers.boards import oracle_front
from tests.helpers.cli import run_cli


def data_of(sample: RunningCatalog, argv: str) -> dict[str, Any]:
    result = run_cli(sample.url, [*shlex.split(argv), "--json"])
    assert result.code == 0, result.err
    return result.data


def whole(sample: RunningCatalog, name: str) -> list[dict[str, Any]]:
    return data_of(sample, f'benchmark --name "{name}" --limit 100')["results"]


@pytest.mark.parametrize("limit", [1, 2, 3, 5, 10, 25])
def test_imagenet_best_row_does_not_depend_on_the_page_size(sample, limit) -> None:
    # before: limit 2 said "Main task scope: Zero-Shot Image Classification", CLIP (76.2) first
    data = data_of(sample, f"benchmark --name ImageNet --limit {limit}")
    first = data["results"][0]
    assert (first["model_name"], first["metrics"]["Top 1 Accuracy"]) == ("ViT-H/14", "88.55%")
    main = [s["task_name"] for s in data["task_scopes"] if s["main"]]
    assert main == ["Image Classification"]


def test_imagenet_pages_hold_every_row_once(sample) -> None:
    board = [r["id"] for r in whole(sample, "ImageNet")]
    paged: list[str] = []
    for page in range(1, 20):
        data = data_of(sample, f"benchmark --name ImageNet --limit 10 --page {page}")
        paged += [r["id"] for r in data["results"]]
        if data["next_page"] is None:
            break
    assert paged == board and len(set(paged)) == len(paged)


@pytest.mark.parametrize(
    ("board", "metric", "lower"),
    [
        ("Penn Treebank (Word Level)", "Test perplexity", True),
        ("MNIST", "Percentage error", True),
        ("ImageNet", "Top 1 Accuracy", False),
    ],
)
def test_a_sort_puts_the_best_first(sample, board, metric, lower) -> None:
    # before: the default was descending whatever the metric: 82.7, 78.4, 73.4 ... perplexity
    def number(row: dict[str, Any]) -> float:
        return float(str(row["metrics"][metric]).rstrip("%"))

    rows = [r for r in whole(sample, board) if r["metrics"].get(metric) is not None]
    expected = sorted((number(r) for r in rows), reverse=not lower)
    data = data_of(sample, f'benchmark --name "{board}" --sort "{metric}" --limit 100')
    assert [number(r) for r in data["results"]] == expected
    assert data["ordering"]["order"] == ("asc" if lower else "desc")
    assert data["ordering"]["basis"] == "best first"


def test_mmlu_direction_comes_from_the_catalogs_ranks(sample) -> None:
    # before: "the direction of metric Average (%) is unknown"
    data = data_of(sample, "benchmark --name MMLU --timeline")
    assert data["metric_direction_sources"]["Average (%)"] == "ranks"
    assert data["timeline"]["direction"] == "higher"
    values = [r["value"] for r in data["timeline"]["records"]]
    assert values == sorted(values) and len(values) > 1
    rows = whole(sample, "MMLU")
    ranked = sorted(rows, key=lambda r: r["rank_scopes"][0]["rank"])
    best = ranked[0]["metrics"]["Average (%)"]
    assert values[-1] == max(float(r["metrics"]["Average (%)"]) for r in rows) == best


def test_a_stated_direction_is_used(sample) -> None:
    data = data_of(sample, 'benchmark --name MMLU --timeline --metric "Average (%):lower"')
    assert data["metric_direction_sources"]["Average (%)"] == "stated"
    assert data["timeline"]["direction"] == "lower"


def test_against_sota_compares_mmlu(sample) -> None:
    # before: MMLU rows were "not compared: direction unknown"
    data = data_of(sample, "paper evaluations 2302.13971 --against-sota")
    mmlu = [r for r in data["results"] if r["dataset_name"] == "MMLU"]
    assert mmlu and all(r["sota"]["direction"] == "higher" for r in mmlu)
    assert {r["sota"]["value"] for r in mmlu} == {
        max(float(r["metrics"]["Average (%)"]) for r in whole(sample, "MMLU"))
    }
    assert {r["sota"]["protocol"] for r in mmlu} == {"5-shot"}


def test_imagenet_accuracy_against_parameters(sample) -> None:
    # before: `unknown metric(s): params`, although it is the schema's own example
    rows = whole(sample, "ImageNet")
    front = oracle_front(
        rows,
        [
            (lambda r: float(str(r["metrics"].get("Top 1 Accuracy", "nan")).rstrip("%")), "higher"),
            (lambda r: r["num_parameters"] if r["num_parameters"] else float("nan"), "lower"),
        ],
    )
    data = data_of(
        sample,
        'benchmark --name ImageNet --pareto "Top 1 Accuracy:higher,Params:lower" --limit 100',
    )
    assert {r["id"] for r in data["results"]} == front


def test_qualifiers_are_said(sample) -> None:
    out = run_cli(sample.url, ["benchmark", "--name", "ImageNet", "--limit", "1"]).out
    assert "ViT-H/14 · extra training data · JFT-300M pre-training" in out


def test_a_size_cap_keeps_mmlus_direction(sample) -> None:
    # before: two rows left under 300M, too few ranks to vote: metric_directions was empty
    # and the timeline refused ("the direction of metric Average (%) is unknown")
    data = data_of(sample, "benchmark --name MMLU --max-parameters 300M --timeline")
    assert data["matched_count"] == 2
    assert data["metric_direction_sources"]["Average (%)"] == "ranks"
    assert data["timeline"]["direction"] == "higher"
    rows = whole(sample, "MMLU")
    small = [r for r in rows if r["num_parameters"] and r["num_parameters"] <= 300_000_000]
    (scope,) = data["scope_bests"]["scopes"]
    best = max(small, key=lambda r: float(r["metrics"]["Average (%)"]))
    overall = max(rows, key=lambda r: float(r["metrics"]["Average (%)"]))
    assert (scope["best"]["id"], scope["whole_board_best"]["id"]) == (best["id"], overall["id"])
