"""Row merging (docs/upstream-api.md#row-merging): rows of one result listed under several task
scopes become one row with every scope's rank. Pure functions; no I/O."""

from __future__ import annotations

import re
from typing import Any

from pwc_core.leaderboard import metric_directions
from pwc_core.metrics import parameter_count, parse_metric

# --- row merging (docs/upstream-api.md#row-merging) ---------------------------------------------

MAX_CANDIDATES = 16  # merged rows of one key a new row is compared with
_SHOTS = re.compile(r"(\d+)[\s-]?shot", re.IGNORECASE)


def _text(value: Any) -> str:
    return "" if value is None else str(value)


def _rank(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def merge_key(row: dict[str, Any]) -> tuple[str, ...]:
    split = next((row[k] for k in ("split", "split_name", "evaluated_on") if row.get(k)), "")
    shots = _SHOTS.search(_text(row.get("methodology")))
    return (
        _text(row.get("paper_id")),
        _text(row.get("dataset_id")),
        _text(row.get("model_name")),
        _text(row.get("harness")),
        _text(split),
        shots.group(1) if shots else "",
    )


def _same_value(a: Any, b: Any) -> bool:
    if a == b:
        return True
    x, y = parse_metric(a), parse_metric(b)
    return x is not None and x == y


def _compatible(merged: dict[str, Any], metrics: dict[str, Any]) -> bool:
    existing = merged["metrics"]
    return all(k not in existing or _same_value(existing[k], v) for k, v in metrics.items())


def _absorb(merged: dict[str, Any], row: dict[str, Any], metrics: dict[str, Any]) -> None:
    for key, value in metrics.items():
        merged["metrics"].setdefault(key, value)
    rank = _rank(row.get("best_rank"))
    task_id = None if row.get("task_id") is None else str(row["task_id"])
    scopes: dict[str | None, dict[str, Any]] = merged["_scopes"]  # by task: no scan per row
    scope = scopes.get(task_id)
    if scope is None:
        scope = {
            "task_id": task_id,
            "task_name": row.get("task_name"),
            "task_slug": row.get("task_slug"),
            "rank": rank,
        }
        scopes[task_id] = scope
        merged["rank_scopes"].append(scope)
    elif rank is not None and (scope["rank"] is None or rank < scope["rank"]):
        scope["rank"] = rank
    if rank is not None and (merged["best_rank"] is None or rank < merged["best_rank"]):
        merged["best_rank"] = rank
    if not merged.get("best_metric") and row.get("best_metric"):
        merged["best_metric"] = row["best_metric"]
    merged["_params"].append(parameter_count(row))


def merge_rows(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Merge equivalent evaluation rows across task scopes (docs/upstream-api.md#row-merging);
    inputs are not modified.

    Each merged row gains `rank_scopes` and `metric_directions`; `best_rank` is the smallest
    scoped rank and `num_parameters` is kept only when every contributing row agrees.
    """
    groups: dict[tuple[str, ...], list[dict[str, Any]]] = {}
    merged_rows: list[dict[str, Any]] = []
    for row in rows:
        raw = row.get("metrics")
        metrics: dict[str, Any] = raw if isinstance(raw, dict) else {}
        candidates = groups.setdefault(merge_key(row), [])
        # the most recent candidates only: rows of one key that keep conflicting (a hostile
        # board) then cost a bounded number of comparisons each, not one per earlier row
        recent = candidates[-MAX_CANDIDATES:]
        target = next((m for m in recent if _compatible(m, metrics)), None)
        if target is None:
            target = {
                **row,
                "metrics": {},
                "rank_scopes": [],
                "best_rank": None,
                "_params": [],
                "_scopes": {},
            }
            candidates.append(target)
            merged_rows.append(target)
        _absorb(target, row, metrics)
    for merged in merged_rows:
        counts = merged.pop("_params")
        del merged["_scopes"]
        merged["num_parameters"] = (
            counts[0] if None not in counts and len(set(counts)) == 1 else None
        )
        merged["metric_directions"] = metric_directions([merged])
    merged_rows.sort(
        key=lambda m: (
            m["best_rank"] is None,
            m["best_rank"] or 0,
            _text(m.get("model_name")).casefold(),
            _text(m.get("paper_id")),
        )
    )
    return merged_rows
