"""Human output for tasks and methods (docs/upstream-api.md#output-rules)."""

from __future__ import annotations

import argparse
from typing import Any

from pwc_cli.render import Screen, code, heading, link, no_results, section, sections, strong
from pwc_cli.views import Rendered, view
from pwc_cli.views.common import is_grouped, name_of, plural, prose, records, slug_of
from pwc_cli.views.tables import counted, row_table
from pwc_core.text import cell_text, count, meta_line, one_line
from pwc_core.urls import absolute, site_url

# --- tasks --------------------------------------------------------------------------------


def _score(row: dict[str, Any]) -> Any:
    return (
        row["support_weighted_score"] if "support_weighted_score" in row else row.get("trend_score")
    )


def _benchmark_line(row: dict[str, Any]) -> str:
    parts = [plural(row.get("paper_count"), "paper")] if row.get("paper_count") is not None else []
    score = _score(row)
    if isinstance(score, int | float) and not isinstance(score, bool):
        parts.append(f"trend score: {score:.2f}")
    if row.get("best_model_name"):
        parts.append(f"best model: {one_line(row['best_model_name'])}")
    return f"- {name_of(row)}" + (f" — {', '.join(parts)}" if parts else "")


@view("task")
@prose
def task_view(data: dict[str, Any], args: argparse.Namespace, tty: Screen) -> Rendered:
    task = data.get("task") or {}
    area = data.get("area") or {}
    meta = meta_line(
        [
            f"Area: {one_line(area.get('name'))}" if area.get("name") else "",
            f"Level: {task['level']}" if task.get("level") is not None else "",
            counted(task, "paper_count", "paper"),
            counted(task, "benchmark_count", "benchmark"),
            counted(task, "evaluation_count", "evaluation"),
        ]
    )
    chain = [name_of(p) for p in reversed(records(data.get("parents")))] + [name_of(task)]
    children = {str(c.get("id")): name_of(c) for c in records(data.get("children"))}
    by_subtask = []
    for group in records(data.get("subtask_benchmarks")):
        sub = str(group.get("subtask_id"))
        by_subtask.append(f"- {children.get(sub, sub)}")
        by_subtask.extend(f"  - {name_of(b)}" for b in records(group.get("benchmarks")))
    papers = []
    for paper in records(data.get("papers")):
        details = [cell_text(paper.get("published") or paper.get("date_published"))]
        details.append(plural(paper.get("citation_count"), "citation"))
        papers.append(f"- {one_line(paper.get('title'))} ({', '.join(d for d in details if d)})")
    frameworks = [
        f"- {one_line(f.get('owner'))}/{one_line(f.get('name'))} — {plural(f.get('num_stars'), 'star')}"
        for f in records(data.get("recommended_frameworks"))
    ]
    return Rendered(
        sections(
            heading(task.get("name"), tty),
            meta,
            one_line(task.get("description")),
            link("View task", site_url("task", slug_of(task)), tty),
            section("Task hierarchy", [" → ".join(chain)], tty),
            section(
                "Research trends",
                [f"- {one_line(t)}" for t in task.get("research_trends") or []],
                tty,
            ),
            section("Recommended frameworks", frameworks, tty),
            section("Sister tasks", [f"- {name_of(s)}" for s in records(data.get("sisters"))], tty),
            section("Subtasks", [f"- {name_of(c)}" for c in records(data.get("children"))], tty),
            section(
                f"Common methods (from {data.get('paper_sample_size', 0)} sampled papers)",
                [
                    f"- {name_of(m)} — {plural(m.get('paper_count'), 'paper')}"
                    for m in records(data.get("common_methods"))
                ],
                tty,
            ),
            section(
                "Benchmarks", [_benchmark_line(b) for b in records(data.get("benchmarks"))], tty
            ),
            section("Benchmarks by subtask", by_subtask, tty),
            section(
                f"Trending papers (top {len(papers)} of {count(data.get('paper_count'))})",
                papers,
                tty,
            ),
        )
    )


def _task_bullet(task: dict[str, Any], tty: Screen) -> str:
    counts = meta_line(
        [
            plural(task.get("paper_count"), "paper"),
            plural(task.get("benchmark_count"), "benchmark"),
            plural(task.get("evaluation_count"), "eval"),
        ]
    )
    name, slug = strong(one_line(task.get("name")), tty), code(one_line(task.get("slug")), tty)
    return f"- {name} ({slug}) — {counts}"


@view("task list")
def task_list_view(payload: Any, args: argparse.Namespace, tty: Screen) -> Rendered:
    if is_grouped(payload):
        blocks = []
        for area in payload["results"]:
            tasks = [t for t in area["tasks"] if isinstance(t, dict)]
            if tasks:  # an area without tasks is noise in a listing of tasks
                title = heading(f"Area: {one_line(area.get('name'))}", tty)
                blocks.append(title + "\n" + "\n".join(_task_bullet(t, tty) for t in tasks))
        notes = [] if blocks else no_results(args, "drop --area to see every area")
        return Rendered(sections(*blocks), notes)
    columns = [
        ("id", "id"),
        ("slug", "slug"),
        ("name", "name"),
        ("area", "area_name"),
        ("level", "level"),
        ("papers", "paper_count"),
        ("benchmarks", "benchmark_count"),
        ("evals", "evaluation_count"),
    ]
    right = ["level", "papers", "benchmarks", "evals"]
    hint = "try other --search words, or drop --area/--level/--visible-only"
    return row_table(payload, args, tty, columns, right=right, empty=hint)


# --- methods ------------------------------------------------------------------------------


@view("method")
@prose
def method_view(data: dict[str, Any], args: argparse.Namespace, tty: Screen) -> Rendered:
    method = data.get("method") or {}
    area = data.get("area") or {}
    full = method.get("full_name")
    source = absolute(method.get("source_url"))
    return Rendered(
        sections(
            heading(method.get("name") or full, tty),
            f"Full name: {one_line(full)}" if full and full != method.get("name") else "",
            meta_line(
                [
                    f"Area: {one_line(area.get('name'))}" if area.get("name") else "",
                    f"Introduced: {method['introduced_year']}"
                    if method.get("introduced_year")
                    else "",
                    counted(method, "paper_count", "paper"),
                ]
            ),
            one_line(method.get("description")),
            link(one_line(method.get("source_title")) or "Source paper", source, tty),
            link("View method", site_url("method", slug_of(method)), tty),
        )
    )


@view("method list")
def method_list_view(payload: Any, args: argparse.Namespace, tty: Screen) -> Rendered:
    columns = [
        ("id", "id"),
        ("slug", "slug"),
        ("name", "name"),
        ("full_name", "full_name"),
        ("area", "area_name"),
        ("introduced", "introduced_year"),
        ("papers", "paper_count"),
    ]
    hint = "try other --search words, or drop --area/--introduced-year"
    return row_table(payload, args, tty, columns, right=["introduced", "papers"], empty=hint)
