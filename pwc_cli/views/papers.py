"""Human output for `search` and the `paper` commands (docs/upstream-api.md#output-rules)."""

from __future__ import annotations

import argparse
from typing import Any

from pwc_cli.columns import Parts
from pwc_cli.render import (
    Screen,
    code,
    fold,
    heading,
    link,
    markdown_table,
    more_hint,
    no_results,
    section,
    sections,
    strong,
    table,
)
from pwc_cli.views import Rendered, standing, view
from pwc_core.flags import openness
from pwc_core.replies import extract_rows
from pwc_core.scopes import scopes_of
from pwc_core.text import cell_text, count, one_line
from pwc_core.urls import site_url

EMPTY_HINTS = {
    "search": "try other words, another --mode, or fewer filters",
    "paper list": "drop a filter, or add --all-versions",
    "paper trending": "try a larger --max-age-days or a lower --min-velocity",
}


def display_id(row: dict[str, Any]) -> str:
    return cell_text(row.get("arxiv_id") or row.get("id"))


def _published(row: dict[str, Any]) -> Any:
    return row.get("published") or row.get("date_published")


def paper_table(payload: Any, args: argparse.Namespace, tty: Screen) -> Rendered:
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
    notes = (
        more_hint(total, page, size)
        if rows
        else no_results(args, EMPTY_HINTS.get(args.command, ""))
    )
    return Rendered(table(headers, lines, tty=tty, right=right), notes)


for _command in ("search", "paper list", "paper recent", "paper trending", "paper related"):
    view(_command)(paper_table)


def _metric_text(value: Any) -> str:
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return cell_text(value)


def scores(row: dict[str, Any]) -> Parts:
    """`name: value` for each metric the row has, the primary first; a terminal table never
    cuts one (pwc_cli.columns.Parts)."""
    raw = row.get("metrics")
    metrics: dict[str, Any] = raw if isinstance(raw, dict) else {}
    best = row.get("best_metric")
    names = sorted(metrics, key=lambda n: (n != best, n.casefold()))
    return Parts(
        f"{name}: {_metric_text(metrics[name])}" for name in names if metrics[name] is not None
    )


def _source_url(row: dict[str, Any]) -> str:
    return cell_text(row.get("result_url") or row.get("source_url"))


def listed_rank(row: dict[str, Any]) -> str:
    """The rank in the task scope the row is listed under (`rank_scopes[0]`), not the best
    rank of any scope: a rank 1 of another scope must not read as the benchmark's best."""
    return cell_text(scopes_of(row)[0].get("rank"))


def scope_cell(row: dict[str, Any]) -> str:
    """The listed task scope; a row ranked in several also names the others with ranks."""
    scopes = scopes_of(row)
    if len(scopes) <= 1:
        return one_line(scopes[0].get("task_name") or row.get("task_name"))
    return "; ".join(
        f"{one_line(s.get('task_name') or s.get('task_id'))} #{s['rank']}"
        if s.get("rank") is not None
        else one_line(s.get("task_name") or s.get("task_id"))
        for s in scopes
    )


def _evaluation_cells(row: dict[str, Any]) -> list[Any]:
    model = cell_text(row.get("model_name"))
    if row.get("harness"):
        model += f" ({row['harness']})"
    return [
        row.get("dataset_name"),
        model,
        scores(row),
        listed_rank(row),
        scope_cell(row),
        openness(row.get("is_open")) or "—",
    ]


EVALUATION_HEADERS = ["benchmark", "model", "scores", "rank", "task", "open", "source"]


def evaluations_rows(rows: list[dict[str, Any]], tty: Screen) -> str:
    """A table of evaluation rows: aligned in a terminal, TSV when captured."""
    body = [_evaluation_cells(row) + [_source_url(row)] for row in rows]
    return table(EVALUATION_HEADERS, body, tty=tty, right=["rank"])


def evaluations_section(rows: list[dict[str, Any]], tty: Screen) -> str:
    """The evaluations block of a paper's detail view (Markdown table when captured)."""
    if not rows:
        return section("Evaluations", ["No evaluations found."], tty)
    if tty:
        table_text = evaluations_rows(rows, tty).rstrip("\n")
        return section("Evaluations", [table_text], tty, folded=False)
    body = []
    for row in rows:
        url = _source_url(row)
        body.append(
            _evaluation_cells(row) + [f"[source]({url.replace('>', '%3E')})" if url else "—"]
        )
    return "## Evaluations\n\n" + markdown_table(
        ["Benchmark", "Model", "Scores", "Rank", "Task", "Open", "Source"],
        ["---", "---", "---", "---:", "---", ":---:", "---"],
        body,
    )


@view("paper evaluations")
def paper_evaluations(payload: Any, args: argparse.Namespace, tty: Screen) -> Rendered:
    rows = [r for r in payload.get("results") or [] if isinstance(r, dict)]
    if not rows:
        notes = no_results(args, "the catalog holds no evaluation rows for this paper")
    elif payload.get("next_page"):
        notes = ["# more: rerun with --page " + str(payload["next_page"])]
    else:
        notes = []
    if isinstance(payload.get("against_sota"), dict):  # --against-sota: Best, Gap, Rank of N
        headers = [*EVALUATION_HEADERS[:3], *standing.HEADERS, *EVALUATION_HEADERS[4:]]
        body = []
        for row in rows:
            cells = _evaluation_cells(row)
            body.append(cells[:3] + standing.cells(row) + cells[4:] + [_source_url(row)])
        shown = table(headers, body, tty=tty, right=["gap", "rank"])
        return Rendered(shown, notes + standing.notes(payload))
    return Rendered(evaluations_rows(rows, tty), notes)


def _paper_link(item: dict[str, Any], ref: Any, tty: Screen) -> str:
    title = cell_text(item.get("title") or "Untitled")
    label = title if tty else title.replace("[", "\\[").replace("]", "\\]")
    return link(label, site_url("paper", ref), tty)


def _listed(lines: list[str]) -> list[str]:
    return lines or ["- None"]


def _lineage_items(items: Any, tty: Screen) -> list[str]:
    lines = []
    for item in items or []:
        if not isinstance(item, dict):
            continue
        ref = item.get("route_identifier") or item.get("arxiv_id") or item.get("id")
        published = f" ({item['published']})" if item.get("published") else ""
        lines.append(f"- {_paper_link(item, ref, tty)}{published}")
    return _listed(lines)


def _names(items: Any) -> str:
    names = [cell_text(i.get("name") or i.get("slug")) for i in items or [] if isinstance(i, dict)]
    return ", ".join(n for n in names if n)


def _resources(paper: dict[str, Any], tty: Screen) -> list[str]:
    official = strong("Official:", tty) + " "
    repos = [r for r in paper.get("repositories") or [] if isinstance(r, dict) and r.get("url")]
    repos.sort(key=lambda r: r.get("is_official") is not True)
    pages = []
    for page in paper.get("project_pages") or []:
        if isinstance(page, str):
            pages.append((False, page))
        elif isinstance(page, dict) and page.get("url"):
            pages.append((page.get("is_official") is True, page["url"]))
    pages.sort(key=lambda p: not p[0])
    artifacts = [
        f"- {strong(label + ':', tty)} {url}"
        for key, label in (
            ("hf_models", "Model"),
            ("hf_datasets", "Dataset"),
            ("hf_spaces", "Space"),
        )
        for url in paper.get(key) or []
        if isinstance(url, str)
    ]
    repo_lines = [f"- {official if r.get('is_official') is True else ''}{r['url']}" for r in repos]
    page_lines = [f"- {official if first else ''}{url}" for first, url in pages]
    return [
        section("Repositories", _listed(repo_lines), tty),
        section("Project pages", _listed(page_lines), tty),
        section("Hugging Face artifacts", _listed(artifacts), tty),
    ]


@view("paper info")
def paper_info(paper: dict[str, Any], args: argparse.Namespace, tty: Screen) -> Rendered:
    cited = paper.get("citation")
    if getattr(args, "cite", None) and isinstance(cited, dict):  # the entry alone: `>> refs.bib`
        note = [f"pwc: note: {cited['note']}"] if cited.get("note") else []
        return Rendered(str(cited.get("text") or ""), note)
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
    header = fold("\n".join(f"{label}: {cell_text(v)}" for label, v in fields if cell_text(v)), tty)
    abstract = cell_text(paper.get("abstract")).strip() or "—"
    blocks = [header, section("Abstract", [abstract], tty)]
    if paper.get("in_catalog") is False:
        links = [
            f"- {link(str(a.get('label')), a.get('url'), tty)}"
            for a in paper.get("available_at") or []
            if isinstance(a, dict)
        ]
        note = [f"Note: {paper['note']}"] if paper.get("note") else []
        return Rendered(sections(*blocks, section("Available at", _listed(links), tty), *note))
    if args.include_evals:
        rows = (paper.get("evaluations") or {}).get("results") or []
        blocks.append(evaluations_section([r for r in rows if isinstance(r, dict)], tty))
    lineage = [
        section("Predecessors", _lineage_items(paper.get("predecessor_papers"), tty), tty, 3),
        section("Successors", _lineage_items(paper.get("successor_papers"), tty), tty, 3),
    ]
    blocks.append(section("Paper lineage", ["\n\n".join(lineage)], tty))
    if args.include_resources:
        blocks.extend(_resources(paper, tty))
    return Rendered(sections(*blocks))


def _lineage_refs(items: Any, tty: Screen) -> list[str]:
    lines = []
    for item in items if isinstance(items, list) else []:
        if isinstance(item, dict):
            ref = item.get("reference") or item.get("arxiv_id") or item.get("id")
            lines.append(f"- {_paper_link(item, ref, tty)} ({code(cell_text(ref), tty)})")
    return _listed(lines)


@view("paper lineage list")
def paper_lineage(payload: dict[str, Any], args: argparse.Namespace, tty: Screen) -> Rendered:
    paper = payload.get("paper")
    return Rendered(
        sections(
            heading("Paper lineage", tty),
            section("Paper", _lineage_refs([paper] if isinstance(paper, dict) else [], tty), tty),
            section("Predecessors", _lineage_refs(payload.get("predecessors"), tty), tty),
            section("Successors", _lineage_refs(payload.get("successors"), tty), tty),
        )
    )


@view("paper read")
def paper_read(payload: dict[str, Any], args: argparse.Namespace, tty: Screen) -> Rendered:
    if isinstance(payload.get("outline"), list):  # --outline: one row per heading
        rows = [[h.get("level"), h.get("id"), h.get("title")] for h in payload["outline"]]
        stopped = payload.get("stopped")
        notes = [] if payload.get("complete") else [f"# outline incomplete: {stopped}"]
        return Rendered(table(["level", "id", "title"], rows, tty=tty, right=["level"]), notes)
    text = payload.get("markdown") or ""
    return Rendered(text if not text or text.endswith("\n") else text + "\n")
