"""Charts from leaderboard payloads (pwc_cli.charts), on payload dicts: the SVG scatter (points,
Pareto frontier, best, labels, what is not plotted), the timeline panel, the Unicode step chart,
and hostile text and numbers. Through the CLI and in Chromium: tests/test_charts_cli.py."""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from typing import Any

import pytest

from pwc_cli.charts.steps import HEIGHT, step_chart, terminal_steps
from pwc_cli.charts.svg import document
from pwc_cli.terminal import Terminal, display_width
from pwc_core.chart import frontier, scatter, timeline_of
from tests.helpers.charts import SVG, brute_frontier, by_class, resolved, texts


def row(
    model: str, value: Any, size: Any, date: str = "2020-01-01", metric: str = "Score", **extra: Any
) -> dict:
    return {
        "model_name": model,
        "num_parameters": size,
        "metrics": {metric: value} if value is not None else {},
        "paper_title": f"Paper of {model}",
        "paper_published_date": date,
        **extra,
    }


def payload(
    rows: list[dict], direction: str | None = "higher", metric: str = "Score", **extra: Any
) -> dict:
    return {
        "benchmark": {"name": "Bench"},
        "results": rows,
        "task_scopes": [{"main": True, "primary_metric": metric, "direction": direction}],
        "metric_directions": {metric: direction} if direction else {},
        **extra,
    }


def parse(text: str) -> ET.Element:
    assert text.startswith('<?xml version="1.0" encoding="UTF-8"?>\n<svg ')
    return ET.fromstring(text.encode("utf-8"))


ROWS = [
    row("a", 70.0, 5_000_000),
    row("b", 75.0, 20_000_000),
    row("c", 72.0, 30_000_000),  # dominated by b
    row("d", 80.0, 300_000_000),
    row("e", 75.0, 20_000_000, paper_title="tie of b"),  # same size and value as b
    row("f", 60.0, 1_000_000),
    row("no size", 99.0, None),
    row("zero size", 99.0, 0),
    row("no value", None, 10_000_000),
]


@pytest.mark.parametrize("direction", ["higher", "lower"])
def test_points_frontier_and_best_follow_the_metric_direction(direction: str) -> None:
    sign = 1.0 if direction == "higher" else -1.0
    root = parse(document(payload(ROWS, direction)))
    points = by_class(root, "circle", "point")
    plotted = [
        (int(p.get("data-parameters") or 0), float(p.get("data-value") or 0)) for p in points
    ]
    assert sorted(plotted) == sorted(
        (r["num_parameters"], r["metrics"]["Score"])
        for r in ROWS
        if r["metrics"] and r["num_parameters"]
    )
    # x grows with the parameter count, y goes up (smaller SVG y) as the value gets better
    xy = {(int(p.get("data-parameters") or 0), float(p.get("data-value") or 0)): p for p in points}
    ordered = sorted(xy, key=lambda k: k[0])
    xs = [float(xy[k].get("cx") or 0) for k in ordered]
    assert all(
        a < b or k1[0] == k2[0]
        for a, b, k1, k2 in zip(xs, xs[1:], ordered, ordered[1:], strict=False)
    )
    ranked = sorted(xy, key=lambda k: sign * k[1])
    ys = [float(xy[k].get("cy") or 0) for k in ranked]
    assert all(
        a > b or k1[1] == k2[1]
        for a, b, k1, k2 in zip(ys, ys[1:], ranked, ranked[1:], strict=False)
    )
    front = {
        (int(p.get("data-parameters") or 0), float(p.get("data-value") or 0))
        for p in by_class(root, "circle", "frontier")
    }
    assert front == brute_frontier(sorted(set(plotted)), sign)
    (line,) = by_class(root, "polyline", "frontier")
    assert line.get("data-count") == str(len(front))
    corners = [tuple(map(float, c.split(","))) for c in (line.get("points") or "").split()]
    assert [x for x, _ in corners] == sorted(x for x, _ in corners)  # a step line, left to right
    # the best row of the page: "no size" (99, not plotted) when higher is better, else "f"
    if direction == "higher":
        assert not by_class(root, "circle", "best") and not texts(root, "best-label")
        assert texts(root, "subtitle")[0].startswith("Best: no size, 99 (not plotted) · 6 plotted")
    else:
        (best,) = by_class(root, "circle", "best")
        assert float(best.get("data-value") or 0) == 60.0
        assert "frontier" in (best.get("class") or "")
        assert texts(root, "best-label")[0].endswith("60")
    (label,) = texts(root, "axis-label y")
    assert label == f"Score: {direction} is better (better ↑)"
    assert "log scale" in texts(root, "axis-label x")[0]
    assert texts(root, "title") == ["Bench: Score against parameters"]
    assert texts(root, "not-plotted") == [
        "not plotted: 3 (2 without a parameter count: no size, zero size; 1 without a Score value)"
    ]


def test_the_frontier_is_the_best_for_at_most_that_many_parameters() -> None:
    chart = scatter(payload(ROWS, "higher"))
    assert [(p.model, p.x) for p in chart.frontier] == [
        ("f", 1_000_000),
        ("a", 5_000_000),
        ("b", 20_000_000),  # b and e tie: the first row listed stands for both
        ("d", 300_000_000),
    ]
    lower = scatter(payload(ROWS, "lower"))
    assert [p.model for p in lower.frontier] == ["f"]
    assert lower.best_point and lower.best_point.model == "f"
    assert frontier(chart.points, None) == []


def test_a_metric_of_unknown_direction_is_plotted_without_frontier_or_best() -> None:
    rows = [
        row(r["model_name"], r["metrics"].get("Score"), r["num_parameters"], metric="Widgets")
        for r in ROWS
    ]
    root = parse(document(payload(rows, None, "Widgets")))
    assert len(by_class(root, "circle", "point")) == 6
    assert not by_class(root, "polyline", "frontier") and not by_class(root, "circle", "best")
    assert texts(root, "axis-label y") == ["Widgets (direction unknown)"]
    assert "direction of Widgets is unknown" in texts(root, "subtitle")[0]


def test_the_plotted_metric_is_the_timeline_metric_then_sort_then_the_primary() -> None:
    rows = [{"model_name": "m", "num_parameters": 10, "metrics": {"Score": 1, "Top 5 Accuracy": 9}}]
    data = payload(rows)
    assert scatter(data).metric == "Score"
    sorted_by = resolved(data, sort=("top 5", "desc"))
    assert scatter(data, sorted_by).metric == "Top 5 Accuracy"  # the catalog's spelling
    timeline = {"metric": "Top 5 Accuracy", "direction": "higher", "records": []}
    named = resolved(data, metric="Top 5 Accuracy")
    chart = scatter(data | {"timeline": timeline}, named)
    assert (chart.metric, chart.direction, chart.points[0].y) == ("Top 5 Accuracy", "higher", 9)


HOSTILE = '<script>alert("x")</script> & \x1b[31mred\x07 \u202eevil\ud800 "quoted"'


def test_hostile_text_is_escaped_and_the_document_references_nothing() -> None:
    rows = [row(HOSTILE, 50.0, 1000, paper_title=HOSTILE), row("long " * 200, 40.0, 10)]
    data = payload(rows) | {"benchmark": {"name": HOSTILE}}
    data["timeline"] = {
        "metric": HOSTILE,
        "direction": "higher",
        "records": [{"date": "2020-01-02", "value": 50.0, "model_name": HOSTILE}],
    }
    text = document(data)
    root = parse(text)
    assert "<script" not in text and "\x1b" not in text and "\u202e" not in text
    tags = {e.tag.removeprefix(SVG) for e in root.iter()}
    assert tags <= {"svg", "title", "g", "rect", "text", "line", "polyline", "circle"}
    for element in root.iter():
        for name, value in element.attrib.items():
            assert "href" not in name and not name.startswith("on"), name
            assert "url(" not in value and "javascript:" not in value
    assert any('<script>alert("x")</script>' in t for t in texts(root, "title"))
    assert all(len(t) <= 160 for e in root.iter(SVG + "text") for t in e.itertext())


@pytest.mark.parametrize(
    "value, size",
    [
        (math.nan, 10),
        (math.inf, 10),
        ("nan", 10),
        ("-inf", 10),
        (1e300, 10),
        (True, 10),
        ({"x": 1}, 10),
        (5.0, True),
        (5.0, -3),
        (5.0, 2.5),
        (5.0, "10M"),
    ],
)
def test_hostile_numbers_are_not_plotted(value: Any, size: Any) -> None:
    rows = [row("ok", 1.0, 100), row("bad", value, size)]
    chart = scatter(payload(rows))
    assert [p.model for p in chart.points] == ["ok"]
    assert len(chart.unsized) + chart.unvalued == 1
    parse(document(payload(rows)))


def test_no_plottable_row_still_makes_a_document() -> None:
    root = parse(document(payload([row("x", None, 10), row("y", 3.0, None)])))
    assert not by_class(root, "circle", "point")
    assert "No row on this page has both" in texts(root, "subtitle")[0]
    assert texts(root, "not-plotted") == [
        "not plotted: 2 (1 without a parameter count: y; 1 without a Score value)"
    ]
    parse(document({"results": "not a list", "benchmark": None}))


TIMELINE = {
    "metric": "Test perplexity",
    "direction": "lower",
    "records": [
        {"date": "2014-09-08", "value": 78.4, "model_name": "LSTM", "improvement": None},
        {"date": "2016-07-12", "value": 65.4, "model_name": "RHN", "improvement": 13.0},
        {"date": "2017-08-07", "value": 57.3, "model_name": "AWD-LSTM", "improvement": 8.1},
        {"date": "2020-05-28", "value": 20.5, "model_name": "GPT-3", "improvement": 36.8},
    ],
    "considered": 9,
    "undated": 2,
    "complete": False,
}


def test_the_timeline_panel_draws_every_record_as_a_step_better_up() -> None:
    root = parse(document(payload(ROWS) | {"timeline": TIMELINE}))
    assert root.get("height") == "840"  # the scatter, then the timeline under it
    records = by_class(root, "circle", "record")
    assert [r.get("data-date") for r in records] == [r["date"] for r in TIMELINE["records"]]
    xs = [float(r.get("cx") or 0) for r in records]
    ys = [float(r.get("cy") or 0) for r in records]
    assert xs == sorted(xs) and ys == sorted(ys, reverse=True)  # later, lower: higher up
    (steps,) = by_class(root, "polyline", "steps")
    assert len((steps.get("points") or "").split()) == 2 * len(records)
    assert by_class(root, "circle", "record best") == records[-1:]  # the standing record
    subtitle = texts(root, "subtitle")[1]
    assert "4 records among 9 rows" in subtitle and "2 undated left out" in subtitle
    assert "stopped early" in subtitle
    assert texts(root, "axis-label y")[1] == "Test perplexity: lower is better (better ↑)"


def test_a_payload_without_timeline_has_no_timeline_panel() -> None:
    root = parse(document(payload(ROWS)))
    assert root.get("height") == "480" and not by_class(root, "g", "timeline")


def test_hostile_timeline_records_are_dropped() -> None:
    records = [
        {"date": "2020-13-01", "value": 1.0},
        {"date": "2020-01-01T00:00", "value": 1.0},
        {"date": "2020-01-01", "value": "1.0"},
        {"date": "2020-01-01", "value": math.nan},
        {"date": None, "value": 1.0},
        "not a record",
        {"date": "0001-01-01", "value": 2.0},
        {"date": "9999-12-31", "value": 3.0},
    ]
    timeline = timeline_of(
        {"timeline": {"metric": "M", "direction": "sideways", "records": records}}
    )
    assert timeline and [r.value for r in timeline.records] == [2.0, 3.0]
    assert timeline.direction is None
    parse(document(payload(ROWS) | {"timeline": {"metric": "M", "records": records}}))


@pytest.mark.parametrize("width", [30, 60, 80, 100, 300])
def test_the_step_chart_is_a_few_lines_within_the_terminal_width(width: int) -> None:
    chart = step_chart(timeline_of({"timeline": TIMELINE}), width)
    lines = chart.splitlines()
    assert len(lines) == HEIGHT + 3
    assert all(display_width(line) <= min(width, 100) for line in lines)
    assert lines[0].split()[0] == "20.5" and lines[HEIGHT - 1].split()[0] == "78.4"  # best on top
    columns = [line.split("┤")[-1].split("│")[-1] for line in lines[:HEIGHT]]
    assert columns[0].endswith("█") and columns[-1].startswith("▁")  # the first record is lowest
    assert "lower is better" in lines[-1] and "\x1b" not in chart
    levels = [sum(" ▁▂▃▄▅▆▇█".index(c[i]) for c in columns) for i in range(len(columns[-1]))]
    assert levels == sorted(levels)  # a record only ever improves: the steps only rise


def test_no_step_chart_without_room_records_or_a_terminal() -> None:
    timeline = timeline_of({"timeline": TIMELINE})
    assert step_chart(timeline, 12) == ""
    one = timeline_of({"timeline": TIMELINE | {"records": TIMELINE["records"][:1]}})
    assert step_chart(one, 80) == ""
    assert step_chart(None, 80) == ""
    assert terminal_steps({"timeline": TIMELINE}, None) == ""
    assert terminal_steps({"timeline": TIMELINE}, Terminal(80)) == step_chart(timeline, 80)
