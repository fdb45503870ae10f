"""Metric names and values: aliases, matching a requested name against a leaderboard's metrics,
and reading a row's value (the row's parameter count included, as the metric `Parameters`).

Pure functions over evaluation rows (dicts as the catalog sends them); no I/O.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from pwc_core.errors import AmbiguousError, UsageError
from pwc_core.wording import Ambiguity, Asked, Candidate, Words

# --- metric names -------------------------------------------------------------------------

# Each group lists names that mean the same metric (docs/decisions.md#metric-names-and-aliases).
METRIC_ALIASES: tuple[frozenset[str], ...] = (
    frozenset({"ap", "map"}),
    frozenset(
        {"top-1", "top1", "top 1", "top-1 accuracy", "top1 accuracy", "top 1 accuracy", "accuracy"}
    ),
    frozenset({"auroc", "auc"}),
    frozenset({"pass@1", "pass rate"}),
    frozenset(
        {
            "parameters",
            "params",
            "#params",
            "num_parameters",
            "num parameters",
            "number of parameters",
            "parameter count",
            "model size",
        }
    ),
)

# A row's parameter count (`num_parameters`) read as a metric, so Pareto objectives and sorts can
# trade accuracy against model size; a catalog metric of the same name wins.
PARAMETERS = "Parameters"


def aliases_of(name: str) -> list[str]:
    """The other names of `name`'s alias group (casefolded), in a stable order."""
    wanted = name.strip().casefold()
    found: set[str] = set()
    for group in METRIC_ALIASES:
        if wanted in group:
            found |= group - {wanted}
    return sorted(found)


def catalog_metrics(rows: Iterable[dict[str, Any]]) -> list[str]:
    """The metric keys the rows report, first spelling of each (no `Parameters`)."""
    names: dict[str, str] = {}
    for row in rows:
        metrics = row.get("metrics")
        if isinstance(metrics, dict):
            for key in metrics:
                names.setdefault(str(key).casefold(), str(key))
    return list(names.values())


def available_metrics(rows: Iterable[dict[str, Any]]) -> dict[str, str]:
    """casefolded metric key → first original spelling, across all rows; `Parameters` too when
    some row has a parameter count."""
    listed = list(rows)
    names = {name.casefold(): name for name in catalog_metrics(listed)}
    if any(parameter_count(row) is not None for row in listed):
        names.setdefault(PARAMETERS.casefold(), PARAMETERS)
    return names


def _single(request: str, candidates: list[str], about: str) -> str | None:
    if len(candidates) > 1:
        ordered = sorted(candidates, key=str.casefold)
        found = tuple(Candidate(name) for name in ordered)
        raise AmbiguousError(
            f"metric is ambiguous: {request}; candidates: {', '.join(ordered)}",
            Ambiguity(about, request, "metrics of this leaderboard", found, by_value=False),
        )
    return candidates[0] if candidates else None


def match_metric(request: str, available: dict[str, str], about: str = "metric") -> str | None:
    """The leaderboard metric meant by `request` (given to option `about`, a dest), or None.

    Steps: exact (case-insensitive) → alias table → the single metric whose name contains
    the request or one of its aliases. Two or more candidates at a step → AmbiguousError.
    """
    wanted = request.strip().casefold()
    if wanted in available:
        return available[wanted]
    aliases = aliases_of(wanted)
    found = _single(request, [available[a] for a in aliases if a in available], about)
    if found:
        return found
    needles = [wanted, *aliases]
    contained = [orig for key, orig in available.items() if any(n in key for n in needles)]
    return _single(request, contained, about)


def resolve_metrics(requests: Iterable[str], available: dict[str, str]) -> dict[str, str]:
    """casefolded request → original metric name; unknown names → the contract's UsageError."""
    return resolve_asked([("metric", request) for request in requests], available)


Match = Callable[[str, str], str | None]  # (request, about) -> the board's name, or None


def resolve_asked(
    asked: Iterable[tuple[str, str]], available: dict[str, str], match: Match | None = None
) -> dict[str, str]:
    """`resolve_metrics` for (dest, name) pairs: an unknown or ambiguous name's error says
    which option named it (a tool says its parameter and the name as typed). `match` is the
    matcher to ask (a board's `BoardMetrics.match`, which asks each name once)."""
    find = match or (lambda request, about: match_metric(request, available, about))
    resolved: dict[str, str] = {}
    unknown: list[tuple[str, str]] = []
    for about, request in asked:
        key = request.strip().casefold()
        if key in resolved or any(a == about and n.casefold() == key for a, n in unknown):
            continue
        found = find(request.strip(), about)
        if found is None:
            unknown.append((about, request.strip()))
        else:
            resolved[key] = found
    if unknown:
        # the catalog's own metrics: `Parameters` is accepted, not advertised in every error
        listed = [v for v in available.values() if v != PARAMETERS]
        names = ", ".join(sorted(listed, key=str.casefold)) or "none"
        raise UsageError(
            Words("unknown metric(s): {}; available metrics: {}", Asked(tuple(unknown)), names)
        )
    return resolved


class BoardMetrics:
    """One board's metric names, and each request matched against them once: every option that
    names the same metric (a Pareto objective, `--sort`, a filter) reads the one match
    (docs/decisions.md#the-selection-resolved-once). An ambiguous name is refused on its first
    match, naming the option that asked."""

    def __init__(self, available: dict[str, str]) -> None:
        self.available = available
        self._found: dict[str, str | None] = {}

    def match(self, request: str, about: str = "metric") -> str | None:
        key = request.strip().casefold()
        if key not in self._found:
            self._found[key] = match_metric(request, self.available, about)
        return self._found[key]

    def resolve(self, asked: Iterable[tuple[str, str]]) -> dict[str, str]:
        """`resolve_asked` over this board: unknown names refused together."""
        return resolve_asked(asked, self.available, self.match)


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


def parameter_count(row: dict[str, Any]) -> int | None:
    """The row's `num_parameters` when it is a positive integer (anything else means unknown)."""
    size = row.get("num_parameters")
    return size if isinstance(size, int) and not isinstance(size, bool) and size > 0 else None


def metric_value(row: dict[str, Any], name: str) -> float | None:
    """The row's value of metric `name` (case-insensitive key lookup), or None; `Parameters`
    is the row's parameter count unless the catalog reports a metric of that name."""
    metrics = row.get("metrics")
    metrics = metrics if isinstance(metrics, dict) else {}
    if name in metrics:  # the spelling the catalog used: no scan needed
        return parse_metric(metrics[name])
    wanted = name.casefold()
    for key, value in metrics.items():
        if str(key).casefold() == wanted:
            return parse_metric(value)
    if name == PARAMETERS:
        size = parameter_count(row)
        return None if size is None else float(size)
    return None
