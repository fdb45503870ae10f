"""The chart model as plain JSON: get_benchmark's `chart` field, what the leaderboard app
(pwc_mcp/ui/*.js) draws and nothing it would have to work out itself: both axes with
their domains, directions, orientation and ticks; each plotted row (its position in the page's
rows, label, x, y, whether it is on the frontier); the frontier in drawing order and its steps;
the best row; the timeline's axes, its steps and which of the payload's timeline records it
draws (by position: the records themselves are the payload's, not repeated). Its size is
bounded by the rows and timeline records the payload holds, and every label is clipped.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pwc_core.chart import Timeline, scatter, timeline_of
from pwc_core.chart_axes import Axis
from pwc_core.selection import Selection

LABEL = 120  # characters of a model name or paper title


def _clip(text: str) -> str:
    return text if len(text) <= LABEL else text[: LABEL - 1] + "…"


def _axis(axis: Axis) -> dict[str, Any]:
    return {
        "metric": axis.metric,
        "direction": axis.direction,
        "scale": axis.scale,
        "reversed": axis.reversed,
        "low": axis.low,
        "high": axis.high,
        "ticks": [[value, label] for value, label in axis.ticks],
    }


def _timeline(timeline: Timeline) -> dict[str, Any]:
    dates = timeline.x
    return {
        "y": _axis(timeline.y),
        "x": None
        if dates is None
        else {
            "low": dates.low.isoformat(),
            "high": dates.high.isoformat(),
            "ticks": [[day.isoformat(), label] for day, label in dates.ticks],
        },
        # each drawn record by its position in the payload's timeline.records, oldest first:
        # the record itself (date, value, model, paper, counts) is there, sent once (issue #36)
        "rows": [r.source for r in timeline.records],
        "steps": [[day.isoformat(), value] for day, value in timeline.steps()],
    }


def to_json(payload: Mapping[str, Any], asked: Selection | None = None) -> dict[str, Any]:
    """The whole chart as plain JSON: one point per plotted row of the payload (so its size is
    bounded by the rows the payload holds), the timeline's records by their position in it."""
    chart = scatter(payload, asked)
    front = {p.index for p in chart.frontier}
    drawn: dict[str, Any] = {
        "scatter": {
            "x": _axis(chart.x),
            "y": _axis(chart.y),
            "points": [
                {
                    "row": p.index,
                    "label": _clip(p.model),
                    "x": p.x,
                    "y": p.y,
                    "on_front": p.index in front,
                }
                for p in chart.points
            ],
            "frontier": [p.index for p in chart.frontier],
            "steps": [[x, y] for x, y in chart.steps()],
            "pareto": chart.pareto,
            "best": chart.best,
            "unsized": len(chart.unsized),
            "unvalued": chart.unvalued,
        }
    }
    timeline = timeline_of(payload)
    if timeline is not None:
        drawn["timeline"] = _timeline(timeline)
    return drawn
