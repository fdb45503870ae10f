"""The two panels of the SVG chart, each a `<g>` of markup for a box `width` x `height`, drawn
from the chart model (pwc_core.chart): the scatter (the metric against parameter count on a log
scale, or a Pareto request's two objectives; the frontier as steps, the best point highlighted)
and the SOTA-over-time step chart. Better is always up (and left); the axis labels say which
way is better."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from pwc_cli.charts.markup import clean, element, text_node
from pwc_cli.charts.scales import Dates, Scale, number, parameters
from pwc_core.chart import Point, Scatter, Timeline
from pwc_core.metrics import PARAMETERS

INK, MUTED, GRID, FRAME = "#1f2328", "#59636e", "#e6e8eb", "#c9ced4"
POINT, FRONTIER, BEST = "#3b6fb6", "#c2410c", "#b91c1c"
NAMES_LISTED = 2


@dataclass(frozen=True)
class Box:
    """The plotting area inside a panel."""

    left: float
    top: float
    right: float
    bottom: float


def _box(width: int, height: int) -> Box:
    return Box(left=84, top=70, right=width - 28, bottom=height - 80)


def _text(x: float, y: float, value: str, cls: str, **attrs: object) -> str:
    base: dict[str, object] = {"class": cls, "x": float(x), "y": float(y), "fill": INK}
    return element("text", base | attrs, text_node(value, 160))


def _star(x: float, y: float, box: Box, model: str, value: float, cls: str, gap: int) -> str:
    """The label of the best point, on the side of it with more room."""
    left = x > (box.left + box.right) / 2
    return _text(
        x - gap if left else x + gap,
        y,
        f"★ {clean(model, 40)} {number(value)}",
        cls,
        text_anchor="end" if left else "start",
        font_weight="bold",
        fill=BEST,
    )


def _heading(title: str, subtitle: str, box: Box) -> list[str]:
    return [
        _text(box.left, 28, title, "title", font_size=16, font_weight="bold"),
        _text(box.left, 50, subtitle, "subtitle", fill=MUTED),
    ]


def _frame(box: Box) -> str:
    return element(
        "rect",
        {
            "class": "plot-area",
            "x": float(box.left),
            "y": float(box.top),
            "width": float(box.right - box.left),
            "height": float(box.bottom - box.top),
            "fill": "#fbfbfc",
            "stroke": FRAME,
        },
    )


def direction_words(metric: str, direction: str | None) -> str:
    if direction is None:
        return f"{clean(metric, 60)} (direction unknown)"
    return f"{clean(metric, 60)}: {direction} is better (better ↑)"


def _grid(axis: str, x1: float, x2: float, y1: float, y2: float) -> str:
    attrs = {"class": f"grid {axis}", "x1": x1, "x2": x2, "y1": y1, "y2": y2, "stroke": GRID}
    return element("line", attrs)


def _y_axis(label: str, ticks: Sequence[tuple[float, str]], box: Box) -> list[str]:
    parts = []
    for y, text in ticks:
        parts.append(_grid("y", box.left, box.right, y, y))
        parts.append(_text(box.left - 8, y + 4, text, "tick y", text_anchor="end", fill=MUTED))
    middle = (box.top + box.bottom) / 2
    parts.append(
        _text(
            22,
            middle,
            label,
            "axis-label y",
            text_anchor="middle",
            transform=f"rotate(-90 22 {middle:.2f})",
        )
    )
    return parts


def _x_axis(label: str, ticks: Sequence[tuple[float, str]], box: Box) -> list[str]:
    parts = []
    for x, text in ticks:
        parts.append(_grid("x", x, x, box.top, box.bottom))
        parts.append(_text(x, box.bottom + 18, text, "tick x", text_anchor="middle", fill=MUTED))
    middle = (box.left + box.right) / 2
    parts.append(_text(middle, box.bottom + 42, label, "axis-label x", text_anchor="middle"))
    return parts


def _polyline(corners: Sequence[tuple[float, float]]) -> str:
    return " ".join(f"{x:.2f},{y:.2f}" for x, y in corners)


def _sized(chart: Scatter) -> bool:
    return chart.x.metric == PARAMETERS


def _x_value(chart: Scatter, value: float) -> str:
    return (
        f"{parameters(value)} parameters"
        if _sized(chart)
        else f"{clean(chart.x.metric, 40)} {number(value)}"
    )


def _x_missing(chart: Scatter) -> str:
    """What a row without an x value lacks."""
    return "a parameter count" if _sized(chart) else f"a {clean(chart.x.metric, 40)} value"


def _not_plotted(chart: Scatter) -> str:
    parts = []
    if chart.unsized:
        names = ", ".join(clean(n, 28) for n in chart.unsized[:NAMES_LISTED])
        more = ", …" if len(chart.unsized) > NAMES_LISTED else ""
        parts.append(f"{len(chart.unsized)} without {_x_missing(chart)}: {names}{more}")
    if chart.unvalued:
        parts.append(f"{chart.unvalued} without a {clean(chart.metric or 'metric', 40)} value")
    total = len(chart.unsized) + chart.unvalued
    return f"not plotted: {total} ({'; '.join(parts)})" if parts else ""


def _scatter_subtitle(chart: Scatter) -> str:
    plotted = f"{len(chart.points)} plotted"
    line = "line: the best up to each size"
    if chart.pareto:
        line = (
            "line: the request's Pareto front"
            if chart.stepped
            else "all on the request's Pareto front"
        )
    best = chart.best_point
    if not chart.points:
        metric = clean(chart.metric or "metric", 40)
        return f"No row on this page has both a {metric} value and {_x_missing(chart)}"
    if best is not None:
        return (
            f"Best: {clean(best.model, 50)}, {number(best.y)} with {_x_value(chart, best.x)}"
            f" · {plotted} · {line}"
        )
    if chart.leader is not None:
        model, value = chart.leader
        return f"Best: {clean(model, 50)}, {number(value)} (not plotted) · {plotted} · {line}"
    return f"{plotted} · no frontier: the direction of {clean(chart.metric, 40)} is unknown"


def _point(chart: Scatter, point: Point, x: float, y: float) -> str:
    on_front = point in chart.frontier
    best = point.index == chart.best
    cls = "point" + (" frontier" if on_front else "") + (" best" if best else "")
    tip = " · ".join(
        p
        for p in (
            clean(point.model, 80),
            f"{clean(chart.metric, 40)} {number(point.y)}",
            _x_value(chart, point.x),
            clean(point.date, 10),
            clean(point.paper, 100),
        )
        if p
    )
    where: dict[str, object] = (
        {"data_parameters": int(point.x)} if _sized(chart) else {"data_x": repr(point.x)}
    )
    return element(
        "circle",
        {
            "class": cls,
            "cx": x,
            "cy": y,
            "r": 7 if best else 4.5,
            "fill": BEST if best else (FRONTIER if on_front else POINT),
            "fill-opacity": 1 if on_front else 0.75,
            "stroke": "#fff",
            "stroke-width": 1.5,
            "data_model": clean(point.model, 120),
            "data_value": repr(point.y),
            **where,
        },
        element("title", {}, text_node(tip, 300)),
    )


def _x_label(chart: Scatter) -> str:
    if _sized(chart):
        return "Parameters (log scale; fewer is cheaper ←)"
    scale = "; log scale" if chart.x.scale == "log" else ""
    if chart.x.direction is None:
        return f"{clean(chart.x.metric, 60)} (direction unknown{scale})"
    return f"{clean(chart.x.metric, 60)}: {chart.x.direction} is better (better ←{scale})"


def scatter_panel(chart: Scatter, name: str, width: int, height: int) -> str:
    box = _box(width, height)
    metric = chart.metric or "metric"
    against = "parameters" if _sized(chart) else clean(chart.x.metric, 40)
    parts = _heading(
        f"{name}: {clean(metric, 60)} against {against}", _scatter_subtitle(chart), box
    )
    parts.append(_frame(box))
    note = _not_plotted(chart)
    if note:
        parts.append(_text(box.left, height - 12, note, "not-plotted", fill=MUTED, font_size=11))
    if not chart.points:
        return element("g", {"class": "scatter"}, "".join(parts))
    ys = Scale(chart.y, box.bottom, box.top)
    xs = Scale(chart.x, box.left, box.right)
    parts += _y_axis(
        direction_words(metric, chart.direction), [(ys(v), t) for v, t in ys.ticks()], box
    )
    parts += _x_axis(_x_label(chart), [(xs(v), t) for v, t in xs.ticks()], box)
    steps = chart.steps()
    if steps:
        parts.append(
            element(
                "polyline",
                {
                    "class": "frontier",
                    "points": _polyline([(xs(x), ys(y)) for x, y in steps]),
                    "fill": "none",
                    "stroke": FRONTIER,
                    "stroke-width": 2,
                    "data_count": len(chart.frontier),
                },
            )
        )
    # the best point last, so nothing covers it
    for point in sorted(chart.points, key=lambda p: (p.index == chart.best, p in chart.frontier)):
        parts.append(_point(chart, point, xs(point.x), ys(point.y)))
    top = chart.best_point
    if top is not None:
        x, y = xs(top.x), ys(top.y)
        below = y + 4 if y > box.top + 14 else y + 18
        parts.append(_star(x, below, box, top.model, top.y, "best-label", 11))
    return element("g", {"class": "scatter"}, "".join(parts))


def _timeline_subtitle(timeline: Timeline) -> str:
    count = len(timeline.records)
    said = f"{count} record{'s' if count != 1 else ''}"
    if timeline.considered is not None:
        said += f" among {timeline.considered:,} rows reporting {clean(timeline.metric, 40)}"
    if timeline.undated:
        said += f"; {timeline.undated:,} undated left out"
    if not timeline.complete:
        said += "; the scan stopped early, so later records may be missing"
    return said


def timeline_panel(timeline: Timeline, name: str, width: int, height: int) -> str:
    box = _box(width, height)
    parts = _heading(
        f"{name}: state of the art over time ({clean(timeline.metric, 60)})",
        _timeline_subtitle(timeline),
        box,
    )
    parts.append(_frame(box))
    records = timeline.records
    if not records:
        return element("g", {"class": "timeline"}, "".join(parts))
    assert timeline.x is not None  # there are records
    ys = Scale(timeline.y, box.bottom, box.top)
    xs = Dates(timeline.x, box.left, box.right)
    parts += _y_axis(
        direction_words(timeline.metric, timeline.direction),
        [(ys(v), t) for v, t in ys.ticks()],
        box,
    )
    parts += _x_axis("Publication date", [(xs(d), t) for d, t in xs.ticks()], box)
    corners = [(xs(r.date), ys(r.value)) for r in records]
    parts.append(
        element(
            "polyline",
            {
                "class": "steps",
                "points": _polyline([(xs(day), ys(value)) for day, value in timeline.steps()]),
                "fill": "none",
                "stroke": FRONTIER,
                "stroke-width": 2,
            },
        )
    )
    for record, (x, y) in zip(records, corners, strict=True):
        tip = " · ".join(
            p
            for p in (
                clean(record.model, 80),
                f"{clean(timeline.metric, 40)} {number(record.value)}",
                record.date.isoformat(),
                clean(record.paper, 100),
            )
            if p
        )
        last = record is records[-1]
        parts.append(
            element(
                "circle",
                {
                    "class": "record" + (" best" if last else ""),
                    "cx": x,
                    "cy": y,
                    "r": 6 if last else 4.5,
                    "fill": BEST if last else FRONTIER,
                    "stroke": "#fff",
                    "stroke-width": 1.5,
                    "data_date": record.date.isoformat(),
                    "data_value": repr(record.value),
                    "data_model": clean(record.model, 120),
                },
                element("title", {}, text_node(tip, 300)),
            )
        )
    x, y = corners[-1]
    above = y - 10 if y > box.top + 20 else y + 20
    parts.append(_star(x, above, box, records[-1].model, records[-1].value, "record-label", 10))
    return element("g", {"class": "timeline"}, "".join(parts))
