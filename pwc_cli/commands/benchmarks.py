"""Handlers for `benchmark --name` (docs/upstream-api.md#benchmark-leaderboard) and
`benchmark list` (docs/upstream-api.md#benchmark-list)."""

from __future__ import annotations

import argparse
from typing import Any

from pwc_cli.commands import Catalog, handler
from pwc_cli.commands.common import (
    extract_rows,
    fetch_areas,
    find_entity,
    fold,
    ordering,
    resolve_area,
)
from pwc_cli.errors import RefusedRequest, UnconfirmedFilter, UpstreamShapeError, UsageError
from pwc_cli.leaderboard import merge_rows, metric_directions, select_rows
from pwc_cli.routes import GENERAL, LIST, TAXONOMY, Route
from pwc_cli.scopes import order_by_scope, scope_summary
from pwc_cli.timeline import check_flags, sota_timeline, timeline_metric
from pwc_cli.transport import entity_segment

BENCHMARK_FIELDS = ("name", "full_name", "slug", "id")
SCAN_PAGE_SIZE = 100
SCAN_LIMIT = 1000
TRENDS_LIMIT = 100
GROUPED_MIN_EVAL_COUNT = 2
# The catalog routes these commands read (evaluations/ also for `paper evaluations`).
ROUTES = (
    Route("datasets/", LIST, GENERAL),
    Route("datasets/{id}/evaluations/", LIST, GENERAL),
    Route("evaluations/", LIST, GENERAL),
    Route("areas/with-task-benchmarks/", LIST, TAXONOMY),
)


def metric_mode(args: argparse.Namespace) -> bool:
    """Flags that make the handler scan the whole leaderboard (a timeline too)."""
    return bool(
        getattr(args, "timeline", False)
        or getattr(args, "require_metrics", ())
        or getattr(args, "minimum_metrics", ())
        or getattr(args, "maximum_metrics", ())
        or getattr(args, "sort_metric", None)
        or getattr(args, "pareto", None)
    )


def _int(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


class _Leaderboard:
    """Fetches evaluation rows of one benchmark, via the size-capped route when asked."""

    def __init__(self, client: Catalog, args: argparse.Namespace, dataset_id: str) -> None:
        self.client = client
        self.args = args
        self.dataset_id = dataset_id
        self.cap = args.max_parameters
        self.coverage: dict[str, int] | None = None
        self.complete = True  # False when a bounded scan stopped before the last row

    def fetch(self, page: int, page_size: int) -> tuple[Any, list[dict[str, Any]], int | None]:
        params: dict[str, Any] = {"page": page, "page_size": page_size}
        if self.cap is None:
            path = f"datasets/{entity_segment(self.dataset_id)}/evaluations/"
            params |= {"ordering": "best_rank", "is_open": self.args.is_open}
        else:
            path = "evaluations/"
            params |= {
                "dataset_id": self.dataset_id,
                "ordering": "best_rank",
                "is_open": self.args.is_open,
                "max_parameters_exclusive": self.cap + 1,
            }
        payload = self.client.get_json(path, params)
        rows, total = extract_rows(payload)
        if self.cap is not None:
            known = (
                _int(payload.get("parameter_coverage_known")) if isinstance(payload, dict) else None
            )
            whole = (
                _int(payload.get("parameter_coverage_total")) if isinstance(payload, dict) else None
            )
            if known is None or whole is None:
                raise UnconfirmedFilter(
                    "parameter filtering requires a compatible API; server must be upgraded"
                )
            self.coverage = {"known": known, "total": whole}
        return payload, rows, total

    def scan(self, bounded: bool = False) -> tuple[list[dict[str, Any]], int | None]:
        """Every row from page 1 (page size 100), refusing to go beyond 1,000 rows; `bounded`
        stops at 1,000 rows instead and sets `complete` to False."""
        collected: list[dict[str, Any]] = []
        page, total = 1, None
        while True:
            payload, rows, count = self.fetch(page, SCAN_PAGE_SIZE)
            if page == 1:
                total = count
            collected.extend(rows)
            if self.cap is not None:
                next_page = payload.get("next_page") if isinstance(payload, dict) else None
                if next_page is None:
                    return collected, total
            elif total is None or len(collected) >= total or not rows:
                return collected, total
            if bounded and len(collected) >= SCAN_LIMIT:
                self.complete = False
                return collected[:SCAN_LIMIT], total
            if not bounded and (
                len(collected) >= SCAN_LIMIT or (total is not None and total > SCAN_LIMIT)
            ):
                needed = total if total is not None else f"more than {len(collected)}"
                raise RefusedRequest(
                    f"metric selection requires scanning {needed} evaluation rows; "
                    f"safety limit is {SCAN_LIMIT}"
                )
            if self.cap is not None:
                following = _int(next_page)
                if following is None or following <= page:
                    raise UpstreamShapeError("API returned invalid evaluation pagination")
                page = following
            else:
                page += 1


@handler("benchmark")
def benchmark(args: argparse.Namespace, client: Catalog) -> dict[str, Any]:
    name = (args.name or "").strip()
    if not name:
        raise UsageError("benchmark inspection requires --name")
    check_flags(args)
    timeline = bool(getattr(args, "timeline", False))
    rows, _ = extract_rows(client.get_json("datasets/", {"q": name, "page": 1, "page_size": 100}))
    found = find_entity(rows, args.name, BENCHMARK_FIELDS, "Benchmark")
    board = _Leaderboard(client, args, str(found.get("id")))
    selecting = metric_mode(args)
    next_page = None
    if selecting:
        raw, total = board.scan(bounded=timeline)
    else:
        payload, raw, total = board.fetch(args.page, args.limit)
        raw = raw[: args.limit]  # an upstream page larger than asked is cut before counting
        next_page = _int(payload.get("next_page")) if isinstance(payload, dict) else None
    merged, main = order_by_scope(merge_rows(raw), [str(found.get("id"))])
    if board.cap is not None:
        for row in merged:
            size = _int(row.get("num_parameters"))
            if size is None or not 0 < size <= board.cap:
                raise UnconfirmedFilter(
                    "API returned a model outside the requested parameter limit"
                )
    # resolved before the other metric filters, so a wrong --metric is named even when
    # --require-metrics or --min would drop every row
    metric = None
    if timeline:
        request = getattr(args, "metric", None)
        metric = timeline_metric(merged, main.get(str(found.get("id"))), request)
    if selecting:
        selected = select_rows(
            merged,
            required=args.require_metrics or (),
            minimum=args.minimum_metrics or (),
            maximum=args.maximum_metrics or (),
            sort=args.sort_metric,
            pareto=args.pareto,
        )
        start = (args.page - 1) * args.limit
        results = selected[start : start + args.limit]
        next_page = args.page + 1 if len(selected) > start + args.limit else None
    else:
        selected = merged
        results = merged[: args.limit]
    data: dict[str, Any] = {
        "benchmark": found,
        "count": total if total is not None else len(raw),
        "matched_count": len(selected),
        "page": args.page,
        "next_page": next_page,
        "results": results,
        "rows_read": len(raw),
        "merged_count": len(merged),
        "task_scopes": scope_summary(results, main),
        "metric_directions": metric_directions(results),
    }
    if board.coverage is not None:
        data["parameter_coverage"] = board.coverage
    if timeline:
        data["timeline"] = sota_timeline(selected, metric, complete=board.complete)
    return data


# --- benchmark list -----------------------------------------------------------------------


def flat_filters(args: argparse.Namespace) -> bool:
    """Options that select the task-scoped flat listing (docs/upstream-api.md#benchmark-list)."""
    return bool(
        args.task
        or args.search
        or args.include_descendants
        or args.is_open is not None
        or args.order_by is not None
        or args.order_dir == "desc"
        or args.page != 1
        or args.page_size != 50
    )


def trending_mode(args: argparse.Namespace) -> bool:
    return bool(args.task) and args.order_by in (None, "trending")


@handler("benchmark list")
def benchmark_list(args: argparse.Namespace, client: Catalog) -> Any:
    if getattr(args, "max_parameters", None) is not None:
        raise UsageError("--max-parameters is only valid with benchmark --name")
    filtered = flat_filters(args)
    if args.area and filtered:
        raise UsageError("--area cannot be combined with task/search/pagination filters")
    if args.area and args.flat:
        raise UsageError("--area cannot be combined with --flat; --area selects grouped output")
    if not filtered and (args.group_by_area or args.area):
        return _grouped(args, client)
    if trending_mode(args):
        return _trending(args, client)
    if args.order_by == "trending":
        raise UsageError("--order-by trending requires --task")
    return client.get_json(
        "datasets/",
        {
            "page": args.page,
            "page_size": args.page_size,
            "q": args.search or None,
            "task": args.task or None,
            "include_descendants": args.include_descendants,
            "min_eval_count": args.min_eval_count,
            "is_open": args.is_open,
            "ordering": ordering(args.order_by or "name", args.order_dir),
        },
    )


def _grouped(args: argparse.Namespace, client: Catalog) -> dict[str, Any]:
    minimum = args.min_eval_count if args.min_eval_count is not None else GROUPED_MIN_EVAL_COUNT
    payload = client.get_json(
        "areas/with-task-benchmarks/",
        {"benchmarks_per_task": args.benchmarks_per_task, "min_eval_count": minimum},
    )
    areas, _ = extract_rows(payload)
    if args.area:
        # resolved against every area of the catalog: one without benchmarks is empty, not unknown
        wanted = resolve_area(fetch_areas(client), args.area)
        areas = [a for a in areas if str(a.get("id")) == wanted]
    benchmarks = sum(
        len(t.get("benchmarks") or [])
        for a in areas
        for t in a.get("tasks") or []
        if isinstance(t, dict)
    )
    return {"count": benchmarks, "results": areas}


def _trending(args: argparse.Namespace, client: Catalog) -> dict[str, Any]:
    payload = client.get_json(
        f"tasks/{entity_segment(args.task)}/trending-benchmarks",
        {
            "limit": TRENDS_LIMIT,
            "min_recent_papers": 0,
            "include_descendants": args.include_descendants,
            "is_open": args.is_open,
        },
    )
    if not isinstance(payload, dict) or not isinstance(payload.get("results"), list):
        raise UpstreamShapeError("API response did not contain benchmark trends")
    rows = [row for row in payload["results"] if isinstance(row, dict)]
    if args.search:
        needle = fold(args.search)
        rows = [
            r
            for r in rows
            if needle in fold(" ".join(str(r.get(k) or "") for k in ("name", "full_name", "slug")))
        ]
    if args.min_eval_count is not None:
        rows = [
            r for r in rows if (_int(r.get("all_time_paper_count")) or 0) >= args.min_eval_count
        ]
    start = (args.page - 1) * args.page_size
    page = rows[start : start + args.page_size]
    more = len(rows) > start + args.page_size
    return {
        **payload,
        "count": len(rows),
        "results": page,
        "next_page": args.page + 1 if more else None,
    }
