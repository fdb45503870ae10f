"""A paper's results against today's best (`paper evaluations --against-sota`).

For each benchmark (dataset) on the page, one leaderboard lookup through the handler's client
(so the server's cache and single-flight apply): `datasets/{id}/evaluations/` ordered by
`best_rank`, 100 rows a page, the same request the benchmark scan makes first. A leaderboard
that fits that page is complete; a longer one is scanned on like `benchmark --name ... --sort`
(at most 1,000 rows), within a budget of extra pages for the whole call and the call's
deadline. Each paper row is then compared in its listed task scope (`rank_scopes[0]`) on its
ranked metric: the scope's best value in the metric's direction, how far behind the row is,
and its rank out of the scope's rows that report the metric.

When only the sorted first page could be read, the catalog's own order still answers for the
metric the scope is ranked by: its rank-1 row is the best, and the row's rank is the catalog's,
out of an unknown number. Anything that cannot be compared says why (`sota_unavailable`)
instead of failing the call.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from pwc_core import deadline, degraded
from pwc_core.directions import Directions, board_directions
from pwc_core.errors import HTTPStatusError, PwcError, ResponseError, UpstreamTimeout
from pwc_core.merging import merge_key, merge_rows
from pwc_core.metrics import metric_value
from pwc_core.replies import Catalog, extract_rows
from pwc_core.scan import INCOMPLETE, take_fresh
from pwc_core.scan import MAX_ROWS as SCAN_LIMIT
from pwc_core.scan import PAGE_SIZE as SCAN_PAGE_SIZE
from pwc_core.scopes import primary_metric, scopes_of
from pwc_core.transport import entity_segment

EXTRA_PAGES = 20  # pages read beyond every benchmark's first one, for the whole call
RESERVE_SECONDS = 5.0  # no lookup starts with less than this left of the call's deadline

DEADLINE = "deadline reached"
NOT_REPORTED = "metric not reported"
DIRECTION_UNKNOWN = "direction unknown"
NO_BENCHMARK = "no benchmark"


def _text(value: Any) -> str:
    return "" if value is None else str(value)


@dataclass
class Board:
    """What one lookup read of a benchmark's leaderboard."""

    dataset_id: str
    rows: list[dict[str, Any]] = field(default_factory=list)  # raw rows, in rank order
    total: int | None = None
    pages: int = 0
    complete: bool = False
    failure: str | None = None
    merged: list[dict[str, Any]] = field(default_factory=list)
    directions: Directions = field(default_factory=Directions)
    stalled: bool = False  # a page added no rows: the scan ends there, incomplete
    seen: set[Any] = field(default_factory=set, repr=False)  # pwc_core.scan.take_fresh's identities
    # scope() per task ID: every paper row of one scope is compared against the same rows
    _scopes: dict[str, list[dict[str, Any]]] = field(default_factory=dict, repr=False)

    def scope(self, task_id: Any) -> list[dict[str, Any]]:
        """The merged rows ranked in this task scope (read once `merged` is final)."""
        wanted = _text(task_id)
        if wanted not in self._scopes:
            self._scopes[wanted] = [
                r
                for r in self.merged
                if any(_text(s.get("task_id")) == wanted for s in scopes_of(r))
            ]
        return self._scopes[wanted]


def failure_reason(error: PwcError) -> str:
    """Our own short words: never the catalog's error text."""
    if isinstance(error, UpstreamTimeout):
        return "lookup failed (timed out)"
    if isinstance(error, HTTPStatusError):
        return f"lookup failed (HTTP {error.status})"
    if isinstance(error, ResponseError):
        return "lookup failed (unusable answer)"
    return "lookup failed (catalog unreachable)"


def _time_left() -> bool:
    left = deadline.remaining()
    return left is None or left >= RESERVE_SECONDS


def _read_page(client: Catalog, board: Board) -> None:
    payload = client.get_json(
        f"datasets/{entity_segment(board.dataset_id)}/evaluations/",
        {"page": board.pages + 1, "page_size": SCAN_PAGE_SIZE, "ordering": "best_rank"},
    )
    rows, total = extract_rows(payload)
    if board.pages == 0:
        board.total = total
    board.pages += 1
    fresh = take_fresh(rows, board.seen)
    board.rows.extend(fresh)
    # the benchmark scan's stopping rules (pwc_core.scan): the total reached, or a page that
    # adds nothing, which ends the scan without completing it
    board.complete = board.total is None or len(board.rows) >= board.total
    board.stalled = not board.complete and not fresh


def _scannable(board: Board) -> bool:
    return (
        board.failure is None
        and not board.complete
        and not board.stalled
        and board.total is not None
        and board.total <= SCAN_LIMIT
        and len(board.rows) < SCAN_LIMIT
    )


def look_up(client: Catalog, dataset_ids: list[str]) -> dict[str, Board]:
    """One lookup per benchmark: every first page, then further pages while the budget of
    `EXTRA_PAGES` and the call's deadline last. Failures are recorded, never raised."""
    boards = {d: Board(d) for d in dict.fromkeys(dataset_ids)}

    def read(board: Board) -> bool:
        """One more page; False when it could not be read (a first page: the lookup failed;
        a later one: the scan stops where it is, and the sorted first page still answers)."""
        try:
            _read_page(client, board)
        except PwcError as error:
            if board.pages == 0:
                board.failure = failure_reason(error)
            return False
        return True

    for board in boards.values():
        if _time_left():
            read(board)
        else:
            board.failure = DEADLINE
    extra = EXTRA_PAGES
    for board in boards.values():
        while _scannable(board) and extra > 0 and _time_left():
            extra -= 1
            if not read(board):
                break
    for board in boards.values():
        board.merged = merge_rows(board.rows)
        board.directions = board_directions(board.merged)
        # cut by the deadline, the page budget or a stalled scan (not a board that is simply
        # longer than the bound: that answer is the same every time)
        if board.failure is not None or board.stalled or _scannable(board):
            degraded.note(board.failure or INCOMPLETE)
    return boards


# --- comparison ---------------------------------------------------------------------------


def _number(row: dict[str, Any], metric: str) -> float | None:
    value = metric_value(row, metric)
    return value if value is not None and math.isfinite(value) else None


def ranked_metric(row: dict[str, Any], scope_rows: list[dict[str, Any]]) -> str | None:
    """The metric the row is compared on: its own ranked metric, else its scope's."""
    for name in (row.get("best_metric"), primary_metric(scope_rows)):
        if name and _number(row, str(name)) is not None:
            return str(name)
    return None


def gap(best: float, value: float, direction: str) -> float:
    """How far behind `value` is, in decimal arithmetic on the shown numbers (35.0 - 28.4 is
    6.6, not 6.600000000000001); never negative."""
    difference = Decimal(repr(best)) - Decimal(repr(value))
    if direction == "lower":
        difference = -difference
    return float(difference) if difference > 0 else 0.0


def _better(a: float, b: float, direction: str) -> bool:
    return a > b if direction == "higher" else a < b


def _about(row: dict[str, Any]) -> dict[str, Any]:
    """Who holds the best value, and what the value depends on (extra data, the protocol)."""
    return {
        "model_name": row.get("model_name"),
        "paper_title": row.get("paper_title"),
        "paper_id": None if row.get("paper_id") is None else str(row["paper_id"]),
        "uses_additional_data": row.get("uses_additional_data") is True,
        "protocol": row.get("methodology") if isinstance(row.get("methodology"), str) else None,
    }


def compare(row: dict[str, Any], board: Board | None) -> dict[str, Any]:
    """`{"sota": {...}}` or `{"sota_unavailable": reason}` for one merged paper row."""
    if board is None:
        return {"sota_unavailable": NO_BENCHMARK}
    if board.failure:
        return {"sota_unavailable": board.failure}
    scope = scopes_of(row)[0]
    scope_rows = board.scope(scope.get("task_id"))
    metric = ranked_metric(row, scope_rows)
    if metric is None:
        return {"sota_unavailable": NOT_REPORTED}
    direction = board.directions.of(metric)
    if direction is None:
        return {"sota_unavailable": DIRECTION_UNKNOWN}
    value = _number(row, metric)
    assert value is not None  # ranked_metric chose a metric the row reports
    others = _others(row, scope_rows, metric, value)
    rank: int | None
    of: int | None
    rivals: list[tuple[float, dict[str, Any]]]
    if board.complete:
        rivals = others
        rank = 1 + sum(_better(number, value, direction) for number, _ in others)
        of = len(others) + 1
    elif _text(primary_metric(scope_rows)).casefold() == metric.casefold():
        # the catalog ranks this scope by this metric: its rank-1 rows are on the sorted page
        rivals = [(n, r) for n, r in others if _scope_rank(r, scope.get("task_id")) == 1]
        listed = scope.get("rank")
        if not rivals and listed != 1:
            return {"sota_unavailable": INCOMPLETE}
        rank = listed if isinstance(listed, int) and not isinstance(listed, bool) else None
        of = None
    else:
        return {"sota_unavailable": INCOMPLETE}
    best_row, best = row, value
    for number, other in rivals:  # in rank order: the first of equals is the best
        if _better(number, best, direction):
            best_row, best = other, number
    return {
        "sota": {
            "metric": metric,
            "direction": direction,
            "value": best,
            "gap": gap(best, value, direction),
            "rank": rank,
            "of": of,
            **_about(best_row),
        }
    }


def _others(
    row: dict[str, Any], scope_rows: list[dict[str, Any]], metric: str, value: float
) -> list[tuple[float, dict[str, Any]]]:
    """(value, row) of the scope's rows that report the metric, the paper row itself left out
    (the leaderboard's copy of it: same merge key and value)."""
    own = merge_key(row)
    found = False
    others = []
    for other in scope_rows:
        number = _number(other, metric)
        if number is None:
            continue
        if not found and number == value and merge_key(other) == own:
            found = True
            continue
        others.append((number, other))
    return others


def _scope_rank(row: dict[str, Any], task_id: Any) -> int | None:
    wanted = _text(task_id)
    for scope in scopes_of(row):
        if _text(scope.get("task_id")) == wanted:
            rank = scope.get("rank")
            return rank if isinstance(rank, int) and not isinstance(rank, bool) else None
    return None


def against_sota(client: Catalog, rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Each row gains `sota` or `sota_unavailable`; returns the call's summary: how many
    benchmarks were looked up, the pages read, and each scope that could not be compared."""
    datasets = [_text(r.get("dataset_id")) for r in rows if _text(r.get("dataset_id"))]
    boards = look_up(client, datasets)
    unavailable: dict[tuple[str, str, str], dict[str, Any]] = {}
    for row in rows:
        outcome = compare(row, boards.get(_text(row.get("dataset_id"))))
        row.update(outcome)
        reason = outcome.get("sota_unavailable")
        if reason:
            scope = scopes_of(row)[0]
            key = (_text(row.get("dataset_id")), _text(scope.get("task_id")), reason)
            unavailable.setdefault(
                key,
                {
                    "dataset_id": row.get("dataset_id"),
                    "dataset_name": row.get("dataset_name"),
                    "task_id": scope.get("task_id"),
                    "task_name": scope.get("task_name"),
                    "reason": reason,
                },
            )
    return {
        "benchmarks": len(boards),
        "pages_read": sum(b.pages for b in boards.values()),
        "unavailable": list(unavailable.values()),
    }
