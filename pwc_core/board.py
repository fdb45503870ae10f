"""One benchmark's leaderboard, decided over the whole board, then sliced into pages
(docs/upstream-api.md#benchmark-leaderboard, README.md#leaderboards).

Every request reads the board the same way: pages of 100 ordered by `best_rank`, bounded like
every scan (pwc_core/scan.py), so the sorted and unsorted paths share cache entries. The main
task scope, the metric directions and the order are properties of the rows read, never of the
page in hand; a page is a slice of that one order, so every row is on exactly one page. A board
longer than the bound is ordered over the rows read, and the payload and the text say so.
"""

from __future__ import annotations

import argparse
import dataclasses
from typing import Any

from pwc_core import degraded
from pwc_core.bests import scope_bests
from pwc_core.directions import Directions, board_directions, stated_metric
from pwc_core.errors import RefusedRequest, UnconfirmedFilter
from pwc_core.leaderboard import select, sort_order
from pwc_core.merging import merge_rows
from pwc_core.metrics import BoardMetrics, available_metrics, catalog_metrics, parameter_count
from pwc_core.replies import Catalog
from pwc_core.scan import INCOMPLETE, MAX_ROWS, ROW_LIMIT, Scan, scan
from pwc_core.scopes import order_by_scope, scope_summary
from pwc_core.selection import Criteria, Selection, criteria
from pwc_core.timeline import sota_timeline, timeline_metric
from pwc_core.transport import entity_segment


def _int(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


class Board:
    """Reads one benchmark's evaluation rows, via the size-capped route when asked."""

    def __init__(self, client: Catalog, args: argparse.Namespace, dataset_id: str) -> None:
        self.client = client
        self.args = args
        self.dataset_id = dataset_id
        self.cap: int | None = args.max_parameters
        self.coverage: dict[str, int] | None = None

    @property
    def filtered_upstream(self) -> bool:
        """Whether the catalog filters the rows it sends (docs/upstream-api.md#benchmark-leaderboard)."""
        return self.cap is not None or self.args.is_open is not None

    def fetch(self, page: int, page_size: int, *, unfiltered: bool = False) -> Any:
        params: dict[str, Any] = {"page": page, "page_size": page_size}
        if self.cap is None or unfiltered:
            path = f"datasets/{entity_segment(self.dataset_id)}/evaluations/"
            is_open = None if unfiltered else self.args.is_open
            params |= {"ordering": "best_rank", "is_open": is_open}
        else:
            path = "evaluations/"
            params |= {
                "dataset_id": self.dataset_id,
                "ordering": "best_rank",
                "is_open": self.args.is_open,
                "max_parameters_exclusive": self.cap + 1,
            }
        return self.client.get_json(path, params)

    def _confirm(self, payload: Any) -> None:
        """Fail closed: a size-capped answer must say how many rows have a known size."""
        if self.cap is None:
            return
        known = _int(payload.get("parameter_coverage_known")) if isinstance(payload, dict) else None
        whole = _int(payload.get("parameter_coverage_total")) if isinstance(payload, dict) else None
        if known is None or whole is None:
            raise UnconfirmedFilter(
                "parameter filtering requires a compatible API; server must be upgraded"
            )
        self.coverage = {"known": known, "total": whole}

    def read(self, *, refuse_long: bool) -> Scan:
        """The board's rows. `refuse_long`: metric selection over a board longer than the bound
        is refused (its answer would silently miss rows); otherwise the rows read are used."""

        def check(payload: Any) -> None:
            self._confirm(payload)
            count = _int(payload.get("count")) if isinstance(payload, dict) else None
            if refuse_long and count is not None and count > MAX_ROWS:
                raise RefusedRequest(_refusal(count))

        result = scan(self.fetch, follow_next=self.cap is not None, check=check)
        if refuse_long and result.stopped == ROW_LIMIT:
            raise RefusedRequest(_refusal(result.total or f"more than {len(result.rows)}"))
        return result

    def read_whole(self) -> Scan:
        """The board before the catalog's filters, bounded like every scan: its rows decide the
        main scope and the directions. The same request as an unfiltered call's read, so both
        share one cache entry."""
        return scan(lambda page, size: self.fetch(page, size, unfiltered=True))


def extra_data_filter(
    rows: list[dict[str, Any]], asked: str | None
) -> tuple[list[dict[str, Any]], int]:
    """The rows known to use extra training data (`"true"`) or known not to (`"false"`), and
    how many were left out because the catalog does not say; the catalog cannot filter on it
    (docs/upstream-api.md#benchmark-leaderboard). Not asked: every row, none left out."""
    if asked is None:
        return rows, 0
    wanted = asked == "true"
    known = [r for r in rows if isinstance(r.get("uses_additional_data"), bool)]
    return [r for r in known if r["uses_additional_data"] is wanted], len(rows) - len(known)


def _refusal(needed: Any) -> str:
    return (
        f"metric selection requires scanning {needed} evaluation rows; safety limit is {MAX_ROWS}"
    )


def stated_directions(args: argparse.Namespace, names: BoardMetrics) -> dict[str, str]:
    """Directions the caller stated, keyed by the board's spelling of each metric: `--metric
    NAME:higher`, `--sort NAME:lower`, and every Pareto objective."""
    # (dest, name, direction): an ambiguous name's error names the option that asked
    asked = [("pareto", name, way) for name, way in getattr(args, "pareto", None) or ()]
    metric, direction = stated_metric(getattr(args, "metric", None))
    if metric and direction:
        asked.append(("metric", metric, direction))
    sort = getattr(args, "sort_metric", None)
    if sort and sort[1] in ("higher", "lower"):
        asked.append(("sort_metric", sort[0], sort[1]))
    stated: dict[str, str] = {}
    for about, name, way in asked:
        found = names.match(name, about)  # unknown ones: refused by the selection
        if found is not None:
            stated[found] = way
    return stated


def _ordering(chosen: Criteria, directions: Directions, read: Scan) -> dict[str, Any]:
    """What order the rows are in, and whether it covers the whole board."""
    applied: dict[str, Any] = {"by": "task scope"}
    if chosen.sort or chosen.pareto:
        metric, word = chosen.sort or chosen.pareto[0]
        descending, basis = sort_order(word, metric, directions)
        applied = {
            "by": "sort" if chosen.sort else "pareto",
            "metric": metric,
            "order": "desc" if descending else "asc",
            "basis": basis,
            "direction": directions.of(metric),
            "direction_source": directions.source(metric),
        }
    applied |= {"complete": read.complete, "rows_ordered": len(read.rows)}
    if read.stopped:
        applied["stopped"] = read.stopped
    return applied


def leaderboard(
    client: Catalog, args: argparse.Namespace, found: dict[str, Any], selecting: bool
) -> tuple[dict[str, Any], Selection]:
    """The `benchmark --name` payload for the benchmark row `found`, and the selection it
    resolved (carried beside the payload, never in it)."""
    timeline = bool(getattr(args, "timeline", False))
    dataset = str(found.get("id"))
    board = Board(client, args, dataset)
    read = board.read(refuse_long=selecting and not timeline)
    if not read.complete:
        degraded.note(INCOMPLETE)
    merged = merge_rows(read.rows)
    if board.cap is not None:
        for row in merged:
            size = parameter_count(row)
            if size is None or size > board.cap:
                raise UnconfirmedFilter(
                    "API returned a model outside the requested parameter limit"
                )
    # decide over the whole board, then filter: the rows before the catalog's filters
    whole = merge_rows(board.read_whole().rows) if board.filtered_upstream else merged
    asked_extra = getattr(args, "extra_training_data", None)
    kept, unknown = extra_data_filter(merged, asked_extra)
    # the board's metric names, once: every option's name is matched against them once
    board_names = BoardMetrics(available_metrics(kept))
    directions = board_directions(whole, stated_directions(args, board_names))
    whole_ordered, main = order_by_scope(whole, [dataset], directions)
    ordered, _ = order_by_scope(kept, [dataset], directions, basis=whole)
    # resolved before the other metric filters, so a wrong --metric is named even when
    # --require-metrics or --min would drop every row
    metric = None
    name, _ = stated_metric(getattr(args, "metric", None))
    if timeline:
        metric = timeline_metric(ordered, main.get(dataset), name, directions, board_names)
    chosen = Criteria()
    if selecting:
        chosen = criteria(
            board_names,
            required=args.require_metrics or (),
            minimum=args.minimum_metrics or (),
            maximum=args.maximum_metrics or (),
            sort=args.sort_metric,
            pareto=args.pareto,
        )
    named = metric[0] if metric and name is not None else None  # the --metric, resolved
    selection = Selection(args.page, args.limit, selecting, metric=named, chosen=chosen)
    selected = matching = ordered
    if selecting:
        selected = select(ordered, chosen, directions)
        # a sort (which keeps the rows reporting its metric) or a frontier shapes the page;
        # neither is a filter of what leads a scope
        if chosen.sort or chosen.pareto:
            matching = select(
                ordered, dataclasses.replace(chosen, sort=None, pareto=()), directions
            )
        else:
            matching = selected
    thresholds = chosen.required or chosen.minimum or chosen.maximum
    filtered = board.filtered_upstream or asked_extra is not None or bool(thresholds)
    start = (args.page - 1) * args.limit
    results = [
        {**row, "metric_directions": directions.for_metrics(row.get("metrics") or {})}
        for row in selected[start : start + args.limit]
    ]
    names = catalog_metrics(results)
    data: dict[str, Any] = {
        "benchmark": found,
        "count": read.total if read.total is not None else len(read.rows),
        "matched_count": len(selected),
        "page": args.page,
        "next_page": args.page + 1 if len(selected) > start + args.limit else None,
        "results": results,
        "rows_read": len(read.rows),
        "merged_count": len(merged),
        "task_scopes": scope_summary(results, main, directions),
        "metric_directions": directions.for_metrics(names),
        "metric_direction_sources": directions.sources_for(names),
        "ordering": _ordering(chosen, directions, read),
        "scope_bests": scope_bests(
            whole_ordered, matching, directions, main.get(dataset), filtered
        ),
    }
    if asked_extra is not None:
        data["unknown_extra_training_data"] = unknown
    if board.coverage is not None:
        data["parameter_coverage"] = board.coverage
    if timeline:
        data["timeline"] = sota_timeline(selected, metric, complete=read.complete)
    return data, selection
