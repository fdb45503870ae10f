"""Handlers for tasks, methods, conferences, organizations and frameworks
(docs/upstream-api.md#taxonomy-commands)."""

from __future__ import annotations

import argparse
from typing import Any

from pwc_core.commands import Catalog, handler
from pwc_core.commands.common import (
    fetch_areas,
    find_entity,
    fold,
    ordering,
    q_search,
    resolve_area,
)
from pwc_core.errors import UpstreamShapeError, UsageError
from pwc_core.replies import extract_rows, require_object
from pwc_core.routes import routes
from pwc_core.transport import entity_segment
from pwc_core.wording import Option, Words

LOOKUP = {"page": 1, "page_size": 100}
SHAPE = "API returned an unexpected response shape"
COMMON_METHODS = 8
PAPER_SAMPLE_SHOWN = 10
# the grouped listing, and its way out: `--flat` in the CLI, `group_by_area: false` in a tool
GROUPED, FLAT = Option("--group-by-area"), Option("--group-by-area", False, cli="--flat")
# The catalog routes these commands read (areas/ also for the benchmark commands' --area).
ROUTES = routes(
    """
    areas/                            list     taxonomy
    areas/with-tasks/                 list     taxonomy
    tasks/                            list     taxonomy
    tasks/{id}                        object   taxonomy
    tasks/{id}/page                   object   taxonomy
    tasks/{id}/papers                 list     taxonomy
    tasks/{ref}/trending-benchmarks   results  taxonomy
    methods/                          list     taxonomy
    methods/{id}                      object   taxonomy
    conferences/                      list     taxonomy
    conferences/{id}                  object   taxonomy
    organizations/                    list     taxonomy
    organizations/{id}                object   taxonomy
    frameworks/                       object   taxonomy
    """
)


def _required_name(args: argparse.Namespace, entity: str) -> str:
    name = (getattr(args, "name", None) or "").strip()
    if not name:
        raise UsageError(Words(f"{entity} inspection requires {{}}", Option("--name")))
    return name


def _area(areas: dict[str, str], area_id: Any) -> dict[str, str] | None:
    if area_id is None or str(area_id) not in areas:
        return None
    return {"id": str(area_id), "name": areas[str(area_id)]}


def _with_area_names(payload: Any, areas: dict[str, str]) -> Any:
    """A copy of a list payload whose rows carry `area_name` (for the area column)."""

    def named(rows: list[Any]) -> list[Any]:
        return [
            {**row, "area_name": areas.get(str(row.get("area_id")))}
            if isinstance(row, dict)
            else row
            for row in rows
        ]

    if isinstance(payload, list):
        return named(payload)
    key = "results" if payload.get("results") is not None else "items"
    return {**payload, key: named(payload[key])}


def _area_listing(client: Catalog, route: str, args: argparse.Namespace, **filters: Any) -> Any:
    """One page of a searchable list route, `--area` resolved to its ID and every row named with
    its area (tasks and methods)."""
    areas = fetch_areas(client)
    payload = client.get_json(
        route,
        {
            "page": args.page,
            "page_size": args.page_size,
            "q": args.search or None,
            "area_id": resolve_area(areas, args.area) if args.area else None,
            **filters,
            "ordering": ordering(args.order_by, args.order_dir),
        },
    )
    extract_rows(payload)
    return _with_area_names(payload, areas)


# --- tasks --------------------------------------------------------------------------------


def _task_summary(client: Catalog, name: str, typed: str) -> dict[str, Any]:
    if name.isdigit():
        return require_object(client.get_json(f"tasks/{entity_segment(name)}"), SHAPE)
    search = q_search(client, "tasks/", LOOKUP)
    return find_entity(search(name), typed, ("name", "slug", "id"), "Task", search=search)


def rank_benchmarks(page_benchmarks: list[Any], trends: list[Any]) -> list[dict[str, Any]]:
    """Server trend order first (page fields overlaid by trend fields), then untrended ones."""
    by_id = {str(b.get("id")): b for b in page_benchmarks if isinstance(b, dict)}
    ranked, seen = [], set()
    for trend in trends:
        if not isinstance(trend, dict):
            continue
        key = str(trend.get("id"))
        if key in by_id and key not in seen:
            ranked.append({**by_id[key], **trend})
            seen.add(key)
    ranked.extend(b for key, b in by_id.items() if key not in seen)
    return ranked


def common_methods(papers: list[dict[str, Any]]) -> list[dict[str, Any]]:
    counts: dict[str, int] = {}
    first: dict[str, dict[str, Any]] = {}
    for paper in papers:
        for method in paper.get("methods") or []:
            if not isinstance(method, dict):
                continue
            key = method.get("slug") or method.get("id")
            if key in (None, ""):
                continue
            key = str(key)
            counts[key] = counts.get(key, 0) + 1
            first.setdefault(key, method)
    order = sorted(counts, key=lambda k: (-counts[k], fold(first[k].get("name"))))
    return [{**first[k], "paper_count": counts[k]} for k in order[:COMMON_METHODS]]


@handler("task")
def task(args: argparse.Namespace, client: Catalog) -> dict[str, Any]:
    name = _required_name(args, "task")
    summary = _task_summary(client, name, args.name)
    task_id = entity_segment(str(summary.get("id")))
    page = client.get_json(f"tasks/{task_id}/page")
    if not isinstance(page, dict) or not isinstance(page.get("task"), dict):
        raise UpstreamShapeError("task page API returned an unexpected response shape")
    trends = client.get_json(
        f"tasks/{task_id}/trending-benchmarks", {"limit": 100, "min_recent_papers": 0}
    )
    if not isinstance(page.get("benchmarks"), list):
        raise UpstreamShapeError("task page API did not contain a benchmark list")
    if not isinstance(trends, dict) or not isinstance(trends.get("results"), list):
        raise UpstreamShapeError("benchmark trends API returned an unexpected response shape")
    papers_payload = client.get_json(
        f"tasks/{task_id}/papers",
        {
            "page": 1,
            "page_size": 100,
            "order_by": "trending",
            "order_dir": "desc",
            "include_resources": True,
        },
    )
    papers, papers_total = extract_rows(papers_payload)
    areas = fetch_areas(client)
    task_object = dict(page["task"])
    for key in ("paper_count", "benchmark_count", "evaluation_count"):
        if summary.get(key) is not None:
            task_object[key] = summary[key]

    def listed(key: str) -> list[Any]:
        value = page.get(key)
        return value if isinstance(value, list) else []

    return {
        "task": task_object,
        "area": _area(areas, summary.get("area_id")),
        "parents": listed("parents"),
        "sisters": listed("sisters"),
        "recommended_frameworks": listed("recommended_frameworks"),
        "children": listed("children"),
        "benchmarks": rank_benchmarks(page["benchmarks"], trends["results"]),
        "subtask_benchmarks": listed("subtask_benchmarks"),
        "common_methods": common_methods(papers),
        "paper_sample_size": len(papers),
        "paper_count": papers_total if papers_total is not None else len(papers),
        "papers": papers[:PAPER_SAMPLE_SHOWN],
    }


def _sort_key(task_row: dict[str, Any], field: str) -> tuple[bool, bool, Any]:
    value = task_row.get(field)
    if value is None:
        return (True, False, 0)
    if isinstance(value, str):
        return (False, True, value.casefold())
    return (False, False, value)


@handler("task list")
def task_list(args: argparse.Namespace, client: Catalog) -> Any:
    # Grouping is the caller's choice, never the terminal's: a terminal and a pipe get the
    # same rows (only their presentation differs).
    if args.group_by_area:
        return _grouped_tasks(args, client, args.page == 1 and args.page_size == 50)
    return _area_listing(client, "tasks/", args, level=args.level, visible_only=args.visible_only)


def _grouped_tasks(args: argparse.Namespace, client: Catalog, default_page: bool) -> dict[str, Any]:
    if not default_page or args.level is not None:
        raise UsageError(
            Words(
                "{} cannot be combined with pagination or {}; use {} for the complete task "
                "endpoint",
                GROUPED,
                Option("--level"),
                FLAT,
            )
        )
    if args.search:
        raise UsageError(
            Words(
                "{} cannot be combined with {}; use {} to search tasks",
                GROUPED,
                Option("--search"),
                FLAT,
            )
        )
    rows, _ = extract_rows(client.get_json("areas/with-tasks/"))
    if args.area:
        names = {
            str(a["id"]): str(a["name"]) for a in rows if a.get("id") is not None and a.get("name")
        }
        wanted = resolve_area(names, args.area)
        rows = [a for a in rows if str(a.get("id")) == wanted]
    results = []
    for area in rows:
        tasks = [t for t in area.get("tasks") or [] if isinstance(t, dict)]
        tasks.sort(key=lambda t: _sort_key(t, args.order_by), reverse=args.order_dir == "desc")
        results.append({**area, "tasks": tasks})
    return {"count": sum(len(a["tasks"]) for a in results), "results": results}


# --- methods ------------------------------------------------------------------------------


@handler("method")
def method(args: argparse.Namespace, client: Catalog) -> dict[str, Any]:
    name = _required_name(args, "method")
    if name.isdigit():
        ref = name
    else:
        search = q_search(client, "methods/", LOOKUP)
        row = find_entity(
            search(name),
            args.name,
            ("name", "full_name", "slug", "id"),
            "Method",
            fallback_slug=True,
            search=search,
        )
        ref = str(row.get("id") if row.get("id") is not None else row.get("slug"))
    detail = require_object(client.get_json(f"methods/{entity_segment(ref)}"), SHAPE)
    areas = fetch_areas(client)
    return {"method": detail, "area": _area(areas, detail.get("area_id"))}


@handler("method list")
def method_list(args: argparse.Namespace, client: Catalog) -> Any:
    return _area_listing(client, "methods/", args, introduced_year=args.introduced_year)


# --- conferences and organizations --------------------------------------------------------


def _detail_ref(row: dict[str, Any]) -> str:
    return entity_segment(str(row.get("slug") or row.get("id")))


@handler("conference")
def conference(args: argparse.Namespace, client: Catalog) -> dict[str, Any]:
    _required_name(args, "conference")
    rows, _ = extract_rows(client.get_json("conferences/"))
    row = find_entity(rows, args.name, ("name", "slug", "id"), "Conference", fallback_slug=True)
    return require_object(client.get_json(f"conferences/{_detail_ref(row)}"), SHAPE)


def _year(value: Any) -> int | None:
    try:
        return int(value) if not isinstance(value, bool) else None
    except (TypeError, ValueError):
        return None


@handler("conference list")
def conference_list(args: argparse.Namespace, client: Catalog) -> dict[str, Any]:
    rows, _ = extract_rows(client.get_json("conferences/"))
    if args.year is not None:
        rows = [row for row in rows if _year(row.get("year")) == args.year]
    return {"count": len(rows), "results": rows}


@handler("organization")
def organization(args: argparse.Namespace, client: Catalog) -> dict[str, Any]:
    _required_name(args, "organization")
    rows, _ = extract_rows(client.get_json("organizations/", {"featured_only": False}))
    row = find_entity(rows, args.name, ("name", "slug", "id"), "Organization", fallback_slug=True)
    return require_object(client.get_json(f"organizations/{_detail_ref(row)}"), SHAPE)


@handler("organization list")
def organization_list(args: argparse.Namespace, client: Catalog) -> Any:
    payload = client.get_json("organizations/", {"featured_only": args.featured_only})
    extract_rows(payload)
    return payload


# --- frameworks ---------------------------------------------------------------------------


def flatten_frameworks(payload: Any) -> list[dict[str, Any]]:
    """Every framework of the catalog, with its domain and category slug and name."""
    if not isinstance(payload, dict) or not isinstance(payload.get("domains"), list):
        raise UpstreamShapeError("framework catalog returned an unexpected response shape")
    flat = []
    for domain in payload["domains"]:
        if not isinstance(domain, dict):
            continue
        for category in domain.get("categories") or []:
            if not isinstance(category, dict):
                continue
            for framework in category.get("frameworks") or []:
                if isinstance(framework, dict):
                    flat.append(
                        {
                            **framework,
                            "domain_slug": domain.get("slug"),
                            "domain_name": domain.get("name"),
                            "category_slug": category.get("slug"),
                            "category_name": category.get("name"),
                        }
                    )
    return flat


@handler("framework")
def framework(args: argparse.Namespace, client: Catalog) -> dict[str, Any]:
    _required_name(args, "framework")
    rows = flatten_frameworks(client.get_json("frameworks/"))
    return find_entity(rows, args.name, ("name", "slug", "id"), "Framework", fallback_slug=True)


def _platforms(row: dict[str, Any]) -> list[str]:
    platforms = row.get("platforms")
    return [fold(p) for p in platforms] if isinstance(platforms, list) else []


@handler("framework list")
def framework_list(args: argparse.Namespace, client: Catalog) -> dict[str, Any]:
    rows = flatten_frameworks(client.get_json("frameworks/"))
    if args.domain:
        rows = [
            r for r in rows if fold(args.domain) in (fold(r["domain_slug"]), fold(r["domain_name"]))
        ]
    if args.category:
        rows = [
            r
            for r in rows
            if fold(args.category) in (fold(r["category_slug"]), fold(r["category_name"]))
        ]
    if args.platform:
        rows = [r for r in rows if fold(args.platform) in _platforms(r)]
    return {"count": len(rows), "results": rows}
