"""Leaderboard logic: row merging, metric names and aliases, metric values,
threshold filters, sorting, the Pareto frontier, and metric directions.

Pure functions over evaluation rows (dicts as the catalog sends them); no I/O.
"""

from __future__ import annotations

import functools
import math
import operator
import re
from collections.abc import Iterable, Sequence
from typing import Any

from pwc_cli.errors import AmbiguousError, UsageError

# --- metric names -------------------------------------------------------------------------

# Each group lists names that mean the same metric (docs/decisions.md#metric-names-and-aliases).
METRIC_ALIASES: tuple[frozenset[str], ...] = (
    frozenset({"ap", "map"}),
    frozenset(
        {"top-1", "top1", "top 1", "top-1 accuracy", "top1 accuracy", "top 1 accuracy", "accuracy"}
    ),
    frozenset({"auroc", "auc"}),
    frozenset({"pass@1", "pass rate"}),
)


def aliases_of(name: str) -> list[str]:
    """The other names of `name`'s alias group (casefolded), in a stable order."""
    wanted = name.strip().casefold()
    found: set[str] = set()
    for group in METRIC_ALIASES:
        if wanted in group:
            found |= group - {wanted}
    return sorted(found)


def available_metrics(rows: Iterable[dict[str, Any]]) -> dict[str, str]:
    """casefolded metric key → first original spelling, across all rows."""
    names: dict[str, str] = {}
    for row in rows:
        metrics = row.get("metrics")
        if isinstance(metrics, dict):
            for key in metrics:
                names.setdefault(str(key).casefold(), str(key))
    return names


def _single(request: str, candidates: list[str]) -> str | None:
    if len(candidates) > 1:
        names = ", ".join(sorted(candidates, key=str.casefold))
        raise AmbiguousError(f"metric is ambiguous: {request}; candidates: {names}")
    return candidates[0] if candidates else None


def match_metric(request: str, available: dict[str, str]) -> str | None:
    """The leaderboard metric meant by `request`, or None.

    Steps: exact (case-insensitive) → alias table → the single metric whose name contains
    the request or one of its aliases. Two or more candidates at a step → AmbiguousError.
    """
    wanted = request.strip().casefold()
    if wanted in available:
        return available[wanted]
    aliases = aliases_of(wanted)
    found = _single(request, [available[a] for a in aliases if a in available])
    if found:
        return found
    needles = [wanted, *aliases]
    contained = [orig for key, orig in available.items() if any(n in key for n in needles)]
    return _single(request, contained)


def resolve_metrics(requests: Iterable[str], available: dict[str, str]) -> dict[str, str]:
    """casefolded request → original metric name; unknown names → the contract's UsageError."""
    resolved: dict[str, str] = {}
    unknown: list[str] = []
    for request in requests:
        key = request.strip().casefold()
        if key in resolved or key in unknown:
            continue
        match = match_metric(request.strip(), available)
        if match is None:
            unknown.append(key)
        else:
            resolved[key] = match
    if unknown:
        names = ", ".join(sorted(available.values(), key=str.casefold)) or "none"
        raise UsageError(f"unknown metric(s): {', '.join(unknown)}; available metrics: {names}")
    return resolved


# --- metric values ------------------------------------------------------------------------


def parse_metric(value: Any) -> float | None:
    """A number from a metric value: numbers as is; strings without `,` and one trailing `%`."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        return float(value)
    if isinstance(value, str):
        text = value.strip().replace(",", "")
        if text.endswith("%"):
            text = text[:-1]
        try:
            return float(text)
        except ValueError:
            return None
    return None


def metric_value(row: dict[str, Any], name: str) -> float | None:
    """The row's value of metric `name` (case-insensitive key lookup), or None."""
    metrics = row.get("metrics")
    if not isinstance(metrics, dict):
        return None
    if name in metrics:  # the spelling the catalog used: no scan needed
        return parse_metric(metrics[name])
    wanted = name.casefold()
    for key, value in metrics.items():
        if str(key).casefold() == wanted:
            return parse_metric(value)
    return None


# --- metric direction ---------------------------------------------------------------------

# Checked in order; "lower is better" patterns win (so "Top-1 Error" and "FID score" are lower).
LOWER_IS_BETTER = re.compile(
    r"error|\bloss\b|perplexity|\bppl\b|\bfid\b|latency|\bparam|\b[gmt]?flops?\b|\bwer\b|\bcer\b"
    r"|\bmae\b|\b[r]?mse\b|\bbpd\b|\bbpc\b|bits per|inference time|\bruntime\b|\bmemory\b"
)
HIGHER_IS_BETTER = re.compile(
    r"accuracy|\bacc\b|\bm?ap\d*\b|\bf1\b|\bbleu\b|\brouge|pass@\d+|pass rate|score|\bauc\b|auroc"
    r"|precision|recall|\bm?iou\b|\bpsnr\b|\bssim\b|exact match|\bem\b|\btop[- ]?\d+\b"
    r"|\bmeteor\b|\bcider\b|success rate|\bndcg|\bmrr\b|\bcorrect\b"
)


@functools.lru_cache(maxsize=4096)  # a pure function of the name, asked for every merged row
def metric_direction(name: str) -> str | None:
    """ "higher" or "lower" when the metric's name says which is better; None if unknown."""
    text = str(name).casefold()
    if LOWER_IS_BETTER.search(text):
        return "lower"
    if HIGHER_IS_BETTER.search(text):
        return "higher"
    return None


def metric_directions(rows: Iterable[dict[str, Any]]) -> dict[str, str]:
    """{metric: direction} for every metric of `rows` whose direction is known."""
    result: dict[str, str] = {}
    for name in available_metrics(rows).values():
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
    sort: tuple[str, str] | None = None,
    pareto: Sequence[tuple[str, str]] | None = None,
) -> list[dict[str, Any]]:
    """Metric selection (docs/upstream-api.md#metric-selection)."""
    requested = [*required, *(n for n, _ in minimum), *(n for n, _ in maximum)]
    requested += [sort[0]] if sort else []
    requested += [n for n, _ in pareto or ()]
    names = resolve_metrics(requested, available_metrics(rows))
    low = [(names[n.strip().casefold()], t) for n, t in minimum]
    high = [(names[n.strip().casefold()], t) for n, t in maximum]
    distinct = list(dict.fromkeys(names.values()))

    def value(row: dict[str, Any], request: str) -> float | None:
        return metric_value(row, names[request.strip().casefold()])

    kept = []
    for row in rows:
        # each distinct metric read once per row, however many arguments name it
        values = {name: metric_value(row, name) for name in distinct}
        numbers = {name: v for name, v in values.items() if v is not None}
        if len(numbers) < len(values):
            continue
        if all(numbers[n] >= t for n, t in low) and all(numbers[n] <= t for n, t in high):
            kept.append(row)
    objectives = [(names[n.strip().casefold()], d) for n, d in pareto or ()]
    if objectives:
        kept = pareto_frontier(kept, objectives)
    if sort:
        kept.sort(key=lambda r: _sort_key(value(r, sort[0])), reverse=sort[1] == "desc")
    elif objectives:
        first, direction = objectives[0]
        kept.sort(key=lambda r: _sort_key(metric_value(r, first)), reverse=direction == "higher")
    return kept


def _sort_key(number: float | None) -> float:
    return -math.inf if number is None or math.isnan(number) else number


# --- row merging (docs/upstream-api.md#row-merging) ---------------------------------------------

_SHOTS = re.compile(r"(\d+)[\s-]?shot", re.IGNORECASE)


def _text(value: Any) -> str:
    return "" if value is None else str(value)


def _rank(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _params(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else None


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
    scope = next((s for s in merged["rank_scopes"] if s["task_id"] == task_id), None)
    if scope is None:
        merged["rank_scopes"].append(
            {
                "task_id": task_id,
                "task_name": row.get("task_name"),
                "task_slug": row.get("task_slug"),
                "rank": rank,
            }
        )
    elif rank is not None and (scope["rank"] is None or rank < scope["rank"]):
        scope["rank"] = rank
    ranks = [s["rank"] for s in merged["rank_scopes"] if s["rank"] is not None]
    merged["best_rank"] = min(ranks) if ranks else None
    if not merged.get("best_metric") and row.get("best_metric"):
        merged["best_metric"] = row["best_metric"]
    merged["_params"].append(_params(row.get("num_parameters")))


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
        target = next((m for m in candidates if _compatible(m, metrics)), None)
        if target is None:
            target = {**row, "metrics": {}, "rank_scopes": [], "_params": []}
            candidates.append(target)
            merged_rows.append(target)
        _absorb(target, row, metrics)
    for merged in merged_rows:
        counts = merged.pop("_params")
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
