"""What a chart shows, from a leaderboard payload: the metric and its direction, the points
(rows with a parameter count and a finite value), the Pareto frontier over (fewer parameters,
better metric), the best point, what was left out, and the timeline's dated records.

The scatter plots the metric the user named: `--metric` (the timeline's metric) when given,
else the `--sort` metric, else the main task scope's primary metric. Pure; no I/O.
"""

from __future__ import annotations

import argparse
import datetime as dt
import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from pwc_core.errors import AmbiguousError
from pwc_core.leaderboard import metric_direction
from pwc_core.metrics import available_metrics, match_metric, metric_value
from pwc_core.scopes import primary_metric

MAX_RECORDS = 1000  # a timeline never holds more rows than a bounded scan reads
LARGEST = 1e12  # a larger metric value is not a measurement: left out, not plotted


@dataclass(frozen=True)
class Point:
    """One plotted row: its parameter count, its metric value and what its tooltip says."""

    parameters: int
    value: float
    model: str
    paper: str
    date: str
    index: int  # its position in the payload's rows: a stable tie-break


@dataclass(frozen=True)
class Scatter:
    metric: str | None
    direction: str | None  # "higher", "lower", or None when the metric's name does not say
    points: list[Point]
    frontier: list[Point]  # fewest parameters first; each strictly better than the one before
    best: Point | None
    unsized: list[str]  # model names of rows with the metric but no parameter count
    unvalued: int  # rows without a (finite) value of the metric


@dataclass(frozen=True)
class Record:
    date: dt.date
    value: float
    model: str
    paper: str


@dataclass(frozen=True)
class Timeline:
    metric: str
    direction: str | None
    records: list[Record]  # oldest first
    considered: int | None
    undated: int | None
    complete: bool


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
    for item in (raw.get("records") or [])[:MAX_RECORDS]:
        if not isinstance(item, dict):
            continue
        value = _finite(metric_number(item.get("value")))
        date = _date(item.get("date"))
        if value is not None and date is not None:
            records.append(
                Record(date, value, _text(item.get("model_name")), _text(item.get("paper_title")))
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


def chosen_metric(payload: Mapping[str, Any], args: argparse.Namespace | None) -> str | None:
    """The catalog's spelling of the metric to plot (see the module docstring)."""
    rows = rows_of(payload)
    timeline = _timeline_head(payload)
    asked = getattr(args, "metric", None)
    if asked and timeline is not None:
        return timeline[0]
    sort = getattr(args, "sort_metric", None)
    for request in (asked, sort[0] if sort else None):
        if isinstance(request, str) and request.strip():
            try:
                found = match_metric(request, available_metrics(rows))
            except AmbiguousError:  # the handler refuses it first; a chart never guesses
                found = None
            return found or request.strip()
    scopes = [s for s in payload.get("task_scopes") or [] if isinstance(s, dict)]
    main = next((s for s in scopes if s.get("main")), scopes[0] if scopes else None)
    if main and isinstance(main.get("primary_metric"), str):
        return str(main["primary_metric"])
    if timeline is not None:
        return timeline[0]
    return primary_metric(rows)


def direction_of(metric: str, payload: Mapping[str, Any]) -> str | None:
    timeline = _timeline_head(payload)
    if timeline is not None and timeline[0] == metric and timeline[1]:
        return timeline[1]
    known = payload.get("metric_directions")
    if isinstance(known, dict) and known.get(metric) in ("higher", "lower"):
        return str(known[metric])
    return metric_direction(metric)


def frontier(points: list[Point], direction: str | None) -> list[Point]:
    """Best value for at most that many parameters: fewest parameters first, each point strictly
    better than every point with as many parameters or fewer."""
    if direction is None:
        return []
    sign = better(direction)
    ordered = sorted(points, key=lambda p: (p.parameters, -sign * p.value, p.index))
    kept: list[Point] = []
    for point in ordered:
        if not kept or sign * point.value > sign * kept[-1].value:
            kept.append(point)
    return kept


def scatter(payload: Mapping[str, Any], args: argparse.Namespace | None = None) -> Scatter:
    metric = chosen_metric(payload, args)
    direction = direction_of(metric, payload) if metric else None
    points: list[Point] = []
    unsized: list[str] = []
    unvalued = 0
    for index, row in enumerate(rows_of(payload)):
        value = _finite(metric_value(row, metric)) if metric else None
        if value is None:
            unvalued += 1
            continue
        size = _size(row.get("num_parameters"))
        if size is None:
            unsized.append(_text(row.get("model_name")) or "unnamed")
            continue
        points.append(
            Point(
                parameters=size,
                value=value,
                model=_text(row.get("model_name")) or "unnamed",
                paper=_text(row.get("paper_title")),
                date=_text(row.get("paper_published_date")),
                index=index,
            )
        )
    front = frontier(points, direction)
    return Scatter(
        metric=metric,
        direction=direction,
        points=points,
        frontier=front,
        best=front[-1] if front else None,
        unsized=unsized,
        unvalued=unvalued,
    )
