"""The chart model (pwc_core.chart, its JSON form pwc_core.chart_json) on its own: the size
frontier over a whole fixture board equals the brute-force definition; a Pareto request's axes
are its objectives (the parameter count on x), its frontier the rows the handler returned; the
axes run so that better is up and left; the best row; the JSON form is plain, bounded JSON.
Through the real get_benchmark tool: tests/mcp/test_app.py; drawn by the app: tests/js."""

from __future__ import annotations

import json
from typing import Any

import pytest

from pwc_core.chart import scatter, timeline_of
from pwc_core.chart_json import LABEL, to_json
from pwc_core.selection import Criteria, Selection
from tests.helpers.boards import Scope, rows_of
from tests.helpers.charts import brute_frontier, resolved

# A board of 60 rows in the main scope over 23 values, so rows tie exactly (rows_of derives a
# row's size from its value) and sizes tie across values; some rows lose their size, and a
# second scope's rows lack the main metric.
MAIN = Scope("1", "Score", False, [20.0 + (i * 37 % 23) / 4 for i in range(60)])
OTHER = Scope("2", "Elo", False, [1000.0 + i for i in range(12)])


def board(lower: bool) -> dict[str, Any]:
    rows = rows_of([MAIN, OTHER])
    for k, row in enumerate(rows):
        if k % 9 == 4:
            row["num_parameters"] = None
    direction = "lower" if lower else "higher"
    return {
        "results": rows,
        "task_scopes": [{"main": True, "primary_metric": "Score", "direction": direction}],
        "metric_directions": {"Score": direction},
    }


@pytest.mark.parametrize("lower", [False, True])
def test_the_size_frontier_over_a_whole_board_is_the_brute_force_one(lower: bool) -> None:
    payload = board(lower)
    chart = scatter(payload)
    sized = [
        (r["num_parameters"], r["metrics"]["Score"])
        for r in payload["results"]
        if r["num_parameters"] and "Score" in r["metrics"]
    ]
    assert len(chart.points) == len(sized) > 40 and len(set(sized)) < len(sized)  # ties
    assert {(int(p.x), p.y) for p in chart.frontier} == brute_frontier(sized, -1 if lower else 1)
    assert len(chart.frontier) == len({(p.x, p.y) for p in chart.frontier})  # a tie drawn once
    # drawing order: fewer parameters first, each strictly better than the one before
    xs = [p.x for p in chart.frontier]
    ys = [(-1 if lower else 1) * p.y for p in chart.frontier]
    assert xs == sorted(xs) and all(a < b for a, b in zip(ys, ys[1:], strict=False))
    assert (chart.x.metric, chart.x.direction, chart.x.scale) == ("Parameters", "lower", "log")
    assert (chart.y.metric, chart.y.direction, chart.y.reversed) == (
        "Score",
        chart.direction,
        lower,
    )
    assert chart.unvalued == len(OTHER.values) and len(chart.unsized) == 60 - len(sized)
    # the JSON form says the same, point by point
    drawn = to_json(payload)["scatter"]
    on_front = {p["row"] for p in drawn["points"] if p["on_front"]}
    assert on_front == {p.index for p in chart.frontier} and drawn["pareto"] is False
    assert drawn["frontier"] == [p.index for p in chart.frontier]


ROWS = [  # (model, Top 1, GFLOPs, parameters): all on the Top 1 x GFLOPs front
    ("big", 87.3, 103.9, 197_000_000),
    ("mid", 84.3, 37.0, 66_000_000),
    ("wide", 83.5, 15.4, 88_000_000),  # more parameters than "mid", worse: off a size frontier
    ("small", 77.1, 0.39, 5_300_000),
]


def front_payload() -> dict[str, Any]:
    results = [
        {"model_name": m, "metrics": {"Top 1 Accuracy": a, "GFLOPs": g}, "num_parameters": p}
        for m, a, g, p in ROWS
    ]
    return {
        "results": results,
        "task_scopes": [{"main": True, "primary_metric": "Top 1 Accuracy"}],
        "metric_directions": {"Top 1 Accuracy": "higher", "GFLOPs": "lower"},
    }


def test_a_pareto_request_plots_its_objectives_and_its_rows_are_the_frontier() -> None:
    payload = front_payload()
    chart = scatter(payload, resolved(payload, "top-1:higher", "gflops:lower"))  # as matched
    assert (chart.y.metric, chart.y.direction) == ("Top 1 Accuracy", "higher")
    assert (chart.x.metric, chart.x.direction, chart.x.scale) == ("GFLOPs", "lower", "log")
    assert {p.model for p in chart.frontier} == {m for m, *_ in ROWS} and chart.pareto
    assert [p.model for p in chart.frontier] == ["small", "wide", "mid", "big"]  # cheapest first
    assert [x for x, _ in chart.steps()][-1] == chart.x.high  # held level to the worse end
    assert chart.best == 0 and chart.best_point and chart.best_point.model == "big"
    # without the request, the same rows are plotted against size, and "wide" is off the front
    assert "wide" not in {p.model for p in scatter(payload).frontier}


@pytest.mark.parametrize(
    "objectives, y, x",
    [
        (("Parameters:lower", "Top 1 Accuracy:higher"), "Top 1 Accuracy", "Parameters"),
        (("GFLOPs:lower", "Top 1 Accuracy:higher"), "GFLOPs", "Top 1 Accuracy"),
        (
            ("Top 1 Accuracy:higher", "GFLOPs:lower", "Parameters:lower"),
            "Top 1 Accuracy",
            "Parameters",
        ),
    ],
)
def test_the_axes_of_a_pareto_request(objectives: tuple[str, ...], y: str, x: str) -> None:
    payload = front_payload()
    chart = scatter(payload, resolved(payload, *objectives))
    assert (chart.y.metric, chart.x.metric) == (y, x)
    assert len(chart.frontier) == len(ROWS)
    assert chart.stepped == (len(objectives) == 2)  # three objectives make no staircase in two
    assert chart.steps() == [] if len(objectives) > 2 else chart.steps()


@pytest.mark.parametrize("y_direction", ["higher", "lower"])
@pytest.mark.parametrize("x_direction", ["higher", "lower"])
def test_better_is_up_and_left_whatever_the_directions(y_direction: str, x_direction: str) -> None:
    """An axis runs reversed exactly when its better end would otherwise be down or right."""
    payload = front_payload()
    chart = scatter(payload, resolved(payload, f"Top 1:{y_direction}", f"GFLOPs:{x_direction}"))
    assert chart.y.reversed == (y_direction == "lower")
    assert chart.x.reversed == (x_direction == "higher")
    order = [p.x for p in chart.frontier]  # drawn from the better x end
    assert order == sorted(order, reverse=x_direction == "higher")


def test_the_best_row_is_the_pages_best_even_without_a_point() -> None:
    payload = front_payload()
    payload["results"].append({"model_name": "unsized", "metrics": {"Top 1 Accuracy": 99.0}})
    chart = scatter(payload)
    assert chart.best == len(ROWS) and chart.best_point is None
    assert chart.leader == ("unsized", 99.0)
    unknown = front_payload() | {"metric_directions": {}, "task_scopes": []}
    for row in unknown["results"]:
        row["metrics"] = {"Widgets": row["metrics"]["Top 1 Accuracy"]}
    widgets = scatter(unknown)
    assert widgets.metric == "Widgets" and widgets.best is None and widgets.frontier == []


def test_the_json_form_is_plain_bounded_json() -> None:
    payload = front_payload()
    payload["results"][0]["model_name"] = "x" * 10_000
    payload["timeline"] = {
        "metric": "Top 1 Accuracy",
        "direction": "higher",
        "records": [
            {"date": f"20{10 + k}-01-01", "value": 70.0 + k, "model_name": "m" * 500}
            for k in range(12)
        ],
    }
    drawn = to_json(payload, resolved(payload, "Top 1 Accuracy:higher", "GFLOPs:lower"))
    assert json.loads(json.dumps(drawn, allow_nan=False)) == drawn
    assert len(drawn["scatter"]["points"]) == len(ROWS)
    assert all(len(p["label"]) <= LABEL for p in drawn["scatter"]["points"])
    timeline = drawn["timeline"]
    # the records by their position in the payload's timeline, not copied (issue #36)
    assert timeline["rows"] == list(range(12)) and "records" not in timeline
    # the timeline's steps: a corner per record, one across per later record, and the level end
    assert len(timeline["steps"]) == 2 * 12
    assert timeline["steps"][-1] == [timeline["x"]["high"], 81.0]
    parsed = timeline_of(payload)
    assert parsed is not None and timeline["y"]["ticks"] == [list(t) for t in parsed.y.ticks]
    assert len(json.dumps(drawn)) < 12_000


def test_a_sorted_page_plots_the_sort_metric_the_whole_board_resolved() -> None:
    """A late page of a sorted board holds the rows without the sort metric (they sort last):
    the chart still plots the metric, spelt and directed as the handler resolved it over the
    whole board, not a guess from this page's rows."""
    page = {
        "results": [
            {"id": "r1", "model_name": "A", "metrics": {"Other": "1"}, "num_parameters": 10},
            {"id": "r2", "model_name": "B", "metrics": {"Other": "2"}, "num_parameters": 20},
        ],
        "metric_directions": {"Other": "higher"},
        "ordering": {"by": "sort", "metric": "Top 1 Accuracy", "direction": "higher"},
    }
    board = Selection(
        page=2, limit=2, selecting=True, chosen=Criteria(sort=("Top 1 Accuracy", None))
    )
    chart = scatter(page, board)
    assert chart.y.metric == "Top 1 Accuracy" and chart.y.direction == "higher"
    assert chart.points == [] and chart.unvalued == 2
