"""Catalog rows → the typed output models, checking the fields each projection relies on.

An upstream answer of the wrong shape (a paper whose `id` is a list, a `title` that is an
object, a row that is not an object) is an upstream error, never an empty success: the check
raises `UpstreamShapeError`, which every tool reports as `upstream_error:`.
"""

from __future__ import annotations

import math
import re
from typing import Any

from pwc_core.errors import UpstreamShapeError
from pwc_core.flags import known
from pwc_core.metrics import parse_metric
from pwc_core.urls import absolute
from pwc_mcp.answers.models import (
    BenchmarkSummary,
    Evaluation,
    Link,
    PaperDetail,
    PaperEvaluation,
    PaperSummary,
    RankScope,
    Standing,
)

SHAPE = "API returned an unexpected response shape"  # our own words, shown as upstream_error
_SHOTS = re.compile(r"(\d+)\s*[- ]?\s*shot", re.IGNORECASE)

# What an identifying field may be when present: an ID is a number or a string; a name is text.
_IDENTIFIER = (int, str)
FIELDS: dict[str, tuple[type, ...]] = {
    "id": _IDENTIFIER,
    "reference": _IDENTIFIER,
    "arxiv_id": (str,),
    "title": (str,),
    "name": (str,),
    "slug": (str,),
    "full_name": (str,),
    "model_name": (str,),
    "dataset_name": (str,),
    "paper_title": (str,),
    "paper_arxiv_id": (str,),
}


def checked(row: Any, *keys: str) -> dict[str, Any]:
    """`row` itself once it is an object whose identifying `keys` (all of FIELDS by default)
    are absent, null or of their kind; otherwise the answer is not one we can project."""
    if not isinstance(row, dict):
        raise UpstreamShapeError(SHAPE)
    for key in keys or tuple(FIELDS):
        value = row.get(key)
        if value is not None and (isinstance(value, bool) or not isinstance(value, FIELDS[key])):
            raise UpstreamShapeError(SHAPE)
    return row


def checked_rows(rows: Any) -> list[dict[str, Any]]:
    """Rows of a list, each checked; a list that is not one is the wrong shape too."""
    if rows is None:
        return []
    if not isinstance(rows, list):
        raise UpstreamShapeError(SHAPE)
    return [checked(row) for row in rows]


def text(value: Any) -> str | None:
    return None if value is None or value == "" else str(value)


def integer(value: Any) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str) and value.strip().isdigit():
        return int(value)
    return None


def paper_summary(row: Any) -> PaperSummary:
    row = checked(row)
    return PaperSummary(
        id=text(row.get("id")),
        arxiv_id=text(row.get("arxiv_id")),
        title=row.get("title") or "",
        authors=[str(a) for a in row.get("authors") or [] if a],
        published=text(row.get("published") or row.get("date_published")),
        citation_count=integer(row.get("citation_count")),
        url=absolute(row.get("url_abs") or row.get("source_url")),
        has_official_implementation=row.get("has_official_implementation") is True,
        code_repository_count=integer(row.get("code_repository_count")) or 0,
        snippet=row.get("snippet") if isinstance(row.get("snippet"), str) else None,
    )


def _links(items: Any) -> list[Link]:
    links = []
    for item in items or []:
        if isinstance(item, str):
            links.append(Link(url=item))
        elif isinstance(item, dict) and item.get("url"):
            links.append(Link(url=str(item["url"]), is_official=item.get("is_official") is True))
    return sorted(links, key=lambda link: not link.is_official)


def _names(items: Any) -> list[str]:
    return [
        str(i.get("name") or i.get("slug"))
        for i in items or []
        if isinstance(i, dict) and (i.get("name") or i.get("slug"))
    ]


def paper_detail(paper: dict[str, Any], repo_limit: int, everything: bool) -> PaperDetail:
    """Compact and official-first: official code always; the rest only when asked for. A paper
    is named by its title, so one without a title is not a paper we can show."""
    summary = paper_summary(paper)
    if not summary.title.strip():
        raise UpstreamShapeError(SHAPE)
    repositories = _links(paper.get("repositories"))
    if not everything:
        repositories = [r for r in repositories if r.is_official]

    def urls(key: str) -> list[str]:
        return (
            [str(u) for u in paper.get(key) or [] if isinstance(u, str)][:repo_limit]
            if everything
            else []
        )

    return PaperDetail(
        **summary.model_dump(exclude={"snippet"}),  # the whole abstract is here
        abstract=text(paper.get("abstract")),
        pdf_url=text(paper.get("url_pdf")),
        conference=text(paper.get("conference_name") or paper.get("conference")),
        tasks=_names(paper.get("tasks")),
        methods=_names(paper.get("methods")),
        repositories=repositories[:repo_limit],
        project_pages=_links(paper.get("project_pages"))[:repo_limit] if everything else [],
        hf_models=urls("hf_models"),
        hf_datasets=urls("hf_datasets"),
        hf_spaces=urls("hf_spaces"),
        in_catalog=paper.get("in_catalog") is not False,
        organizations=_names(paper.get("organizations")),
        predecessors=checked_rows(paper.get("predecessor_papers")),
        successors=checked_rows(paper.get("successor_papers")),
        available_at=[
            {"label": str(a.get("label")), "url": str(a.get("url"))}
            for a in paper.get("available_at") or []
            if isinstance(a, dict)
        ],
    )


def _metric(value: Any) -> float | str | None:
    """The CLI's metric reading (numbers, "1,234", "78.5%"); other text is kept as text."""
    number = parse_metric(value)
    if number is not None or value is None or isinstance(value, bool):
        return number
    return str(value)


def evaluation(row: Any) -> Evaluation:
    row = checked(row)
    methodology = text(row.get("methodology"))
    shots = _SHOTS.search(methodology or "")
    scopes = row.get("rank_scopes") or [
        {
            "task_id": row.get("task_id"),
            "task_name": row.get("task_name"),
            "rank": row.get("best_rank"),
        }
    ]
    metrics = row.get("metrics") or {}
    if not isinstance(metrics, dict):
        raise UpstreamShapeError(SHAPE)
    return Evaluation(
        model_name=text(row.get("model_name")),
        harness=text(row.get("harness")),
        benchmark=text(row.get("dataset_name")),
        metrics={str(k): _metric(v) for k, v in metrics.items()},
        best_metric=text(row.get("best_metric")),
        best_rank=integer(row.get("best_rank")),
        rank_scopes=[
            RankScope(
                task_id=text(s.get("task_id")),
                task_name=text(s.get("task_name")),
                rank=integer(s.get("rank")),
            )
            for s in scopes
            if isinstance(s, dict)
        ],
        paper_title=text(row.get("paper_title")),
        paper_arxiv_id=text(row.get("paper_arxiv_id")),
        paper_published=text(row.get("paper_published_date")),
        num_parameters=integer(row.get("num_parameters")),
        is_open=known(row.get("is_open")),
        split=text(row.get("split") or row.get("split_name") or row.get("evaluated_on")),
        shots=int(shots.group(1)) if shots else None,
        protocol=methodology,
        extra_data=known(row.get("uses_additional_data")),
        source_url=absolute(
            row.get("result_url") or row.get("source_url") or row.get("external_source_url")
        ),
        updated_at=text(row.get("updated_at")),
    )


def _finite(value: Any) -> float | None:
    number = parse_metric(value) if isinstance(value, int | float) else None
    return number if number is not None and math.isfinite(number) else None


def paper_evaluation(row: Any) -> PaperEvaluation:
    """`evaluation` plus the row's standing against today's best (`against_sota`)."""
    base = evaluation(row)
    sota, why = row.get("sota"), text(row.get("sota_unavailable"))
    standing = None
    if isinstance(sota, dict):
        value, gap = _finite(sota.get("value")), _finite(sota.get("gap"))
        if value is None or gap is None or not text(sota.get("metric")):
            raise UpstreamShapeError(SHAPE)
        standing = Standing(
            metric=str(sota["metric"]),
            value=value,
            gap=gap,
            rank=integer(sota.get("rank")),
            of=integer(sota.get("of")),
            model_name=text(sota.get("model_name")),
            paper_title=text(sota.get("paper_title")),
            extra_data=known(sota.get("uses_additional_data")),
            protocol=text(sota.get("protocol")),
        )
    return PaperEvaluation(**dict(base), sota=standing, sota_unavailable=why)


def benchmark_summary(row: Any) -> BenchmarkSummary:
    row = checked(row)
    count = next(
        (
            integer(row.get(k))
            for k in ("paper_count", "all_time_paper_count", "evaluation_count")
            if integer(row.get(k)) is not None
        ),
        None,
    )
    return BenchmarkSummary(
        id=text(row.get("id")),
        name=text(row.get("name")),
        slug=text(row.get("slug")),
        full_name=text(row.get("full_name")),
        description=text(row.get("description")),
        paper_count=count,
    )
