"""Taxonomy tools: tasks, methods, conferences, organizations, frameworks; the task resource."""

from __future__ import annotations

import json
from typing import Any

from fastmcp.server.providers import LocalProvider
from fastmcp.tools import ToolResult

from pwc_mcp.answers import texts
from pwc_mcp.answers.models import Record, RecordPage, lean_schema
from pwc_mcp.answers.projections import checked, checked_rows, paper_summary
from pwc_mcp.catalog import CatalogService
from pwc_mcp.params import HOSTED_ROW_CAP, validated
from pwc_mcp.tools import (
    READ_ONLY,
    bounded,
    flat_page,
    generated,
    more,
    payload_of,
    respond,
    rows_of,
)
from pwc_mcp.tools.papers import _as_resource

TASK_FIELDS = (
    "id",
    "name",
    "slug",
    "description",
    "paper_count",
    "benchmark_count",
    "evaluation_count",
    "level",
    "research_trends",
)


def task_result(catalog: CatalogService, name: str, params: dict[str, Any]) -> ToolResult:
    payload = payload_of(catalog, name, params)
    task = checked(payload.get("task") or {})
    limit = params.get("benchmark_limit") or 10
    benchmarks = checked_rows(payload.get("benchmarks"))
    item = {key: task.get(key) for key in TASK_FIELDS if task.get(key) is not None}
    item["area"] = payload.get("area")
    for key in ("parents", "children", "sisters", "common_methods", "recommended_frameworks"):
        item[key] = checked_rows(payload.get(key))
    item["subtask_benchmarks"] = [
        {"benchmarks": checked_rows(s.get("benchmarks"))}
        for s in checked_rows(payload.get("subtask_benchmarks"))
    ]
    item["benchmarks"] = benchmarks[:limit]
    papers = [paper_summary(p) for p in checked_rows(payload.get("papers"))]
    data = bounded({**payload, "benchmarks": benchmarks}, ("benchmarks",), limit)
    return respond(Record(data=data), texts.task(item, papers))


def record(payload: Any, area: Any = None) -> ToolResult:
    """A named record; one whose name or slug is not text is not a record we can show."""
    item = checked(payload)
    return respond(Record(data=payload), texts.record(item, area))


def page_of(payload: dict[str, Any], page: int, limit: int, label: str) -> ToolResult:
    """Client-side page of a complete list (conferences, organizations, frameworks)."""
    rows, total = rows_of(payload)
    start = (page - 1) * limit
    shown = rows[start : start + limit]
    next_page = page + 1 if start + limit < len(rows) else None
    data = {
        **payload,
        "count": total if total is not None else len(rows),
        "results": shown,
        "page": page,
        "next_page": next_page,
    }
    head = texts.found(data["count"], len(shown), label, page) + more(next_page)
    return respond(
        RecordPage(count=data["count"], page=page, next_page=next_page, data=data),
        texts.records(shown, head),
    )


def grouped(payload: dict[str, Any], key: str) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """Flatten area → rows, keeping at most the hosted cap across all areas."""
    items: list[dict[str, Any]] = []
    areas = []
    for area in payload.get("results") or []:
        if not isinstance(area, dict):
            continue
        room = HOSTED_ROW_CAP - len(items)
        rows = checked_rows(area.get(key))[: max(room, 0)]
        items.extend({**r, "area": area.get("name")} for r in rows)
        areas.append({**area, key: rows})
    return items, {**payload, "results": areas}


# Conferences, organizations and frameworks share one shape: a detail record and a complete
# list that the server pages itself (the catalog does not page these).
def entity_page(
    catalog: CatalogService, tool: str, params: dict[str, Any], label: str
) -> ToolResult:
    payload = payload_of(catalog, tool, params)
    return page_of(payload, params["page"], params["limit"], label)


def build(catalog: CatalogService) -> LocalProvider:
    provider = LocalProvider(on_duplicate="error")
    tool = provider.tool

    @tool(annotations=READ_ONLY, output_schema=lean_schema(Record))
    @generated
    def get_task(name: str, /, **params: Any) -> ToolResult:
        """A task (list_tasks finds it): hierarchy, benchmarks by recent activity, common methods,
        trending papers. Next: get_benchmark; its papers: list_papers(task=)."""
        return task_result(catalog, name, params)

    @tool(annotations=READ_ONLY, output_schema=lean_schema(RecordPage))
    @generated
    def list_tasks(name: str, /, **params: Any) -> ToolResult:
        """Find tasks by name, area or level, or list the taxonomy with group_by_area. Next:
        get_task."""
        group = bool(params.get("group_by_area"))
        limit = params.get("limit") or (None if group else HOSTED_ROW_CAP)
        payload = payload_of(catalog, name, {**params, "limit": limit})
        if group:
            items, data = grouped(payload, "tasks")
            return respond(
                RecordPage(count=len(items), data=data),
                texts.grouped(items, "tasks", "area"),
            )
        return flat_page(payload, params.get("page"), "tasks")

    @tool(annotations=READ_ONLY, output_schema=lean_schema(Record))
    @generated
    def get_method(name: str, /, **params: Any) -> ToolResult:
        """A method (architecture, technique; list_methods finds it): area, introducing paper.
        Papers using it: list_papers(method=)."""
        payload = payload_of(catalog, name, params)
        method = checked(payload.get("method") or {})
        return respond(Record(data=payload), texts.record(method, payload.get("area")))

    @tool(annotations=READ_ONLY, output_schema=lean_schema(RecordPage))
    @generated
    def list_methods(name: str, /, **params: Any) -> ToolResult:
        """Find methods by name, area or introduction year. Next: get_method."""
        limit = params.get("limit") or HOSTED_ROW_CAP
        payload = payload_of(catalog, name, {**params, "limit": limit})
        return flat_page(payload, params.get("page"), "methods")

    @tool(annotations=READ_ONLY, output_schema=lean_schema(Record))
    @generated
    def get_conference(name: str, /, **params: Any) -> ToolResult:
        """A conference (list_conferences finds it): dates, venue, tier, links. Its papers:
        list_papers(conference=)."""
        return record(payload_of(catalog, name, params))

    @tool(annotations=READ_ONLY, output_schema=lean_schema(RecordPage))
    @generated
    def list_conferences(name: str, /, **params: Any) -> ToolResult:
        """Conferences, optionally of one year. Next: get_conference."""
        return entity_page(catalog, name, params, "conferences")

    @tool(annotations=READ_ONLY, output_schema=lean_schema(Record))
    @generated
    def get_organization(name: str, /, **params: Any) -> ToolResult:
        """An organization (lab, company, university; list_organizations finds it). Its papers:
        list_papers(organization=)."""
        return record(payload_of(catalog, name, params))

    @tool(annotations=READ_ONLY, output_schema=lean_schema(RecordPage))
    @generated
    def list_organizations(name: str, /, **params: Any) -> ToolResult:
        """Organizations, optionally only featured ones. Next: get_organization."""
        return entity_page(catalog, name, params, "organizations")

    @tool(annotations=READ_ONLY, output_schema=lean_schema(Record))
    @generated
    def get_framework(name: str, /, **params: Any) -> ToolResult:
        """A software framework (list_frameworks finds it): when to use it, platforms, links.
        Papers with code in it: list_papers(framework=)."""
        return record(payload_of(catalog, name, params))

    @tool(annotations=READ_ONLY, output_schema=lean_schema(RecordPage))
    @generated
    def list_frameworks(name: str, /, **params: Any) -> ToolResult:
        """Frameworks by domain, category or platform (exact, case-insensitive). Next:
        get_framework."""
        return entity_page(catalog, name, params, "frameworks")

    @provider.resource(
        "pwc://tasks/{task}",
        name="task",
        title="Research task",
        description="Canonical task metadata and benchmarks (get_task).",
        mime_type="application/json",
    )
    def task_resource(task: str) -> str:
        name = "get_task"  # the tool this resource is, with its defaults
        result = _as_resource(lambda: task_result(catalog, name, validated(name, {"task": task})))
        return json.dumps(result.structured_content, ensure_ascii=False)

    return provider
