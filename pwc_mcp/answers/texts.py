"""The text block of every tool result: what a content-only client shows the model.

It stands alone: every returned row is named with its identifier (name and slug or ID; arXiv ID
or catalog ID and date for papers) and the few numbers that matter, in the rows' own order, and
it says what is not in the catalog. It stays compact: each catalog string is cut to one short
line, so even a hostile catalog cannot make the text long (the structured content is whole).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Any

from pwc_core.flags import extra_data, openness
from pwc_mcp.answers.models import Evaluation, PaperEvaluation, PaperSummary

LINE = 160  # characters of one catalog string (a title, a name) in the text
PROSE = 1200  # characters of an abstract or a description
_SPACE = re.compile(r"\s+")


def clip(value: Any, limit: int = LINE) -> str:
    """One line of at most `limit` characters (whitespace folded, so no row spans lines)."""
    line = value if isinstance(value, str) else str(value)
    # Most catalog strings are short single-spaced lines: skip the regex (a leaderboard text
    # clips ~130 strings per call).
    if len(line) <= limit and line.isprintable() and "  " not in line and line == line.strip():
        return line
    line = _SPACE.sub(" ", line).strip()
    return line if len(line) <= limit else line[: limit - 2].rstrip() + " …"


def number(value: Any) -> str:
    """A metric as the catalog gave it, without a spurious `.0`."""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return clip(value, 40)


def count(value: Any, noun: str, plural: str | None = None) -> str | None:
    if isinstance(value, bool) or not isinstance(value, int):
        return None
    return f"{value:,} {noun if value == 1 else plural or noun + 's'}"


def size(parameters: int) -> str:
    for unit, scale in (("B", 10**9), ("M", 10**6), ("K", 10**3)):
        if parameters >= scale:
            return f"{parameters / scale:.3g}{unit} params"
    return f"{parameters} params"


def joined(parts: Iterable[str | None], sep: str = " · ") -> str:
    return sep.join(p for p in parts if p)


def more(next_page: int | None) -> str:
    return f" Next page: {next_page}." if next_page else ""


def found(total: int | None, returned: int, label: str, page: int | None = None) -> str:
    """`Found N things; returned n on page p.`, or just what was returned when no total."""
    where = f" on page {page}" if page else ""
    if total is None:
        return f"Returned {returned} {label}{where}."
    return f"Found {total} {label}; returned {returned}{where}."


# --- papers (their texts: pwc_mcp.answers.paper_texts) ---------------------------------------


def paper_ids(paper: PaperSummary, sep: str = " · ") -> str:
    """arXiv ID (else catalog ID) and date: how every paper is named in a text."""
    return joined(
        [
            f"arXiv {paper.arxiv_id}" if paper.arxiv_id else None,
            f"ID {paper.id}" if paper.id and not paper.arxiv_id else None,
            paper.published or "undated",
        ],
        sep,
    )


def paper_line(paper: PaperSummary) -> str:
    """The row, then its abstract snippet (already one bounded line) indented below it."""
    facts = [
        paper_ids(paper, ", "),
        count(paper.citation_count, "citation"),
        count(paper.code_repository_count, "code repository", "code repositories"),
        "official code" if paper.has_official_implementation else None,
    ]
    line = f"- {clip(paper.title)} ({joined(facts, ', ')})"
    return line + (f"\n  {paper.snippet}" if paper.snippet else "")


def listed(names: Sequence[str], limit: int, width: int = 60) -> str:
    """`a, b, c and 4 more`: at most `limit` names, then how many were left out."""
    shown = ", ".join(clip(name, width) for name in names[:limit])
    rest = len(names) - limit
    return shown + (f" and {rest} more" if rest > 0 else "")


# --- evaluations -------------------------------------------------------------------------


def evaluation_line(row: Evaluation, benchmark: bool = True) -> str:
    """`- model on benchmark: metrics · rank r in task · size · open · extra training data ·
    split`, best metric first; each flag in words when the catalog knows it (pwc_core.flags)."""
    names = sorted(row.metrics, key=lambda k: (k != row.best_metric, k.casefold()))
    metrics = ", ".join(
        f"{clip(k, 40)}: {number(row.metrics[k])}" for k in names[:6] if row.metrics[k] is not None
    )
    model = clip(row.model_name or "unnamed model", 80) + (
        f" ({clip(row.harness, 40)})" if row.harness else ""
    )
    where = f" on {clip(row.benchmark, 80)}" if benchmark and row.benchmark else ""
    ranks = [
        f"rank {s.rank} in {clip(s.task_name, 60)}" if s.task_name else f"rank {s.rank}"
        for s in row.rank_scopes
        if s.rank is not None
    ]
    facts = [
        metrics or "no metric values",
        *ranks[:4],
        size(row.num_parameters) if row.num_parameters else None,
        openness(row.is_open),
        extra_data(row.extra_data),
        f"protocol: {clip(row.protocol, 60)}" if row.protocol else None,
        f"{clip(row.split, 30)} split" if row.split else None,
        None if benchmark else _paper_of(row),
    ]
    return f"- {model}{where}: {joined(facts)}"


def _paper_of(row: Evaluation) -> str | None:
    """A leaderboard row's paper: `arXiv 2010.11929, published 2020-10-22` (its title when it
    has no arXiv ID)."""
    paper = f"arXiv {row.paper_arxiv_id}" if row.paper_arxiv_id else None
    paper = paper or (clip(row.paper_title, 100) if row.paper_title else None)
    published = f"published {clip(row.paper_published, 10)}" if row.paper_published else None
    return joined([paper, published], ", ") or None


def evaluations(
    paper: str, total: int | None, rows: Sequence[Evaluation], page: int, tail: str
) -> str:
    head = found(total, len(rows), "evaluation rows", page)
    lines = [evaluation_line(row) + standing(row) for row in rows]
    dates = {row.paper_published for row in rows if row.paper_published}  # one paper's rows
    when = f" (published {clip(dates.pop(), 10)})" if len(dates) == 1 else ""
    return "\n".join([f"## Evaluations of {clip(paper)}{when}", head + tail, *lines])


def standing(row: Evaluation) -> str:
    """` — best now 35 (model, paper): 6.6 behind, rank 6/7` for a row compared against
    today's best (`against_sota`), or why it was not; nothing otherwise."""
    sota = row.sota if isinstance(row, PaperEvaluation) else None
    if sota is None:
        why = row.sota_unavailable if isinstance(row, PaperEvaluation) else None
        return f" — not compared: {clip(why, 80)}" if why else ""
    names = [(sota.model_name, 80), (sota.paper_title, 100), (sota.protocol, 60)]
    who = joined([clip(name, limit) for name, limit in names if name], ", ")
    who = joined([who, extra_data(sota.extra_data)], ", ")
    behind = "the best" if sota.gap == 0 else f"{number(sota.gap)} behind"
    rank = f"{'?' if sota.rank is None else sota.rank}/{'?' if sota.of is None else sota.of}"
    return f" — best now {number(sota.value)}{f' ({who})' if who else ''}: {behind}, rank {rank}"


# --- catalog records (tasks, methods, benchmarks, conferences, organizations, frameworks) ---


def label(row: dict[str, Any]) -> str:
    """`Name (`slug`)`: how every catalog record is named in a text."""
    name = row.get("name") or row.get("full_name") or row.get("slug") or row.get("id")
    key = row.get("slug") or row.get("id")
    return clip(name or "unnamed", 100) + (f" (`{clip(key, 80)}`)" if key else "")


def facts(row: dict[str, Any]) -> str:
    """The few numbers and names that tell one record from another, in one line."""
    full = row.get("full_name")
    start, end, year = row.get("start_date"), row.get("end_date"), row.get("year")
    platforms = row.get("platforms")
    parts = [
        clip(full, 100) if isinstance(full, str) and full != row.get("name") else None,
        clip(row["area_name"], 60) if isinstance(row.get("area_name"), str) else None,
        f"{clip(start, 12)} to {clip(end, 12)}" if start and end else (str(year) if year else None),
        f"introduced {row['introduced_year']}" if row.get("introduced_year") else None,
        joined([clip(row[k], 60) for k in ("venue", "location") if row.get(k)], ", "),
        f"tier {clip(row['tier'], 8)}" if row.get("tier") else None,
        joined([clip(row[k], 40) for k in ("category_name", "domain_name") if row.get(k)], ", "),
        "platforms " + ", ".join(clip(p, 20) for p in platforms[:8])
        if isinstance(platforms, list) and platforms
        else None,
        count(row.get("paper_count", row.get("all_time_paper_count")), "paper"),
        count(row.get("recent_paper_count"), "recent paper"),
        count(row.get("benchmark_count"), "benchmark"),
        count(row.get("evaluation_count"), "evaluation"),
        "featured" if row.get("is_featured") is True else None,
        f"trending #{row['trending_rank']}" if isinstance(row.get("trending_rank"), int) else None,
        f"best model {clip(row['best_model_name'], 60)}" if row.get("best_model_name") else None,
    ]
    return joined(parts)


def record_line(row: dict[str, Any]) -> str:
    about = facts(row)
    return f"- {label(row)}" + (f" — {about}" if about else "")


def records(rows: list[dict[str, Any]], head: str) -> str:
    return "\n".join([head, *map(record_line, rows)])


def grouped(rows: list[dict[str, Any]], noun: str, *keys: str) -> str:
    """Rows under `### area` (or `### area › task`) headings, in the rows' order."""
    heads = {tuple(str(r.get(k) or "other") for k in keys) for r in rows}
    lines, current = [f"Returned {len(rows)} {noun} in {len(heads)} groups."], None
    for row in rows:
        group = tuple(str(row.get(k) or "other") for k in keys)
        if group != current:
            lines.append("### " + " › ".join(clip(g, 80) for g in group))
            current = group
        lines.append(record_line(row))
    return "\n".join(lines)


def record(item: dict[str, Any], area: Any = None) -> str:
    """A detail record: name, facts, description and its own links."""
    lines = [f"## {label(item)}", facts(item)]
    if isinstance(area, dict) and area.get("name"):
        lines.append(f"Area: {clip(area['name'], 60)}")
    if item.get("organization_name"):
        lines.append(f"By {clip(item['organization_name'], 80)}")
    if item.get("source_title"):
        source = item.get("source_paper_id")
        lines.append(
            f"Introduced in: {clip(item['source_title'])}"
            + (f" (ID {clip(source, 20)})" if source else "")
        )
    if item.get("first_paper_year") and item.get("latest_paper_year"):
        lines.append(f"Papers from {item['first_paper_year']} to {item['latest_paper_year']}")
    for key in ("when_to_use", "description"):
        if item.get(key):
            lines.append(clip(item[key], PROSE))
    lines += [
        f"- {key.removesuffix('_url')}: {clip(item[key])}"
        for key in ("url", "website_url", "github_url", "docs_url", "hf_url")
        if isinstance(item.get(key), str) and item[key]
    ]
    return "\n".join(line for line in lines if line)


TASK_PAPERS = 10  # paper lines in a task's text; data.papers holds the catalog's sample


def task(item: dict[str, Any], papers: Sequence[PaperSummary] = ()) -> str:
    """The task's record, its neighbours, its common methods with their paper counts, its
    benchmarks, recommended frameworks and papers (at most TASK_PAPERS, then how many more)."""
    area = item.get("area")
    lines = [record(item, area)]
    for title, key in (
        ("Parents", "parents"),
        ("Subtasks", "children"),
        ("Related tasks", "sisters"),
        ("Common methods", "common_methods"),
    ):
        rows = [r for r in item.get(key) or [] if isinstance(r, dict)]
        if rows:
            lines.append(f"{title}: " + ", ".join(map(_counted, rows)))
    benchmarks = item.get("benchmarks") or []
    lines.append(f"Benchmarks (returned {len(benchmarks)}):")
    lines += [record_line(b) for b in benchmarks] or ["- none listed"]
    below = [b for s in item.get("subtask_benchmarks") or [] for b in s.get("benchmarks") or []]
    if below:
        lines.append("Subtask benchmarks: " + ", ".join(label(b) for b in below))
    frameworks = item.get("recommended_frameworks") or []
    if frameworks:
        lines.append("Recommended frameworks:")
        lines += [_framework(f) for f in frameworks]
    if papers:
        lines.append(f"Papers (the first {min(len(papers), TASK_PAPERS)}):")
        lines += [paper_line(p) for p in papers[:TASK_PAPERS]]
        rest = len(papers) - TASK_PAPERS
        lines += [f"- … {rest} more (list_papers with task)"] if rest > 0 else []
    return "\n".join(lines)


def _counted(row: dict[str, Any]) -> str:
    """`Name (`slug`)`, with its paper count when the row has one: `Dropout (`dropout`) (2
    papers)`."""
    papers = count(row.get("paper_count"), "paper")
    return label(row) + (f" ({papers})" if papers else "")


def _framework(row: dict[str, Any]) -> str:
    """`- owner/name (N stars): url`."""
    name = "/".join(clip(row[k], 60) for k in ("owner", "name") if row.get(k)) or "unnamed"
    stars = count(row.get("num_stars"), "star")
    url = row.get("url")
    return f"- {name}" + (f" ({stars})" if stars else "") + (f": {clip(url)}" if url else "")


def main_scope(scopes: Any) -> str | None:
    """`Main task scope: T, ranked by M (higher is better).` for the benchmark's main scope
    among a leaderboard payload's `task_scopes`; None when the rows hold none of it."""
    main = next((s for s in scopes or [] if isinstance(s, dict) and s.get("main")), None)
    if main is None:
        return None
    task = clip(
        main.get("task_name") or main.get("task_slug") or main.get("task_id") or "no task", 80
    )
    metric, direction = main.get("primary_metric"), main.get("direction")
    by = f", ranked by {clip(metric, 60)}" if metric else ""
    by += f" ({direction} is better)" if metric and direction in ("higher", "lower") else ""
    return f"Main task scope: {task}{by}."


def leaderboard(
    bench: dict[str, Any],
    header: str,
    rows: list[Evaluation],
    tail: str,
    also: Any = None,
    bests: Sequence[str] = (),
) -> str:
    lines = [f"## {label(bench)}", header + tail]
    # an exact name that other benchmarks contain ("Penn Treebank"): say which, once
    named = [clip(n, 100) for n in also or [] if isinstance(n, str) and n]
    lines += [f"Other benchmarks with this name: {', '.join(named)}."] if named else []
    lines += bests  # every scope's best, before the page (pwc_core.sentences.best_lines)
    lines += [evaluation_line(row, benchmark=False) for row in rows] or ["- no rows"]
    return "\n".join(lines)
