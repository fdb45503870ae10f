"""Every task scope's best row, in every leaderboard answer (README.md#leaderboards).

Which scopes a benchmark has, which metric ranks each and which way it improves are properties
of the whole board (read before any filter); the best row of a scope is the one that leads it
among the rows that match the filters (openness, size, extra training data, required metrics,
thresholds), under that scope's primary metric in its direction. A sort or a Pareto frontier
orders or thins the page; it does not change what leads. When filters left out the scope's
best over the whole board, that row is named too (`whole_board_best`). A row listed under
several scopes competes in each. Pure functions; no I/O.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from pwc_core.directions import Directions
from pwc_core.metrics import metric_value
from pwc_core.scopes import primary_metric, scopes_of

MATCHING = "matching rows"  # filters were asked: the bests are among the rows they keep
ALL = "all rows"

# what a best row says: enough to answer "which model, how good, from which paper, when, on
# what terms" without another call
FIELDS = (
    "id",
    "model_name",
    "paper_id",
    "paper_title",
    "paper_published_date",
    "num_parameters",
    "is_open",
    "uses_additional_data",
    "methodology",
)


def _task(scope: dict[str, Any]) -> str:
    return "" if scope.get("task_id") is None else str(scope["task_id"])


def _members(rows: Sequence[dict[str, Any]]) -> dict[str, list[tuple[dict[str, Any], Any]]]:
    """task id -> [(row, its rank there)] for every scope a row is listed under."""
    found: dict[str, list[tuple[dict[str, Any], Any]]] = {}
    for row in rows:
        for scope in scopes_of(row):
            found.setdefault(_task(scope), []).append((row, scope.get("rank")))
    return found


def _leader(
    members: list[tuple[dict[str, Any], Any]], metric: str | None, direction: str | None
) -> tuple[dict[str, Any], Any] | None:
    """The best member: by the metric's value in its direction (rows without a value cannot
    lead), the catalog's rank breaking ties; by rank alone when the direction is unknown."""

    def rank_key(member: tuple[dict[str, Any], Any]) -> tuple[Any, ...]:
        row, rank = member
        ranked = isinstance(rank, int) and not isinstance(rank, bool)
        return (not ranked, rank if ranked else 0, str(row.get("model_name") or "").casefold())

    if direction in ("higher", "lower") and metric:
        sign = -1.0 if direction == "higher" else 1.0
        scored = []
        for member in members:
            value = metric_value(member[0], metric)
            if value is not None and not math.isnan(value):
                scored.append(((sign * value, *rank_key(member)), member))
        return min(scored, key=lambda pair: pair[0])[1] if scored else None
    return min(members, key=rank_key) if members else None


def _said(member: tuple[dict[str, Any], Any], metric: str | None) -> dict[str, Any]:
    row, rank = member
    raw = row.get("metrics")
    metrics: dict[str, Any] = raw if isinstance(raw, dict) else {}
    said = {k: row.get(k) for k in FIELDS if row.get(k) is not None}
    if metric and metric in metrics:
        said["value"] = metrics[metric]  # as the catalog spells it
    return said | ({"rank": rank} if rank is not None else {})


def scope_bests(
    whole: Sequence[dict[str, Any]],
    matching: Sequence[dict[str, Any]],
    directions: Directions,
    main_task: str | None,
    filtered: bool,
) -> dict[str, Any]:
    """`{"among": MATCHING or ALL, "scopes": [...]}`: one entry per task scope of the whole
    board, in the board's scope order (`whole` is in it): the scope, its primary metric and
    direction, how many matching rows it holds, and its best matching row (absent when none
    matches); with `filtered`, also the whole board's best when that is another row."""
    everyone = _members(whole)
    chosen = _members(matching)
    for task, members in chosen.items():  # a matching row beyond the whole board's scan bound
        everyone.setdefault(task, members)
    # scopes in the board's order: as each first heads a row (`whole` is ordered by scope)
    homes = list(dict.fromkeys(_task(scopes_of(row)[0]) for row in whole))
    entries = []
    for task in sorted(everyone, key=lambda t: homes.index(t) if t in homes else len(homes)):
        members = everyone[task]
        first = scopes_of(members[0][0])
        scope = next((s for s in first if _task(s) == task), first[0])
        metric = primary_metric(row for row, _ in members)
        direction = directions.of(metric)
        entry: dict[str, Any] = {
            "task_id": scope.get("task_id"),
            "task_name": scope.get("task_name"),
            "main": task == (main_task or ""),
            "metric": metric,
            "direction": direction,
            "matched": len(chosen.get(task, [])),
        }
        if direction is None:
            entry["by"] = "rank"  # no direction: the catalog's best rank leads
        best = _leader(chosen.get(task, []), metric, direction)
        if best is not None:
            entry["best"] = _said(best, metric)
        overall = _leader(members, metric, direction) if filtered else None
        if overall is not None and (best is None or overall[0].get("id") != best[0].get("id")):
            entry["whole_board_best"] = _said(overall, metric)
        entries.append(entry)
    return {"among": MATCHING if filtered else ALL, "scopes": entries}
