"""Handlers for `benchmark --name` (docs/upstream-api.md#benchmark-leaderboard) and
`benchmark list` (docs/upstream-api.md#benchmark-list)."""

from __future__ import annotations

import argparse
from typing import Any

from pwc_core.board import leaderboard
from pwc_core.commands import Answer, Catalog, common, handler
from pwc_core.errors import UpstreamShapeError, UsageError
from pwc_core.replies import extract_rows
from pwc_core.routes import routes
from pwc_core.suggest import siblings
from pwc_core.timeline import check_flags
from pwc_core.transport import entity_segment
from pwc_core.wording import Option, Words

BENCHMARK_FIELDS = ("name", "full_name", "slug", "id")
TRENDS_LIMIT = 100
GROUPED_MIN_EVAL_COUNT = 2
# The catalog routes these commands read (evaluations/ also for `paper evaluations`).
ROUTES = routes(
    """
    datasets/                     list  general
    datasets/{id}/evaluations/    list  general
    evaluations/                  list  general
    areas/with-task-benchmarks/   list  taxonomy
    """
)


def metric_mode(args: argparse.Namespace) -> bool:
    """Flags that select rows by their metrics (a timeline too) or by a flag the catalog cannot
    filter on (extra training data): the selection is refused on a board longer than the scan
    bound, where it would silently miss rows."""
    return bool(
        getattr(args, "timeline", False)
        or getattr(args, "extra_training_data", None) is not None
        or getattr(args, "require_metrics", ())
        or getattr(args, "minimum_metrics", ())
        or getattr(args, "maximum_metrics", ())
        or getattr(args, "sort_metric", None)
        or getattr(args, "pareto", None)
    )


def _int(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


@handler("benchmark")
def benchmark(args: argparse.Namespace, client: Catalog) -> Answer:
    name = (args.name or "").strip()
    if not name:
        raise UsageError(Words("benchmark inspection requires {}", Option("--name")))
    check_flags(args)
    search = common.q_search(client, "datasets/", {"page": 1, "page_size": 100})
    rows = search(name)
    found = common.find_entity(rows, args.name, BENCHMARK_FIELDS, "Benchmark", search=search)
    data, selection = leaderboard(client, args, found, metric_mode(args))
    # the other benchmarks of the lookup that contain its name: "Penn Treebank (Word Level)"
    data["similar_benchmarks"] = siblings(rows, found)
    return Answer(data, selection)


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
        raise UsageError(
            Words("{} cannot be combined with task/search/pagination filters", Option("--area"))
        )
    if args.area and args.flat:
        raise UsageError("--area cannot be combined with --flat; --area selects grouped output")
    if not filtered and (args.group_by_area or args.area):
        return _grouped(args, client)
    if trending_mode(args):
        return _trending(args, client)
    if args.order_by == "trending":
        raise UsageError(
            Words("{} requires {}", Option("--order-by", "trending"), Option("--task"))
        )
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
            "ordering": common.ordering(args.order_by or "name", args.order_dir),
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
        wanted = common.resolve_area(common.fetch_areas(client), args.area)
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
        needle = common.fold(args.search)
        rows = [
            r
            for r in rows
            if needle
            in common.fold(" ".join(str(r.get(k) or "") for k in ("name", "full_name", "slug")))
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
