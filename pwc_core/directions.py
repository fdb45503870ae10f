"""Which way a metric improves, decided once per leaderboard (docs/decisions.md#metric-directions).

Signals, strongest first:

1. **stated**: the caller said so (`--metric "Average (%):higher"`, `--sort NAME:lower`, a Pareto
   objective's direction);
2. **name**: a name that says it (error, perplexity, FID, accuracy, BLEU, ...);
3. **ranks**: the catalog's own ranks of the rows that report the metric. Rank 1 is best, so
   within each task scope every pair of ranked rows with different ranks and different values
   votes for "higher" (the better-ranked row has the larger value) or "lower"; the direction is
   the one at least `AGREEMENT` of the votes agree on, given at least `MIN_PAIRS` votes over the
   `RANKED_SAMPLE` best-ranked rows of each scope;
4. **generic name**: "score" alone says higher only weakly; the ranks overrule it.

Every place that needs a direction (scope order, sort, Pareto, timeline, against-SOTA, the app
and `--chart`) reads it from one `Directions` built here. Pure functions; no I/O.
"""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from pwc_core.metrics import catalog_metrics, parse_metric

# Checked in order; "lower is better" patterns win (so "Top-1 Error" and "FID score" are lower).
LOWER_IS_BETTER = re.compile(
    r"error|\bloss\b|perplexity|\bppl\b|\bfid\b|latency|\bparam|\b[gmt]?flops?\b|\bwer\b|\bcer\b"
    r"|\bmae\b|\b[r]?mse\b|\bbpd\b|\bbpc\b|bits per|inference time|\bruntime\b|\bmemory\b"
)
HIGHER_IS_BETTER = re.compile(
    r"accuracy|\bacc\b|\bm?ap\d*\b|\bf1\b|\bbleu\b|\brouge|pass@\d+|pass rate|\bauc\b|auroc"
    r"|precision|recall|\bm?iou\b|\bpsnr\b|\bssim\b|exact match|\bem\b|\btop[- ]?\d+\b"
    r"|\bmeteor\b|\bcider\b|success rate|\bndcg|\bmrr\b|\bcorrect\b"
)
GENERIC_HIGHER = re.compile(r"score")

AGREEMENT = 0.75  # share of rank votes one direction needs
MIN_PAIRS = 3  # fewer votes than this decide nothing
RANKED_SAMPLE = 100  # best-ranked rows per scope that vote (at most 4,950 pairs a scope)

DIRECTIONS = ("higher", "lower")


@functools.lru_cache(maxsize=4096)  # a pure function of the name, asked for every merged row
def by_name(name: str) -> tuple[str | None, bool]:
    """(direction, decisive) from the metric's name: ("lower", True) for "Test perplexity",
    ("higher", False) for a generic "Score", (None, False) when the name says nothing."""
    text = str(name).casefold()
    if LOWER_IS_BETTER.search(text):
        return "lower", True
    if HIGHER_IS_BETTER.search(text):
        return "higher", True
    if GENERIC_HIGHER.search(text):
        return "higher", False
    return None, False


def name_direction(name: str) -> str | None:
    """The direction the name alone suggests (decisive or generic), or None."""
    return by_name(name)[0]


def _number(value: Any) -> float | None:
    number = parse_metric(value)
    return number if number is not None and math.isfinite(number) else None


def _rank(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _scoped_values(
    rows: Iterable[dict[str, Any]], wanted: set[str]
) -> dict[str, dict[str, list[tuple[int, float]]]]:
    """metric (casefolded, one of `wanted`) -> task scope -> [(rank, value)] over ranked rows."""
    found: dict[str, dict[str, list[tuple[int, float]]]] = {}
    for row in rows:
        metrics = row.get("metrics")
        if not isinstance(metrics, dict):
            continue
        scopes = [s for s in row.get("rank_scopes") or [] if isinstance(s, dict)]
        ranked = [(str(s.get("task_id")), _rank(s.get("rank"))) for s in scopes]
        if not scopes:
            ranked = [(str(row.get("task_id")), _rank(row.get("best_rank")))]
        for key, value in metrics.items():
            folded = str(key).casefold()
            number = _number(value) if folded in wanted else None
            if number is None:
                continue
            per_scope = found.setdefault(folded, {})
            for task, rank in ranked:
                if rank is not None:
                    per_scope.setdefault(task, []).append((rank, number))
    return found


def by_ranks(scoped: Mapping[str, list[tuple[int, float]]]) -> str | None:
    """The direction the catalog's ranks agree on for one metric, or None (see module doc)."""
    higher = lower = 0
    for pairs in scoped.values():
        best = sorted(pairs)[:RANKED_SAMPLE]
        for i, (rank_a, value_a) in enumerate(best):
            for rank_b, value_b in best[i + 1 :]:
                if rank_a == rank_b or value_a == value_b:
                    continue
                if value_a > value_b:
                    higher += 1
                else:
                    lower += 1
    votes = higher + lower
    if votes < MIN_PAIRS:
        return None
    if higher >= AGREEMENT * votes:
        return "higher"
    if lower >= AGREEMENT * votes:
        return "lower"
    return None


@dataclass
class Directions:
    """One leaderboard's metric directions and where each came from."""

    known: dict[str, tuple[str, str]] = field(default_factory=dict)  # casefolded -> (dir, source)

    def _entry(self, metric: str | None) -> tuple[str, str] | None:
        if metric is None:
            return None
        entry = self.known.get(str(metric).casefold())
        if entry is None:  # not on the board (the row's parameter count): its name decides
            direction, decisive = by_name(str(metric))
            entry = (direction, "name") if decisive and direction else None
        return entry

    def of(self, metric: str | None) -> str | None:
        entry = self._entry(metric)
        return entry[0] if entry else None

    def source(self, metric: str | None) -> str | None:
        entry = self._entry(metric)
        return entry[1] if entry else None

    def for_metrics(self, names: Iterable[str]) -> dict[str, str]:
        """{name: direction} for the names (as spelt) whose direction is known."""
        return {n: d for n in names if (d := self.of(n)) is not None}

    def sources_for(self, names: Iterable[str]) -> dict[str, str]:
        return {n: s for n in names if (s := self.source(n)) is not None}


NAME_ONLY = Directions()  # no board: every direction from the metric's name


def board_directions(
    rows: Iterable[dict[str, Any]], stated: Mapping[str, str] | None = None
) -> Directions:
    """The directions of every metric the rows report (plus the stated ones), by the rule of
    the module docstring."""
    listed = list(rows)
    known: dict[str, tuple[str, str]] = {}
    undecided: dict[str, str | None] = {}  # casefolded -> the generic name's direction
    for name in catalog_metrics(listed):
        direction, decisive = by_name(name)
        if decisive and direction is not None:
            known[name.casefold()] = (direction, "name")
        else:
            undecided[name.casefold()] = direction
    # the ranks are read only for the metrics whose name does not decide (most boards: none)
    scoped = _scoped_values(listed, set(undecided)) if undecided else {}
    for folded, direction in undecided.items():
        ranked = by_ranks(scoped.get(folded, {}))
        if ranked is not None:
            known[folded] = (ranked, "ranks")
        elif direction is not None:
            known[folded] = (direction, "name")
    for name, direction in (stated or {}).items():
        if direction in DIRECTIONS:
            known[str(name).casefold()] = (direction, "stated")
    return Directions(known)


def stated_metric(text: str | None) -> tuple[str | None, str | None]:
    """`"Average (%):higher"` -> ("Average (%)", "higher"); a name without a direction suffix
    (or with a colon of its own, `"Acc: val"`) is all name."""
    if text is None:
        return None, None
    name, sep, word = text.rpartition(":")
    if sep and name.strip() and word.strip() in DIRECTIONS:
        return name.strip(), word.strip()
    return text.strip(), None
