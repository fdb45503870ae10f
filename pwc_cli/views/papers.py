"""Human output for `search` and the `paper` commands (§5.2–§5.5)."""

from __future__ import annotations

import argparse
from typing import Any

from pwc_cli.commands.common import extract_rows
from pwc_cli.render import (
    Rendered,
    cell_text,
    count,
    link,
    markdown_table,
    more_hint,
    sections,
    site_url,
    table,
    view,
)


def display_id(row: dict[str, Any]) -> str:
    return cell_text(row.get("arxiv_id") or row.get("id"))


def _published(row: dict[str, Any]) -> Any:
    return row.get("published") or row.get("date_published")


def paper_table(payload: Any, args: argparse.Namespace, tty: bool) -> Rendered:
    rows, total = extract_rows(payload)
    headers = ["id", "title", "year", "citations"]
    right = ["year", "citations"]
    coverage = getattr(args, "implementation_coverage", False)
    if coverage:
        headers += ["official_implementation", "code_repositories"]
        right.append("code_repositories")
    lines = []
    for row in rows:
        cells = [
            display_id(row),
            row.get("title"),
            cell_text(_published(row))[:4],
            row.get("citation_count"),
        ]
        if coverage:
            cells += [
                row.get("has_official_implementation") is True,
                row.get("code_repository_count"),
            ]
        lines.append(cells)
    page = getattr(args, "page", 1) or 1
    size = getattr(args, "page_size", None) or getattr(args, "limit", None) or len(rows)
    return Rendered(table(headers, lines, tty=tty, right=right), more_hint(total, page, size))


for _command in ("search", "paper list", "paper recent", "paper trending", "paper related"):
    view(_command)(paper_table)


def _metric_text(value: Any) -> str:
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return cell_text(value)


def scores(row: dict[str, Any]) -> str:
    metrics = row.get("metrics") if isinstance(row.get("metrics"), dict) else {}
    best = row.get("best_metric")
    names = sorted(metrics, key=lambda n: (n != best, n.casefold()))
    parts = [
        f"{name}: {_metric_text(metrics[name])}" for name in names if metrics[name] is not None
    ]
    return ", ".join(parts) or "—"


def _source(row: dict[str, Any]) -> str:
    url = row.get("result_url") or row.get("source_url")
    return f"[source]({str(url).replace('>', '%3E')})" if url else "—"


def evaluations_table(rows: list[dict[str, Any]]) -> str:
    if not rows:
        return "## Evaluations\n\nNo evaluations found."
    body = []
    for row in rows:
        model = cell_text(row.get("model_name"))
        if row.get("harness"):
            model += f" ({row['harness']})"
        body.append(
            [
                row.get("dataset_name"),
                model,
                scores(row),
                cell_text(row.get("best_rank")),
                row.get("task_name"),
                "no" if row.get("is_open") is False else "yes",
                _source(row),
            ]
        )
    return "## Evaluations\n\n" + markdown_table(
        ["Benchmark", "Model", "Scores", "Rank", "Task", "Open", "Source"],
        ["---", "---", "---", "---:", "---", ":---:", "---"],
        body,
    )


@view("paper evaluations")
def paper_evaluations(payload: Any, args: argparse.Namespace, tty: bool) -> Rendered:
    rows = payload.get("results") or []
    notes = (
        ["# more: rerun with --page " + str(payload["next_page"])]
        if payload.get("next_page")
        else []
    )
    return Rendered(evaluations_table(rows).rstrip("\n") + "\n", notes)


def _lineage_items(items: Any) -> str:
    lines = []
    for item in items or []:
        if not isinstance(item, dict):
            continue
        ref = item.get("route_identifier") or item.get("arxiv_id") or item.get("id")
        title = cell_text(item.get("title") or "Untitled").replace("[", "\\[").replace("]", "\\]")
        published = f" ({item['published']})" if item.get("published") else ""
        lines.append(f"- [{title}]({site_url('paper', ref)}){published}")
    return "\n".join(lines) or "- None"


def _names(items: Any) -> str:
    names = [cell_text(i.get("name") or i.get("slug")) for i in items or [] if isinstance(i, dict)]
    return ", ".join(n for n in names if n)


def _resources(paper: dict[str, Any]) -> list[str]:
    blocks = []
    repos = [r for r in paper.get("repositories") or [] if isinstance(r, dict) and r.get("url")]
    repos.sort(key=lambda r: r.get("is_official") is not True)
    blocks.append(
        "## Repositories\n\n"
        + (
            "\n".join(
                f"- {'**Official:** ' if r.get('is_official') is True else ''}{r['url']}"
                for r in repos
            )
            or "- None"
        )
    )
    pages = []
    for page in paper.get("project_pages") or []:
        if isinstance(page, str):
            pages.append((False, page))
        elif isinstance(page, dict) and page.get("url"):
            pages.append((page.get("is_official") is True, page["url"]))
    pages.sort(key=lambda p: not p[0])
    blocks.append(
        "## Project pages\n\n"
        + (
            "\n".join(f"- {'**Official:** ' if official else ''}{url}" for official, url in pages)
            or "- None"
        )
    )
    artifacts = [
        f"- **{label}:** {url}"
        for key, label in (
            ("hf_models", "Model"),
            ("hf_datasets", "Dataset"),
            ("hf_spaces", "Space"),
        )
        for url in paper.get(key) or []
        if isinstance(url, str)
    ]
    blocks.append("## Hugging Face artifacts\n\n" + ("\n".join(artifacts) or "- None"))
    return blocks


@view("paper info")
def paper_info(paper: dict[str, Any], args: argparse.Namespace, tty: bool) -> Rendered:
    fields = [
        ("id", display_id(paper)),
        ("title", paper.get("title")),
        ("published", _published(paper)),
        ("authors", ", ".join(str(a) for a in paper.get("authors") or [])),
        ("organizations", _names(paper.get("organizations"))),
        ("conference", paper.get("conference_name") or paper.get("conference")),
        ("citations", count(paper.get("citation_count"))),
        (
            "official_implementation",
            "true" if paper.get("has_official_implementation") is True else "false",
        ),
        ("code_repositories", count(paper.get("code_repository_count"))),
        ("url", paper.get("url_abs") or paper.get("source_url")),
    ]
    if paper.get("in_catalog") is False:
        fields = [f for f in fields if f[0] in ("title", "published", "authors")]
        fields += [
            ("in_catalog", "false"),
            ("source", paper.get("source")),
            ("doi", paper.get("doi")),
            ("arxiv_id", paper.get("arxiv_id")),
        ]
    header = "\n".join(f"{label}: {cell_text(v)}" for label, v in fields if cell_text(v))
    blocks = [header, "## Abstract\n\n" + (cell_text(paper.get("abstract")).strip() or "—")]
    if paper.get("in_catalog") is False:
        links = [
            f"- {link(str(a.get('label')), a.get('url'), False)}"
            for a in paper.get("available_at") or []
            if isinstance(a, dict)
        ]
        note = [f"Note: {paper['note']}"] if paper.get("note") else []
        return Rendered(
            sections(*blocks, "## Available at\n\n" + ("\n".join(links) or "- None"), *note)
        )
    if args.include_evals:
        blocks.append(evaluations_table((paper.get("evaluations") or {}).get("results") or []))
    blocks.append(
        "## Paper lineage\n\n### Predecessors\n\n"
        + _lineage_items(paper.get("predecessor_papers"))
        + "\n\n### Successors\n\n"
        + _lineage_items(paper.get("successor_papers"))
    )
    if args.include_resources:
        blocks.extend(_resources(paper))
    return Rendered(sections(*blocks))


def _lineage_refs(items: Any) -> str:
    lines = []
    for item in items if isinstance(items, list) else []:
        if isinstance(item, dict):
            ref = item.get("reference") or item.get("arxiv_id") or item.get("id")
            title = (
                cell_text(item.get("title") or "Untitled").replace("[", "\\[").replace("]", "\\]")
            )
            lines.append(f"- [{title}]({site_url('paper', ref)}) (`{cell_text(ref)}`)")
    return "\n".join(lines) or "- None"


@view("paper lineage list")
def paper_lineage(payload: dict[str, Any], args: argparse.Namespace, tty: bool) -> Rendered:
    paper = payload.get("paper")
    return Rendered(
        sections(
            "# Paper lineage",
            "## Paper\n\n" + _lineage_refs([paper] if isinstance(paper, dict) else []),
            "## Predecessors\n\n" + _lineage_refs(payload.get("predecessors")),
            "## Successors\n\n" + _lineage_refs(payload.get("successors")),
        )
    )


@view("paper read")
def paper_read(payload: dict[str, Any], args: argparse.Namespace, tty: bool) -> Rendered:
    text = payload.get("markdown") or ""
    return Rendered(text if not text or text.endswith("\n") else text + "\n")
