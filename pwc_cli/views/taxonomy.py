"""Human output for tasks, methods, conferences, organizations and frameworks (§5.2–§5.5)."""

from __future__ import annotations

import argparse
from typing import Any

from pwc_cli.commands.common import extract_rows
from pwc_cli.render import (
    Rendered,
    Screen,
    absolute,
    cell_text,
    code,
    count,
    heading,
    link,
    meta_line,
    more_hint,
    no_results,
    one_line,
    section,
    sections,
    site_url,
    strong,
    table,
    view,
)


def plural(value: Any, word: str, words: str | None = None) -> str:
    """`1 paper`, `13,086 papers`, `unknown papers` when missing."""
    words = words or word + "s"
    if value is None or isinstance(value, bool):
        return f"unknown {words}"
    return f"{count(value)} {word if value == 1 else words}"


def _dicts(items: Any) -> list[dict[str, Any]]:
    return [item for item in items if isinstance(item, dict)] if isinstance(items, list) else []


def _slug(row: dict[str, Any]) -> Any:
    return row.get("slug") or row.get("id")


def _name(row: dict[str, Any]) -> str:
    return one_line(row.get("name") or row.get("slug") or row.get("id"))


def _hint(payload: Any, args: argparse.Namespace, shown: int, empty: str = "") -> list[str]:
    """`# more: ...` when a later page exists; `# no results` (with `empty` as hint) when none."""
    if not shown:
        return no_results(args, empty)
    _, total = extract_rows(payload)
    size = getattr(args, "page_size", None) or getattr(args, "limit", None) or shown
    return more_hint(total, getattr(args, "page", 1) or 1, size)


def is_grouped(payload: Any) -> bool:
    """Grouped payloads are `{results: [area with a tasks list]}`; task rows have no `tasks`."""
    rows = payload.get("results") if isinstance(payload, dict) else None
    return (
        isinstance(rows, list)
        and bool(rows)
        and all(isinstance(r, dict) and isinstance(r.get("tasks"), list) for r in rows)
    )


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
    return f"- {_name(row)}" + (f" — {', '.join(parts)}" if parts else "")


@view("task")
def task_view(data: dict[str, Any], args: argparse.Namespace, tty: Screen) -> Rendered:
    task = data.get("task") or {}
    area = data.get("area") or {}
    meta = meta_line(
        [
            f"Area: {one_line(area.get('name'))}" if area.get("name") else "",
            f"Level: {task['level']}" if task.get("level") is not None else "",
            plural(task.get("paper_count"), "paper") if task.get("paper_count") is not None else "",
            plural(task.get("benchmark_count"), "benchmark")
            if task.get("benchmark_count") is not None
            else "",
            plural(task.get("evaluation_count"), "evaluation")
            if task.get("evaluation_count") is not None
            else "",
        ]
    )
    chain = [_name(p) for p in reversed(_dicts(data.get("parents")))] + [_name(task)]
    children = {str(c.get("id")): _name(c) for c in _dicts(data.get("children"))}
    by_subtask = []
    for group in _dicts(data.get("subtask_benchmarks")):
        sub = str(group.get("subtask_id"))
        by_subtask.append(f"- {children.get(sub, sub)}")
        by_subtask.extend(f"  - {_name(b)}" for b in _dicts(group.get("benchmarks")))
    papers = []
    for paper in _dicts(data.get("papers")):
        details = [cell_text(paper.get("published") or paper.get("date_published"))]
        details.append(plural(paper.get("citation_count"), "citation"))
        papers.append(f"- {one_line(paper.get('title'))} ({', '.join(d for d in details if d)})")
    frameworks = [
        f"- {one_line(f.get('owner'))}/{one_line(f.get('name'))} — {plural(f.get('num_stars'), 'star')}"
        for f in _dicts(data.get("recommended_frameworks"))
    ]
    return Rendered(
        sections(
            heading(task.get("name"), tty),
            meta,
            one_line(task.get("description")),
            link("View task", site_url("task", _slug(task)), tty),
            section("Task hierarchy", [" → ".join(chain)], tty),
            section(
                "Research trends",
                [f"- {one_line(t)}" for t in task.get("research_trends") or []],
                tty,
            ),
            section("Recommended frameworks", frameworks, tty),
            section("Sister tasks", [f"- {_name(s)}" for s in _dicts(data.get("sisters"))], tty),
            section("Subtasks", [f"- {_name(c)}" for c in _dicts(data.get("children"))], tty),
            section(
                f"Common methods (from {data.get('paper_sample_size', 0)} sampled papers)",
                [
                    f"- {_name(m)} — {plural(m.get('paper_count'), 'paper')}"
                    for m in _dicts(data.get("common_methods"))
                ],
                tty,
            ),
            section(
                "Benchmarks", [_benchmark_line(b) for b in _dicts(data.get("benchmarks"))], tty
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
    rows, _ = extract_rows(payload)
    lines = [
        [
            r.get("id"),
            r.get("slug"),
            r.get("name"),
            r.get("area_name"),
            r.get("level"),
            r.get("paper_count"),
            r.get("benchmark_count"),
            r.get("evaluation_count"),
        ]
        for r in rows
    ]
    headers = ["id", "slug", "name", "area", "level", "papers", "benchmarks", "evals"]
    text = table(headers, lines, tty=tty, right=["level", "papers", "benchmarks", "evals"])
    hint = "try other --search words, or drop --area/--level/--visible-only"
    return Rendered(text, _hint(payload, args, len(rows), hint))


# --- methods ------------------------------------------------------------------------------


@view("method")
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
                    plural(method.get("paper_count"), "paper")
                    if method.get("paper_count") is not None
                    else "",
                ]
            ),
            one_line(method.get("description")),
            link(one_line(method.get("source_title")) or "Source paper", source, tty),
            link("View method", site_url("method", _slug(method)), tty),
        )
    )


@view("method list")
def method_list_view(payload: Any, args: argparse.Namespace, tty: Screen) -> Rendered:
    rows, _ = extract_rows(payload)
    lines = [
        [
            r.get("id"),
            r.get("slug"),
            r.get("name"),
            r.get("full_name"),
            r.get("area_name"),
            r.get("introduced_year"),
            r.get("paper_count"),
        ]
        for r in rows
    ]
    headers = ["id", "slug", "name", "full_name", "area", "introduced", "papers"]
    return Rendered(
        table(headers, lines, tty=tty, right=["introduced", "papers"]),
        _hint(
            payload, args, len(rows), "try other --search words, or drop --area/--introduced-year"
        ),
    )


# --- conferences, organizations, frameworks -----------------------------------------------


@view("conference")
def conference_view(data: dict[str, Any], args: argparse.Namespace, tty: Screen) -> Rendered:
    dates = [d for d in (data.get("start_date"), data.get("end_date")) if d]
    return Rendered(
        sections(
            heading(data.get("name"), tty),
            meta_line(
                [
                    cell_text(data.get("year")),
                    plural(data.get("paper_count"), "paper")
                    if data.get("paper_count") is not None
                    else "",
                    f"Tier: {cell_text(data['tier']).upper()}" if data.get("tier") else "",
                ]
            ),
            "\n".join(
                line
                for line in (
                    f"Dates: {' – '.join(dates)}" if dates else "",
                    f"Venue: {one_line(data['venue'])}" if data.get("venue") else "",
                    f"Location: {one_line(data['location'])}" if data.get("location") else "",
                )
                if line
            ),
            one_line(data.get("description")),
            "\n".join(
                x
                for x in (
                    link("Conference website", data.get("url"), tty),
                    link("Hugging Face", data.get("hf_url"), tty),
                )
                if x
            ),
            link("View conference", site_url("conference", _slug(data)), tty),
        )
    )


@view("conference list")
def conference_list_view(payload: Any, args: argparse.Namespace, tty: Screen) -> Rendered:
    rows, _ = extract_rows(payload)
    lines = [
        [r.get("slug"), r.get("name"), r.get("year"), r.get("paper_count"), r.get("location")]
        for r in rows
    ]
    headers = ["slug", "name", "year", "papers", "location"]
    text = table(headers, lines, tty=tty, right=["year", "papers"])
    return Rendered(text, _hint(payload, args, len(rows), "try another --year"))


@view("organization")
def organization_view(data: dict[str, Any], args: argparse.Namespace, tty: Screen) -> Rendered:
    years = [
        cell_text(y) for y in (data.get("first_paper_year"), data.get("latest_paper_year")) if y
    ]
    return Rendered(
        sections(
            heading(data.get("name"), tty),
            meta_line(
                [
                    plural(data.get("paper_count"), "paper")
                    if data.get("paper_count") is not None
                    else "",
                    f"Trending rank: {data['trending_rank']}"
                    if data.get("trending_rank") is not None
                    else "",
                    "Featured" if data.get("is_featured") is True else "",
                ]
            ),
            f"Paper years: {'–'.join(years)}" if years else "",
            one_line(data.get("description")),
            "\n".join(
                x
                for x in (
                    link("Website", data.get("website_url"), tty),
                    link("GitHub", data.get("github_url"), tty),
                    link("Hugging Face", data.get("hf_url"), tty),
                )
                if x
            ),
            link("View organization", site_url("organization", _slug(data)), tty),
        )
    )


@view("organization list")
def organization_list_view(payload: Any, args: argparse.Namespace, tty: Screen) -> Rendered:
    rows, _ = extract_rows(payload)
    lines = [
        [
            r.get("id"),
            r.get("slug"),
            r.get("name"),
            r.get("paper_count"),
            "yes" if r.get("is_featured") is True else "no",
            r.get("trending_rank"),
        ]
        for r in rows
    ]
    headers = ["id", "slug", "name", "papers", "featured", "trend_rank"]
    text = table(headers, lines, tty=tty, right=["papers", "trend_rank"])
    return Rendered(text, _hint(payload, args, len(rows)))


def _platform_text(row: dict[str, Any]) -> str:
    platforms = row.get("platforms")
    return ", ".join(cell_text(p) for p in platforms) if isinstance(platforms, list) else ""


@view("framework")
def framework_view(data: dict[str, Any], args: argparse.Namespace, tty: Screen) -> Rendered:
    arxiv = data.get("introducing_paper_arxiv_id")
    paper = site_url("paper", arxiv) if arxiv else None
    return Rendered(
        sections(
            heading(data.get("name"), tty),
            meta_line(
                [
                    one_line(data.get("domain_name")),
                    one_line(data.get("category_name")),
                    one_line(data.get("organization_name")),
                    plural(data.get("paper_count"), "paper")
                    if data.get("paper_count") is not None
                    else "",
                ]
            ),
            "\n".join(
                line
                for line in (
                    f"When to use: {one_line(data['when_to_use'])}"
                    if data.get("when_to_use")
                    else "",
                    f"Platforms: {_platform_text(data)}" if _platform_text(data) else "",
                )
                if line
            ),
            one_line(data.get("description")),
            "\n".join(
                x
                for x in (
                    link("GitHub", data.get("github_url"), tty),
                    link("Documentation", data.get("docs_url"), tty),
                    link(f"Introducing paper {arxiv}", paper, tty),
                )
                if x
            ),
            link("View framework", site_url("framework", _slug(data)), tty),
        )
    )


@view("framework list")
def framework_list_view(payload: Any, args: argparse.Namespace, tty: Screen) -> Rendered:
    rows, _ = extract_rows(payload)
    lines = [
        [
            r.get("id"),
            r.get("slug"),
            r.get("name"),
            r.get("domain_name"),
            r.get("category_name"),
            _platform_text(r),
            r.get("paper_count"),
        ]
        for r in rows
    ]
    headers = ["id", "slug", "name", "domain", "category", "platforms", "papers"]
    text = table(headers, lines, tty=tty, right=["papers"])
    hint = "the filters match exactly; see pwc framework list for the values"
    return Rendered(text, _hint(payload, args, len(rows), hint))
