"""The best result first (issue #16): with no sort asked for, a leaderboard's first row is the
best result of the benchmark's main task scope, rows of other scopes never rank above it, and
headers count truthfully. Against the sample catalog on loopback, plus respx for shapes the
sample does not hold."""

from __future__ import annotations

import json
import shlex
from typing import Any

import respx

from pwc_mcp.sample import RunningCatalog
from tests.helpers.cli import run_cli

MAIN, ZERO_SHOT = "Image Classification", "Zero-Shot Image Classification"


def run(sample: RunningCatalog, argv: str) -> tuple[int, str, str]:
    result = run_cli(sample.url, shlex.split(argv))
    return result.code, result.out, result.err


def data_of(sample: RunningCatalog, argv: str) -> dict[str, Any]:
    code, out, err = run(sample, argv + " --json")
    assert code == 0, err
    return json.loads(out)["data"]


def listed(row: dict[str, Any]) -> tuple[str, int | None]:
    scope = row["rank_scopes"][0]
    return scope["task_name"], scope["rank"]


def test_imagenet_state_of_the_art_is_the_first_row(sample: RunningCatalog) -> None:
    # before: CLIP ViT-L/14@336px (zero-shot), 76.2, rank 1 of Zero-Shot, came first
    data = data_of(sample, "benchmark --name ImageNet --limit 50")
    rows = data["results"]
    assert (rows[0]["model_name"], listed(rows[0])) == ("ViT-H/14", (MAIN, 1))
    scopes = [listed(r)[0] for r in rows]
    assert scopes == sorted(scopes, key=lambda s: s != MAIN), "other scopes never rank above"
    main_ranks = [listed(r)[1] for r in rows if listed(r)[0] == MAIN]
    assert main_ranks == sorted(main_ranks)
    # the merged CLIP row is listed in the main scope at its rank there (27), not its best (1)
    clip = next(r for r in rows if r["model_name"] == "CLIP ViT-L/14@336px (zero-shot)")
    assert listed(clip) == (MAIN, 27) and clip["best_rank"] == 1
    assert [
        (s["task_name"], s["main"], s["primary_metric"], s["direction"])
        for s in data["task_scopes"]
    ] == [(MAIN, True, "Top 1 Accuracy", "higher"), (ZERO_SHOT, False, "Top 1 Accuracy", "higher")]


def test_filters_without_sort_keep_the_best_first(sample: RunningCatalog) -> None:
    rows = data_of(sample, 'benchmark --name ImageNet --min "Top 1 Accuracy=50"')["results"]
    assert rows[0]["model_name"] == "ViT-H/14"


def test_human_leaderboard_labels_each_scope(sample: RunningCatalog) -> None:
    _, out, _ = run(sample, "benchmark --name ImageNet --limit 50")
    main = out.index(f"## {MAIN} (main task scope; ranked by Top 1 Accuracy, higher is better)")
    other = out.index(f"## {ZERO_SHOT} (other task scope; ranked by Top 1 Accuracy")
    assert main < out.index("| 1 | ViT-H/14 · extra training data") < other
    clip_l = "| 27 | CLIP ViT-L/14@336px (zero-shot) · no extra training data · zero-shot |"
    assert out.index(clip_l) < other
    assert other < out.index(
        "| 2 | CLIP ResNet-50 (zero-shot) · no extra training data · zero-shot |"
    )


def test_header_says_rows_merged(sample: RunningCatalog) -> None:
    # before: "Top 38 of 39 evaluation rows." although every row was shown
    _, out, _ = run(sample, "benchmark --name ImageNet --limit 50")
    assert (
        "38 rows from 39 evaluation rows (one result in several task scopes is one row); all "
        "shown." in out.splitlines()
    )
    _, out, _ = run(sample, "benchmark --name ImageNet --page 2 --limit 5")
    assert (
        "38 rows from 39 evaluation rows (one result in several task scopes is one row); "
        "showing rows 6–10." in out.splitlines()
    )


def test_header_says_a_page_is_past_the_end(sample: RunningCatalog) -> None:
    # before: "Top 0 of 39 evaluation rows."
    code, out, err = run(sample, "benchmark --name ImageNet --page 50")
    assert code == 0
    assert "Page 50 is past the end: 38 rows fill 2 pages of 20." in out.splitlines()
    assert "Top 0" not in out
    _, out, _ = run(sample, 'benchmark --name ImageNet --min "Top 1 Accuracy=80" --page 9')
    assert "Page 9 is past the end: 16 rows fill 1 page of 20." in out.splitlines()


def evaluation(key: str, task: str, rank: int | None, **metrics: float) -> dict[str, Any]:
    return {
        "id": key,
        "paper_id": key,
        "dataset_id": "7",
        "dataset_name": "Bench",
        "model_name": key,
        "task_id": task,
        "task_name": f"Task {task}",
        "best_rank": rank,
        "best_metric": next(iter(metrics), None),
        "metrics": metrics,
    }


def page_of(rows: list[dict[str, Any]], count: int) -> dict[str, Any]:
    return {"count": count, "next_page": None, "results": rows}


def leaderboard(api: respx.MockRouter, rows: list[dict[str, Any]]) -> None:
    api.get("datasets/").respond(json=page_of([{"id": "7", "name": "Bench"}], 1))
    api.get("datasets/7/evaluations/").respond(json=page_of(rows, len(rows)))


def test_main_scope_is_the_one_most_rows_belong_to(pwc, api: respx.MockRouter) -> None:
    # upstream order is by rank: scope 2's rank 1 and 2 interleave with scope 1's
    rows = [
        evaluation("b1", "2", 1, Accuracy=60),
        evaluation("a1", "1", 1, Accuracy=90),
        evaluation("b2", "2", 2, Accuracy=50),
        evaluation("a2", "1", 2, Accuracy=80),
        evaluation("a3", "1", 3, Accuracy=70),
    ]
    leaderboard(api, rows)
    data = pwc("benchmark", "--name", "Bench", "--json").data
    assert [r["id"] for r in data["results"]] == ["a1", "a2", "a3", "b1", "b2"]
    assert [(s["task_id"], s["main"], s["count"]) for s in data["task_scopes"]] == [
        ("1", True, 3),
        ("2", False, 2),
    ]


def test_unranked_rows_follow_the_primary_metric_direction(pwc, api: respx.MockRouter) -> None:
    # no catalog ranks: the scope's primary metric orders it, lower first for an error metric
    rows = [
        evaluation("mid", "1", None, **{"Top-1 Error": 12.0}),
        evaluation("worst", "1", None, **{"Top-1 Error": 30.0}),
        evaluation("best", "1", None, **{"Top-1 Error": 9.5}),
    ]
    leaderboard(api, rows)
    data = pwc("benchmark", "--name", "Bench", "--json").data
    assert [r["id"] for r in data["results"]] == ["best", "mid", "worst"]
    assert data["task_scopes"][0]["direction"] == "lower"


def test_a_requested_sort_wins_and_rows_stay_labelled(pwc, api: respx.MockRouter) -> None:
    rows = [
        evaluation("b1", "2", 1, Accuracy=95),
        evaluation("a1", "1", 1, Accuracy=90),
        evaluation("a2", "1", 2, Accuracy=80),
    ]
    leaderboard(api, rows)
    data = pwc("benchmark", "--name", "Bench", "--sort", "Accuracy", "--json").data
    assert [r["id"] for r in data["results"]] == ["b1", "a1", "a2"]
    assert [r["rank_scopes"][0]["task_id"] for r in data["results"]] == ["2", "1", "1"]
    out = pwc("benchmark", "--name", "Bench", "--sort", "Accuracy").out
    assert "| 1 | b1 |" in out and "Task 2 |" in out and "## Task" not in out  # one table


def test_paper_evaluations_best_first_per_benchmark(pwc, api: respx.MockRouter) -> None:
    def row(key: str, dataset: str, task: str, rank: int) -> dict[str, Any]:
        return {**evaluation(key, task, rank, BLEU=float(rank)), "dataset_id": dataset}

    api.get("papers/1706.03762").respond(json={"id": "9", "title": "Attention"})
    # upstream order: most popular benchmark first (dataset 5), then dataset 6
    rows = [
        row("z1", "5", "20", 1),
        row("m4", "5", "10", 4),
        row("m2", "5", "10", 2),
        row("o1", "6", "30", 1),
    ]
    api.get("evaluations/").respond(json={"count": 4, "next_page": None, "results": rows})
    data = pwc("paper", "evaluations", "1706.03762", "--json").data
    # before: by best rank alone, z1 (rank 1 of a minor scope) and o1 came first
    assert [r["id"] for r in data["results"]] == ["m2", "m4", "z1", "o1"]
    assert [(s["dataset_id"], s["task_id"], s["main"]) for s in data["task_scopes"]] == [
        ("5", "10", True),
        ("5", "20", False),
        ("6", "30", True),
    ]
