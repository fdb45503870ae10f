"""The text of the paper tools: paper lists, a paper's record, its citation and its lineage.

Each paper is named as every text names it (`texts.paper_ids`: arXiv ID, else catalog ID, and
date); see pwc_mcp.answers.texts for what every text promises.
"""

from __future__ import annotations

from typing import Any

from pwc_mcp.answers.models import Citation, Evaluation, PaperDetail, PaperSummary
from pwc_mcp.answers.texts import (
    PROSE,
    clip,
    count,
    evaluation_line,
    joined,
    listed,
    number,
    paper_ids,
    paper_line,
)

AUTHORS = 25  # author names in a paper's text; then how many more (data.authors holds all)


def paper_list(
    total: int | None,
    papers: list[PaperSummary],
    page: int | None,
    tail: str,
    scope: str | None = None,
) -> str:
    """`Found N papers[ scope]; returned n[ on page p].`, then each paper's line; `scope` says
    what bounds the list when the tool applies a bound the caller may not have set."""
    shown = total if total is not None else len(papers)
    head = joined([f"Found {shown} papers", scope], " ") + f"; returned {len(papers)}"
    head += f" on page {page}" if page else ""
    return "\n".join([head + "." + tail, *(paper_line(p) for p in papers)])


def trending_scope(max_age_days: Any, min_velocity: Any = None) -> str | None:
    """`published in the last 180 days[ with trending velocity at least v]`: the window
    list_trending_papers always applies (its default included)."""
    if isinstance(max_age_days, bool) or not isinstance(max_age_days, int):
        return None
    scope = f"published in the last {max_age_days} days"
    if isinstance(min_velocity, int | float) and not isinstance(min_velocity, bool):
        scope += f" with trending velocity at least {number(min_velocity)}"
    return scope


def paper_info(paper: PaperDetail, evaluations: list[Evaluation] | None, total: int | None) -> str:
    """The paper, its identifiers and links; its evaluations when they were asked for."""
    lines = [
        f"## {clip(paper.title)}",
        joined(
            [
                paper_ids(paper),
                f"ID {paper.id}" if paper.id and paper.arxiv_id else None,
                clip(paper.conference, 60) if paper.conference else None,
                count(paper.citation_count, "citation"),
            ]
        ),
    ]
    if not paper.in_catalog:
        lines.append(
            "Not in the Papers With Code catalog: public metadata only (no code, tasks or "
            "evaluations here)."
        )
    for label, names, limit in (
        ("Authors", paper.authors, AUTHORS),
        ("Organizations", paper.organizations, 12),
        ("Tasks", paper.tasks, 12),
        ("Methods", paper.methods, 12),
    ):
        if names:
            lines.append(f"{label}: {listed(names, limit)}")
    for label, rows in (("Predecessors", paper.predecessors), ("Successors", paper.successors)):
        if rows:
            lines.append(f"{label} ({len(rows)}): " + "; ".join(_linked(r) for r in rows[:12]))
            lines[-1] += f" and {len(rows) - 12} more" if len(rows) > 12 else ""
    if paper.in_catalog:
        lines.append(
            f"Code: {count(paper.code_repository_count, 'repository', 'repositories') or '0 repositories'}"
            + ("; official implementation" if paper.has_official_implementation else "")
            + f"; returned {len(paper.repositories)}."
        )
    links = [(r.url, "official" if r.is_official else None) for r in paper.repositories]
    links += [(p.url, "project page") for p in paper.project_pages]
    links += [(u, kind) for kind, urls in _artifacts(paper) for u in urls]
    links += [(a.get("url", ""), a.get("label")) for a in paper.available_at]
    lines += [f"- {clip(url)}" + (f" ({clip(kind, 40)})" if kind else "") for url, kind in links]
    if evaluations is not None:
        total = total if total is not None else len(evaluations)
        lines.append(
            f"Evaluations: {total}; the first {len(evaluations)} (more with get_paper_evaluations):"
        )
        lines += [evaluation_line(e) for e in evaluations]
    if paper.abstract:
        lines.append("\n" + clip(paper.abstract, PROSE))
    return "\n".join(lines)


def citation(entry: Citation, published: str | None = None) -> str:
    """The entry itself (bounded by pwc_core.citations), then the paper's publication date
    (an entry holds only its year) and what a public-metadata entry was built from, never
    silently."""
    date = f"\n\nPublished {clip(published, 10)}." if published else ""
    note = f"\n\nNote: {clip(entry.note, 300)}" if entry.note else ""
    return entry.text.rstrip("\n") + date + note


def _artifacts(paper: PaperDetail) -> list[tuple[str, list[str]]]:
    return [
        ("HF model", paper.hf_models),
        ("HF dataset", paper.hf_datasets),
        ("HF space", paper.hf_spaces),
    ]


def lineage(
    paper: dict[str, Any] | None, before: list[dict[str, Any]], after: list[dict[str, Any]]
) -> str:
    lines = [f"## Lineage of {_linked(paper) if paper else 'the paper'}"]
    lines.append("Explicit catalog links only; empty lists do not prove that none exist.")
    for label, rows in (("Predecessors", before), ("Successors", after)):
        lines.append(f"### {label} ({len(rows)})")
        lines += [f"- {_linked(r)}" for r in rows] or ["- none listed"]
    return "\n".join(lines)


def _linked(row: dict[str, Any]) -> str:
    """A lineage row: its title, the reference the catalog links it by and its date when the
    row has one."""
    key = row.get("reference") or row.get("id")
    ref = f"arXiv {row['arxiv_id']}" if row.get("arxiv_id") else key and f"ID {key}"
    date = row.get("published")
    said = joined([clip(ref, 60) if ref else None, clip(date, 10) if date else None], ", ")
    return clip(row.get("title") or "untitled") + (f" ({said})" if said else "")
