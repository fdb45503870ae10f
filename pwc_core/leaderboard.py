"""Leaderboard selection: metric directions by name, threshold filters, sorting and the Pareto
frontier (docs/upstream-api.md#metric-selection).

Pure functions over evaluation rows (dicts as the catalog sends them); no I/O.
"""

from __future__ import annotations

import math
import operator
from collections.abc import Iterable, Sequence
from typing import Any

from pwc_core.directions import NAME_ONLY, Directions, name_direction
from pwc_core.metrics import BoardMetrics, available_metrics, catalog_metrics, metric_value
from pwc_core.selection import Criteria, criteria

# --- metric direction ---------------------------------------------------------------------


def metric_direction(name: str) -> str | None:
    """ "higher" or "lower" when the metric's name says which is better; None if unknown
    (a leaderboard's own ranks can say more: pwc_core.directions)."""
    return name_direction(name)


def metric_directions(rows: Iterable[dict[str, Any]]) -> dict[str, str]:
    """{metric: direction} for every catalog metric of `rows` whose name gives its direction."""
    result: dict[str, str] = {}
    for name in catalog_metrics(rows):
        direction = metric_direction(name)
        if direction:
            result[name] = direction
    return result


# --- selection ----------------------------------------------------------------------------


def pareto_frontier(
    rows: list[dict[str, Any]], objectives: Sequence[tuple[str, str]]
) -> list[dict[str, Any]]:
    """Rows no other row dominates over `(metric, "higher"|"lower")` objectives; order kept.

    Rows lacking a value (or with NaN) for an objective are dropped first. Scores are oriented
    so that larger is better. Per objective, one sort gives every row two bitmasks (Python
    ints, bit p = scored row p): the rows at least as good (a prefix of the sorted order, ties
    included) and the rows equal. A row is dominated iff some row is at least as good on every
    objective without being equal on every one: AND(at least) & ~AND(equal) != 0. That is
    O(objectives x rows log rows) sorting plus word-parallel mask work, not pairwise compares.
    """
    signs = [1.0 if direction == "higher" else -1.0 for _, direction in objectives]
    scored: list[tuple[int, list[float]]] = []
    for index, row in enumerate(rows):
        values = [metric_value(row, name) for name, _ in objectives]
        numbers = [v for v in values if v is not None and not math.isnan(v)]
        if len(numbers) == len(values):
            scored.append((index, list(map(operator.mul, signs, numbers))))
    everyone = (1 << len(scored)) - 1
    at_least = [everyone] * len(scored)
    equal = [everyone] * len(scored)
    for k in range(len(objectives)):
        order = sorted(range(len(scored)), key=lambda p: scored[p][1][k], reverse=True)
        prefix, start = 0, 0
        while start < len(order):  # one group of tied rows at a time
            value, end, tied = scored[order[start]][1][k], start, 0
            while end < len(order) and scored[order[end]][1][k] == value:
                tied |= 1 << order[end]
                end += 1
            prefix |= tied
            for p in order[start:end]:
                at_least[p] &= prefix
                equal[p] &= tied
            start = end
    kept = [scored[p][0] for p in range(len(scored)) if not at_least[p] & ~equal[p]]
    return [rows[i] for i in kept]


def select_rows(
    rows: list[dict[str, Any]],
    *,
    required: Sequence[str] = (),
    minimum: Sequence[tuple[str, float]] = (),
    maximum: Sequence[tuple[str, float]] = (),
    sort: tuple[str, str | None] | None = None,
    pareto: Sequence[tuple[str, str]] | None = None,
    directions: Directions | None = None,
    available: dict[str, str] | None = None,
) -> list[dict[str, Any]]:
    """`select` by names as asked, resolved against `available` (else the rows' metrics)."""
    names = BoardMetrics(available_metrics(rows) if available is None else available)
    chosen = criteria(
        names, required=required, minimum=minimum, maximum=maximum, sort=sort, pareto=pareto
    )
    return select(rows, chosen, directions)


def select(
    rows: list[dict[str, Any]], chosen: Criteria, directions: Directions | None = None
) -> list[dict[str, Any]]:
    """Metric selection (docs/upstream-api.md#metric-selection), its names in the board's
    spelling. A sort without `asc`/`desc` puts the best first when the metric's direction is
    known (`directions`, else its name), and sorts descending when it is not (`sort_order`)."""
    named, kept = chosen.metrics, []
    for row in rows:
        # each distinct metric read once per row, however many arguments name it
        values = {name: metric_value(row, name) for name in named}
        numbers = {name: v for name, v in values.items() if v is not None}
        if len(numbers) < len(values):
            continue
        if all(numbers[n] >= t for n, t in chosen.minimum) and all(
            numbers[n] <= t for n, t in chosen.maximum
        ):
            kept.append(row)
    objectives = list(chosen.pareto)
    if objectives:
        kept = pareto_frontier(kept, objectives)
    if chosen.sort:
        metric, word = chosen.sort
        descending, _ = sort_order(word, metric, directions)
        kept.sort(key=lambda r: _sort_key(metric_value(r, metric), descending))
    elif objectives:
        first, direction = objectives[0]
        kept.sort(key=lambda r: _sort_key(metric_value(r, first), direction == "higher"))
    return kept


def sort_order(word: str | None, metric: str, directions: Directions | None) -> tuple[bool, str]:
    """(descending, basis) of a sort on `metric`: `asc`/`desc` as asked ("asked"); else best
    first in the metric's direction ("best first": a stated `higher`/`lower`, the board's
    directions, or the name); else descending ("default", the direction being unknown)."""
    if word in ("asc", "desc"):
        return word == "desc", "asked"
    direction = word if word in ("higher", "lower") else None
    if direction is None:
        direction = (directions or NAME_ONLY).of(metric)
    if direction is None:
        return True, "default"
    return direction == "higher", "best first"


def _sort_key(number: float | None, descending: bool) -> tuple[bool, float]:
    """Rows without a number (or NaN) last, whichever way the sort goes (sorts are stable)."""
    if number is None or math.isnan(number):
        return (True, 0.0)
    return (False, -number if descending else number)
