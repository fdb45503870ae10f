"""Chart test helpers: the SVG namespace, elements by class, their text, the Pareto frontier
computed the slow, obvious way to compare the chart's against, and a request resolved the way
the handler resolves it."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Mapping
from typing import Any

from pwc_core.metrics import BoardMetrics, available_metrics
from pwc_core.selection import Selection, Sort, criteria

SVG = "{http://www.w3.org/2000/svg}"


def by_class(root: ET.Element, tag: str, cls: str) -> list[ET.Element]:
    """Elements of `tag` that have every class of `cls`."""
    wanted = set(cls.split())
    return [e for e in root.iter(SVG + tag) if wanted <= set((e.get("class") or "").split())]


def texts(root: ET.Element, cls: str) -> list[str]:
    return ["".join(e.itertext()) for e in by_class(root, "text", cls)]


def brute_frontier(points: list[tuple[int, float]], sign: float) -> set[tuple[int, float]]:
    """Points strictly better than every other point with as many parameters or fewer."""
    return {
        (p, v)
        for p, v in points
        if all(sign * v > sign * w for q, w in points if q <= p and (q, w) != (p, v))
    }


def resolved(
    payload: Mapping[str, Any],
    *objectives: str,
    sort: Sort | None = None,
    metric: str | None = None,
) -> Selection:
    """The `Selection` the handler would carry for Pareto `objectives` ("NAME:higher") and a
    `sort`, their names matched against the payload's rows (the whole board, here); `metric`
    is the timeline's, already in the board's spelling."""
    rows = [r for r in payload.get("results") or [] if isinstance(r, dict)]
    pareto = [(name, way) for name, _, way in (o.rpartition(":") for o in objectives)]
    chosen = criteria(BoardMetrics(available_metrics(rows)), sort=sort, pareto=pareto)
    return Selection(page=1, limit=max(len(rows), 1), selecting=True, metric=metric, chosen=chosen)
