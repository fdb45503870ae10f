"""What a leaderboard request selects, resolved once against the board's metric names
(docs/decisions.md#the-selection-resolved-once).

The `benchmark` handler builds one `Selection` and returns it beside its payload, never in it
(`--json` and the tool's `data` are the payload alone). The board's filters and order, the
tool's text and the chart read it; none of them reads the request's arguments again or matches
a metric name a second time. Pure; no I/O.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from pwc_core.metrics import BoardMetrics

Sort = tuple[str, str | None]  # (metric, "asc" | "desc" | "higher" | "lower" | None)
Objective = tuple[str, str]  # (metric, "higher" | "lower")


@dataclass(frozen=True)
class Criteria:
    """A metric selection, every name in the board's spelling."""

    required: tuple[str, ...] = ()
    minimum: tuple[tuple[str, float], ...] = ()
    maximum: tuple[tuple[str, float], ...] = ()
    sort: Sort | None = None
    pareto: tuple[Objective, ...] = ()

    @property
    def metrics(self) -> list[str]:
        """Every metric the selection names, once each: a row lacking one is not selected."""
        sort = [self.sort[0]] if self.sort else []
        named = [*self.required, *(n for n, _ in (*self.minimum, *self.maximum))]
        return list(dict.fromkeys([*named, *sort, *(n for n, _ in self.pareto)]))


def criteria(
    names: BoardMetrics,
    *,
    required: Sequence[str] = (),
    minimum: Sequence[tuple[str, float]] = (),
    maximum: Sequence[tuple[str, float]] = (),
    sort: Sort | None = None,
    pareto: Sequence[Objective] | None = None,
) -> Criteria:
    """The selection asked for (names as typed), in the board's spelling: every name resolved
    together, so that the unknown ones are refused in one error saying which option named each
    (docs/upstream-api.md#metric-selection)."""
    asked = [("require_metrics", n) for n in required]
    asked += [("minimum_metrics", n) for n, _ in minimum]
    asked += [("maximum_metrics", n) for n, _ in maximum]
    asked += [("sort_metric", sort[0])] if sort else []
    asked += [("pareto", n) for n, _ in pareto or ()]
    found = names.resolve(asked)

    def board(request: str) -> str:
        return found[request.strip().casefold()]

    return Criteria(
        required=tuple(board(n) for n in required),
        minimum=tuple((board(n), t) for n, t in minimum),
        maximum=tuple((board(n), t) for n, t in maximum),
        sort=(board(sort[0]), sort[1]) if sort else None,
        pareto=tuple((board(n), d) for n, d in pareto or ()),
    )


@dataclass(frozen=True)
class Selection:
    """What the handler resolved for one leaderboard request: the page it sliced, whether metric
    filters, a sort, a Pareto request or a timeline chose the rows (`selecting`), the timeline's
    metric and the selection, all in the board's spelling."""

    page: int
    limit: int  # the page size asked for
    selecting: bool
    metric: str | None = None  # the timeline's `--metric`
    chosen: Criteria = field(default_factory=Criteria)

    @property
    def sort(self) -> Sort | None:
        return self.chosen.sort

    @property
    def pareto(self) -> tuple[Objective, ...]:
        return self.chosen.pareto
