"""What a chart of a leaderboard shows, computed once from the payload and the request: the
scatter's two axes, its points, the frontier and the best row, and the timeline's records and
steps. The `--chart` SVG and the terminal step chart (pwc_cli/charts) draw it; so does the
leaderboard app, from `to_json` in get_benchmark's structured content. The request is the
handler's `Selection`: its names are the board's, never matched again here. Pure; no I/O.

The scatter: with a Pareto request, its first two objectives in their stated directions (the
parameter count, if one, on x), and the frontier is the rows the handler returned, all of them
(never a second computation). Otherwise the metric the user named (`--metric`, the timeline's,
else the `--sort` metric, else the main task scope's primary metric) against the parameter
count, with the frontier over (fewer parameters, better metric). Axes: pwc_core/chart_axes.py.
"""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from pwc_core.chart_axes import Axis, DateAxis, axis_for, date_axis
from pwc_core.leaderboard import metric_direction
from pwc_core.metrics import PARAMETERS, metric_value
from pwc_core.scopes import primary_metric
from pwc_core.selection import Selection

MAX_RECORDS = 1000  # a timeline never holds more rows than a bounded scan reads
LARGEST = 1e12  # a larger metric value is not a measurement: left out, not plotted
X = TypeVar("X", float, dt.date)


@dataclass(frozen=True)
class Point:
    """One plotted row: its two values and what its tooltip says."""

    x: float
    y: float
    model: str
    paper: str
    date: str
    index: int  # its position in the payload's rows: its identity, and a stable tie-break


@dataclass(frozen=True)
class Scatter:
    x: Axis
    y: Axis
    points: list[Point]  # in row order
    frontier: list[Point]  # drawing order: better x first, each better in y than the one before
    stepped: bool  # the frontier is a staircase in these two axes (two objectives, or size)
    pareto: bool  # the frontier is the handler's Pareto front (else the size frontier)
    best: int | None  # the row with the best y value (any row of the page), None if unknown
    leader: tuple[str, float] | None  # that row's model name and y value
    unsized: list[str]  # model names of rows with a y value but no x value
    unvalued: int  # rows without a (finite) y value

    @property
    def metric(self) -> str | None:
        return self.y.metric

    @property
    def direction(self) -> str | None:
        return self.y.direction

    @property
    def best_point(self) -> Point | None:
        return next((p for p in self.points if p.index == self.best), None)

    def steps(self) -> list[tuple[float, float]]:
        """The frontier's corners, held level to the axis' worse end after the last."""
        if not self.stepped:
            return []
        end = self.x.low if self.x.reversed else self.x.high
        return staircase([(p.x, p.y) for p in self.frontier], end)


@dataclass(frozen=True)
class Record:
    date: dt.date
    value: float
    model: str
    paper: str
    arxiv: str = ""
    improvement: float | None = None  # over the record before (the handler's figure)
    source: int = 0  # its position in the payload's timeline.records


@dataclass(frozen=True)
class Timeline:
    metric: str
    direction: str | None
    records: list[Record]  # oldest first
    considered: int | None
    undated: int | None
    complete: bool
    y: Axis
    x: DateAxis | None  # None without records

    def steps(self) -> list[tuple[dt.date, float]]:
        """Each record's corner, held level to the date axis' end after the last."""
        if self.x is None:
            return []
        return staircase([(r.date, r.value) for r in self.records], self.x.high)


def staircase(corners: Sequence[tuple[X, float]], end: X) -> list[tuple[X, float]]:
    """A step line through `corners` (in drawing order): across, then up or down to each."""
    path: list[tuple[X, float]] = []
    for x, y in corners:
        if path:
            path.append((x, path[-1][1]))
        path.append((x, y))
    if path:
        path.append((end, path[-1][1]))
    return path


def _text(value: Any) -> str:
    return "" if value is None else str(value)


def _size(value: Any) -> int | None:
    ok = isinstance(value, int) and not isinstance(value, bool) and value > 0
    return value if ok else None


def _finite(value: float | None) -> float | None:
    return value if value is not None and math.isfinite(value) and abs(value) <= LARGEST else None


def _count(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else None


def better(direction: str | None) -> float:
    """+1 when larger values are better (or the direction is unknown), -1 when smaller are."""
    return -1.0 if direction == "lower" else 1.0


def rows_of(payload: Mapping[str, Any]) -> list[dict[str, Any]]:
    return [r for r in payload.get("results") or [] if isinstance(r, dict)]


def _timeline_head(payload: Mapping[str, Any]) -> tuple[str, str | None] | None:
    """(metric, direction) of the payload's timeline, without reading its records."""
    raw = payload.get("timeline")
    if not isinstance(raw, dict) or not isinstance(raw.get("metric"), str):
        return None
    direction = raw.get("direction")
    return raw["metric"], direction if direction in ("higher", "lower") else None


def timeline_of(payload: Mapping[str, Any]) -> Timeline | None:
    """The payload's `timeline` (see the contract in README "Charts"), hostile values dropped."""
    head = _timeline_head(payload)
    if head is None:
        return None
    raw = payload["timeline"]
    records: list[Record] = []
    for source, item in enumerate((raw.get("records") or [])[:MAX_RECORDS]):
        if not isinstance(item, dict):
            continue
        value = _finite(metric_number(item.get("value")))
        date = _date(item.get("date"))
        if value is not None and date is not None:
            records.append(
                Record(
                    date,
                    value,
                    _text(item.get("model_name")),
                    _text(item.get("paper_title")),
                    _text(item.get("paper_arxiv_id")),
                    _finite(metric_number(item.get("improvement"))),
                    source,
                )
            )
    records.sort(key=lambda r: r.date)
    metric, direction = head
    return Timeline(
        metric=metric,
        direction=direction,
        records=records,
        considered=_count(raw.get("considered")),
        undated=_count(raw.get("undated")),
        complete=raw.get("complete") is not False,
        y=axis_for(metric, direction, [r.value for r in records], "y"),
        x=date_axis([r.date for r in records]) if records else None,
    )


def metric_number(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value)


def _date(value: Any) -> dt.date | None:
    if not isinstance(value, str) or len(value) != 10:
        return None
    try:
        return dt.date.fromisoformat(value)
    except ValueError:
        return None


def chosen_metric(payload: Mapping[str, Any], asked: Selection | None) -> str | None:
    """The catalog's spelling of the metric to plot against size (see the module docstring):
    the handler resolved a named one over the whole board (a page's rows may not report it)."""
    if asked is not None and asked.metric:
        return asked.metric
    if asked is not None and asked.sort:
        return asked.sort[0]
    timeline = _timeline_head(payload)
    scopes = [s for s in payload.get("task_scopes") or [] if isinstance(s, dict)]
    main = next((s for s in scopes if s.get("main")), scopes[0] if scopes else None)
    if main and isinstance(main.get("primary_metric"), str):
        return str(main["primary_metric"])
    if timeline is not None:
        return timeline[0]
    return primary_metric(rows_of(payload))


def _sorted_by(payload: Mapping[str, Any]) -> tuple[str, str | None] | None:
    """The sort metric and its direction as the handler decided them over the whole board (a
    page's rows may not even report the metric: rows without it sort last)."""
    order = payload.get("ordering")
    if not isinstance(order, dict) or order.get("by") != "sort":
        return None
    metric, direction = order.get("metric"), order.get("direction")
    if not isinstance(metric, str) or not metric:
        return None
    return metric, direction if direction in ("higher", "lower") else None


def direction_of(metric: str, payload: Mapping[str, Any]) -> str | None:
    timeline = _timeline_head(payload)
    if timeline is not None and timeline[0] == metric and timeline[1]:
        return timeline[1]
    sorted_by = _sorted_by(payload)
    if sorted_by is not None and sorted_by[0] == metric and sorted_by[1]:
        return sorted_by[1]
    known = payload.get("metric_directions")
    if isinstance(known, dict) and known.get(metric) in ("higher", "lower"):
        return str(known[metric])
    return metric_direction(metric)


def _order(point: Point, x_direction: str | None, y_direction: str | None) -> tuple[float, ...]:
    """Drawing order: better x first (fewer parameters), then better y, then row order."""
    return (better(x_direction) * -point.x, better(y_direction) * -point.y, point.index)


def frontier(points: list[Point], direction: str | None) -> list[Point]:
    """Best value for at most that many parameters: fewest parameters first, each point strictly
    better than every point with as many parameters or fewer."""
    if direction is None:
        return []
    sign = better(direction)
    kept: list[Point] = []
    for point in sorted(points, key=lambda p: _order(p, "lower", direction)):
        if not kept or sign * point.y > sign * kept[-1].y:
            kept.append(point)
    return kept


Objective = tuple[str | None, str | None]  # (metric, direction)


def _axes(payload: Mapping[str, Any], asked: Selection | None) -> tuple[Objective, Objective]:
    """(y, x): a Pareto request's first objective that is not the parameter count on y, and the
    parameter count (else its next objective) on x; else the chosen metric against the
    parameter count, fewer being better."""
    objectives: list[Objective] = list(asked.pareto if asked else ())
    if len(objectives) >= 2:
        y = next((o for o in objectives if o[0] != PARAMETERS), objectives[0])
        sized = [o for o in objectives if o[0] == PARAMETERS and o != y]
        return y, sized[0] if sized else next(o for o in objectives if o != y)
    metric = chosen_metric(payload, asked)
    return (metric, direction_of(metric, payload) if metric else None), (PARAMETERS, "lower")


def _best(
    rows: list[dict[str, Any]], metric: str | None, direction: str | None
) -> tuple[int, str, float] | None:
    """The page's best row by `metric` (the first of equals, in the leaderboard's order): its
    position, model name and value."""
    if metric is None or direction is None:
        return None
    sign = better(direction)
    found: tuple[int, str, float] | None = None
    for index, row in enumerate(rows):
        value = _finite(metric_value(row, metric))
        if value is not None and (found is None or sign * value > sign * found[2]):
            found = (index, _text(row.get("model_name")) or "unnamed", value)
    return found


def scatter(payload: Mapping[str, Any], asked: Selection | None = None) -> Scatter:
    """The scatter of the payload's rows for the request the handler resolved (`asked`)."""
    (metric, direction), (x_metric, x_direction) = _axes(payload, asked)
    objectives = asked.pareto if asked else ()
    pareto = len(objectives) >= 2
    size = x_metric == PARAMETERS
    points: list[Point] = []
    unsized: list[str] = []
    unvalued = 0
    rows = rows_of(payload)
    for index, row in enumerate(rows):
        y = _finite(metric_value(row, metric)) if metric else None
        if y is None:
            unvalued += 1
            continue
        x: float | None
        if pareto:  # read as the handler read it (a catalog metric named Parameters wins)
            x = _finite(metric_value(row, x_metric)) if x_metric else None
        else:
            count = _size(row.get("num_parameters"))
            x = None if count is None else float(count)
        if x is None:
            unsized.append(_text(row.get("model_name")) or "unnamed")
            continue
        points.append(
            Point(
                x=x,
                y=y,
                model=_text(row.get("model_name")) or "unnamed",
                paper=_text(row.get("paper_title")),
                date=_text(row.get("paper_published_date")),
                index=index,
            )
        )
    if pareto:
        front = sorted(points, key=lambda p: _order(p, x_direction, direction))
    else:
        front = frontier(points, direction)
    best = _best(rows, metric, direction)
    return Scatter(
        x=axis_for(x_metric, x_direction, [p.x for p in points], "x", size=size),
        y=axis_for(metric, direction, [p.y for p in points], "y"),
        points=points,
        frontier=front,
        stepped=not pareto or len(objectives) == 2,
        pareto=pareto,
        best=None if best is None else best[0],
        leader=None if best is None else best[1:],
        unsized=unsized,
        unvalued=unvalued,
    )
