"""SOTA over time: the running best of one metric of a leaderboard, by paper publication date.

`benchmark --name NAME --timeline [--metric METRIC]` (README.md#sota-over-time).
The rows are the leaderboard's merged rows after every other filter; the metric is the named
one (matched like every metric flag) or the primary metric of the benchmark's main task scope.
A row sets a record when it is strictly better, in the metric's direction, than every dated row
published before it; rows without a valid publication date are counted and left out, never
guessed. Pure functions over evaluation rows; no I/O.
"""

from __future__ import annotations

import argparse
import datetime as dt
import math
import re
from collections.abc import Sequence
from decimal import Decimal
from typing import Any

from pwc_core.directions import NAME_ONLY, Directions
from pwc_core.errors import UsageError
from pwc_core.metrics import BoardMetrics, available_metrics, catalog_metrics, metric_value
from pwc_core.scopes import primary_metric, scopes_of
from pwc_core.wording import Option, Words

_DATE = re.compile(r"^(\d{4}-\d{2}-\d{2})(?:$|[T ])")
DATE_LENGTH = 64  # a publication date longer than this is no date
TIMELINE, METRIC = Option("--timeline"), Option("--metric")


def check_flags(args: argparse.Namespace) -> None:
    """`--metric` needs `--timeline`; `--timeline` refuses `--sort` and `--pareto`."""
    timeline = bool(getattr(args, "timeline", False))
    if getattr(args, "metric", None) is not None and not timeline:
        on = Option("--timeline", True, cli="--timeline")
        raise UsageError(Words("{} is only valid with {}", METRIC, on))
    if timeline and getattr(args, "pareto", None):
        raise UsageError(
            Words(
                "{} cannot be combined with {}: the frontier drops past records that later "
                "rows beat; ask for one or the other",
                TIMELINE,
                Option("--pareto"),
            )
        )
    if timeline and getattr(args, "sort_metric", None):
        raise UsageError(
            Words(
                "{} cannot be combined with {}: records are ordered by publication date; name "
                "the timeline's metric with {}",
                TIMELINE,
                Option("--sort"),
                METRIC,
            )
        )


def publication_date(row: dict[str, Any]) -> str | None:
    """The row's `paper_published_date` as `YYYY-MM-DD` when it is a real calendar date (a
    timestamp is cut to its day); None for a missing or invalid one."""
    value = row.get("paper_published_date")
    if not isinstance(value, str) or len(value) > DATE_LENGTH:
        return None
    match = _DATE.match(value.strip())
    if match is None:
        return None
    try:
        return dt.date.fromisoformat(match.group(1)).isoformat()
    except ValueError:
        return None


def timeline_metric(
    rows: Sequence[dict[str, Any]],
    main_task: str | None,
    request: str | None,
    directions: Directions | None = None,
    names: BoardMetrics | None = None,
) -> tuple[str, str] | None:
    """(metric, direction) of the timeline: `request` resolved against the rows' metrics, else
    the primary metric of the main task scope. None when the rows report no metric at all.
    The direction is the board's (stated, name or ranks: pwc_core.directions). An unknown or
    ambiguous name, or a metric whose direction is unknown, is a usage error. `names`: the
    board's metric names (else the rows'), which match each name once."""
    if request is not None:
        if not request.strip():
            raise UsageError(Words("{} must name a metric", METRIC))
        names = names or BoardMetrics(available_metrics(rows))
        name = names.resolve([("metric", request)])[request.strip().casefold()]
    else:
        main = [r for r in rows if _text(scopes_of(r)[0].get("task_id")) == (main_task or "")]
        primary = primary_metric(main or rows)
        if primary is None:
            return None
        name = primary

    def direction_of(metric: str) -> str | None:
        return (directions or NAME_ONLY).of(metric)

    direction = direction_of(name)
    if direction is None:
        known = sorted((n for n in catalog_metrics(rows) if direction_of(n)), key=str.casefold)
        higher, lower = f"{name}:higher", f"{name}:lower"
        raise UsageError(
            Words(
                "the direction of metric {} is unknown (neither its name nor the catalog's "
                "ranks say which is better); state it with {} or {}, or name another metric: {}",
                name,
                Option("--metric", higher, cli=f'--metric "{higher}"'),
                Option("--metric", lower, cli=f'"{lower}"'),
                ", ".join(known) or "none has one",
            )
        )
    return name, direction


def sota_timeline(
    rows: Sequence[dict[str, Any]],
    metric: tuple[str, str] | None,
    *,
    complete: bool,
) -> dict[str, Any]:
    """The timeline payload (README.md#sota-over-time) over `rows`, the leaderboard
    rows left after every other filter."""
    if metric is None:
        return _payload(None, None, [], 0, 0, complete)
    name, direction = metric
    sign = 1.0 if direction == "higher" else -1.0
    dated: list[tuple[str, float, dict[str, Any]]] = []
    considered = 0
    for row in rows:
        value = metric_value(row, name)
        if value is None or not math.isfinite(value):
            continue
        considered += 1
        date = publication_date(row)
        if date is not None:
            dated.append((date, value, row))
    # Oldest first; on one day the best row first, so a worse row of the same day sets nothing.
    dated.sort(
        key=lambda item: (
            item[0],
            -sign * item[1],
            _text(item[2].get("model_name")).casefold(),
            _text(item[2].get("paper_id")),
            _text(item[2].get("id")),
        )
    )
    records: list[dict[str, Any]] = []
    best: float | None = None
    for date, value, row in dated:
        if best is not None and sign * value <= sign * best:
            continue
        records.append(
            _record(date, value, row, None if best is None else _gain(best, value, sign))
        )
        best = value
    return _payload(name, direction, records, considered, considered - len(dated), complete)


def _payload(
    name: str | None,
    direction: str | None,
    records: list[dict[str, Any]],
    considered: int,
    undated: int,
    complete: bool,
) -> dict[str, Any]:
    return {
        "metric": name,
        "direction": direction,
        "records": records,
        "considered": considered,
        "undated": undated,
        "complete": complete,
    }


def _gain(previous: float, value: float, sign: float) -> float:
    """How much `value` beats `previous` in the metric's direction, in decimal arithmetic on the
    numbers as written (78.4 → 73.4 gains 5.0, not 5.000000000000007)."""
    return float((Decimal(repr(value)) - Decimal(repr(previous))) * Decimal(int(sign)))


def _record(
    date: str, value: float, row: dict[str, Any], improvement: float | None
) -> dict[str, Any]:
    size = row.get("num_parameters")
    is_open = row.get("is_open")
    return {
        "date": date,
        "value": value,
        "model_name": _optional(row.get("model_name")),
        "paper_id": _optional(row.get("paper_id")),
        "paper_title": _optional(row.get("paper_title")),
        "paper_arxiv_id": _optional(row.get("paper_arxiv_id")),
        "num_parameters": size
        if isinstance(size, int) and not isinstance(size, bool) and size > 0
        else None,
        "is_open": is_open if isinstance(is_open, bool) else None,
        "evaluation_id": _optional(row.get("id")),
        "improvement": improvement,
    }


def _text(value: Any) -> str:
    return "" if value is None else str(value)


def _optional(value: Any) -> str | None:
    return None if value is None or isinstance(value, dict | list) else str(value)
