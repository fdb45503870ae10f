"""The best result first: merged evaluation rows grouped by the task scope they are listed under.

The catalog ranks a benchmark's rows per task scope (Image Classification, Zero-Shot Image
Classification, ...), so ordering by `best_rank` alone interleaves scopes and can put a
rank-1 zero-shot result above the benchmark's real state of the art. Here every benchmark's
main scope (the one most of its rows belong to) comes first, ordered by its own rank and then
by its primary metric in that metric's direction; every other scope follows as its own group.

A row listed under a scope has that scope moved to the front of its `rank_scopes`, so
`rank_scopes[0]` is always the scope (and rank) a row is shown with. Pure functions; no I/O.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

from pwc_core.directions import NAME_ONLY, Directions
from pwc_core.metrics import metric_value

ScopeKey = tuple[str, str]  # (dataset_id, task_id); "" where the catalog gave none


def _text(value: Any) -> str:
    return "" if value is None else str(value)


def scopes_of(row: dict[str, Any]) -> list[dict[str, Any]]:
    """The row's rank scopes (a raw, unmerged row has one: its own task)."""
    scopes = [s for s in row.get("rank_scopes") or [] if isinstance(s, dict)]
    if scopes:
        return scopes
    rank = row.get("best_rank")
    return [
        {
            "task_id": None if row.get("task_id") is None else str(row["task_id"]),
            "task_name": row.get("task_name"),
            "task_slug": row.get("task_slug"),
            "rank": rank if isinstance(rank, int) and not isinstance(rank, bool) else None,
        }
    ]


def _key(row: dict[str, Any], scope: dict[str, Any]) -> ScopeKey:
    return (_text(row.get("dataset_id")), _text(scope.get("task_id")))


def primary_metric(rows: Iterable[dict[str, Any]]) -> str | None:
    """The metric a scope is ranked by: its rows' most common `best_metric`, else the metric
    most of them report (first seen wins a tie)."""
    listed = list(rows)
    named = Counter(_text(r.get("best_metric")) for r in listed if r.get("best_metric"))
    if named:
        return named.most_common(1)[0][0]
    reported = Counter(
        str(k) for r in listed if isinstance(r.get("metrics"), dict) for k in r["metrics"]
    )
    return reported.most_common(1)[0][0] if reported else None


def _direction(metric: str | None, directions: Directions | None) -> str | None:
    if metric is None:
        return None
    return (directions or NAME_ONLY).of(metric)


def _within_scope(
    rows: list[dict[str, Any]], directions: Directions | None
) -> list[dict[str, Any]]:
    metric = primary_metric(rows)
    direction = _direction(metric, directions)
    sign = -1.0 if direction == "lower" else 1.0
    known = direction is not None

    def order(row: dict[str, Any]) -> tuple[Any, ...]:
        rank = row["rank_scopes"][0].get("rank")
        value = metric_value(row, metric) if known and metric else None
        score = -sign * value if value is not None and not math.isnan(value) else math.inf
        return (
            rank is None,
            rank or 0,
            score,
            _text(row.get("model_name")).casefold(),
            _text(row.get("paper_id")),
        )

    return sorted(rows, key=order)


def order_by_scope(
    rows: Sequence[dict[str, Any]],
    benchmarks: Sequence[str] = (),
    directions: Directions | None = None,
    basis: Sequence[dict[str, Any]] | None = None,
) -> tuple[list[dict[str, Any]], dict[str, str]]:
    """Rows grouped by benchmark (in `benchmarks` order, then first appearance), within each
    benchmark by task scope (most rows first; first appearance breaks a tie), each scope by
    rank and primary metric. Returns copies, and each benchmark's main task id. `basis`: the
    rows the scopes are counted over (the whole board before filters; default `rows`)."""
    members: Counter[ScopeKey] = Counter()
    first: dict[ScopeKey, int] = {}
    row_scopes = [scopes_of(row) for row in rows]  # once per row: this runs on every call
    counted = rows if basis is None else basis
    for index, row in enumerate(counted):
        for scope in row_scopes[index] if basis is None else scopes_of(row):
            key = _key(row, scope)
            members[key] += 1
            first.setdefault(key, index)
    for index, row in enumerate(rows):  # a scope the basis lacks comes after its scopes
        for scope in row_scopes[index]:
            first.setdefault(_key(row, scope), len(counted) + index)
    priority = {key: (-members[key], first[key]) for key in first}
    datasets = list(
        dict.fromkeys([*map(str, benchmarks), *(_text(r.get("dataset_id")) for r in rows)])
    )
    groups: dict[ScopeKey, list[dict[str, Any]]] = {}
    for row, scopes in zip(rows, row_scopes, strict=True):
        home = min(scopes, key=lambda s: priority[_key(row, s)])
        listed = {**row, "rank_scopes": [home, *(s for s in scopes if s is not home)]}
        groups.setdefault(_key(row, home), []).append(listed)
    ordered: list[dict[str, Any]] = []
    main: dict[str, str] = {}
    for dataset in datasets:
        keys = sorted((k for k in groups if k[0] == dataset), key=priority.__getitem__)
        if keys:
            main[dataset] = keys[0][1]
        for key in keys:
            ordered.extend(_within_scope(groups[key], directions))
    return ordered, main


def scope_summary(
    rows: Sequence[dict[str, Any]], main: dict[str, str], directions: Directions | None = None
) -> list[dict[str, Any]]:
    """One entry per task scope the rows are listed under, in order of first appearance:
    which task, whether it is its benchmark's main scope, its primary metric and direction,
    and how many of `rows` it holds."""
    summary: dict[ScopeKey, dict[str, Any]] = {}
    listed: dict[ScopeKey, list[dict[str, Any]]] = {}
    for row in rows:
        home = scopes_of(row)[0]
        key = _key(row, home)
        listed.setdefault(key, []).append(row)
        summary.setdefault(
            key,
            {
                "dataset_id": row.get("dataset_id"),
                "dataset_name": row.get("dataset_name"),
                "task_id": home.get("task_id"),
                "task_name": home.get("task_name"),
                "task_slug": home.get("task_slug"),
                "main": main.get(key[0]) == key[1],
            },
        )
    for key, entry in summary.items():
        metric = primary_metric(listed[key])
        entry |= {
            "primary_metric": metric,
            "direction": _direction(metric, directions),
            "count": len(listed[key]),
        }
    return list(summary.values())
