"""Stable, versioned structured outputs (`schema_version: "v1"`) and their projections.

Every result carries `data`, the CLI's JSON payload, beside typed projections. The models are
deliberately lean (few nested types, short descriptions): every client loads their schemas into
the model's context through `tools/list`.
"""

from __future__ import annotations

import re
from typing import Any, Literal

from pydantic import BaseModel

from pwc_cli.leaderboard import parse_metric
from pwc_cli.render import absolute

SCHEMA_VERSION = "v1"
_SHOTS = re.compile(r"(\d+)\s*[- ]?\s*shot", re.IGNORECASE)


class Out(BaseModel):
    schema_version: Literal["v1"] = SCHEMA_VERSION


class PaperSummary(BaseModel):
    id: str | None = None
    arxiv_id: str | None = None
    title: str
    authors: list[str] = []
    published: str | None = None
    citation_count: int | None = None
    url: str | None = None
    has_official_implementation: bool = False
    code_repository_count: int = 0


class Link(BaseModel):
    url: str
    is_official: bool = False


class PaperDetail(PaperSummary):
    abstract: str | None = None
    pdf_url: str | None = None
    conference: str | None = None
    tasks: list[str] = []
    methods: list[str] = []
    repositories: list[Link] = []
    project_pages: list[Link] = []
    hf_models: list[str] = []
    hf_datasets: list[str] = []
    hf_spaces: list[str] = []
    in_catalog: bool = True
    available_at: list[dict[str, str]] = []


class RankScope(BaseModel):
    task_id: str | None = None
    task_name: str | None = None
    rank: int | None = None


class Evaluation(BaseModel):
    model_name: str | None = None
    harness: str | None = None
    benchmark: str | None = None
    metrics: dict[str, float | str | None] = {}
    best_metric: str | None = None
    best_rank: int | None = None
    rank_scopes: list[RankScope] = []
    paper_title: str | None = None
    paper_arxiv_id: str | None = None
    num_parameters: int | None = None
    is_open: bool | None = None
    split: str | None = None
    shots: int | None = None
    protocol: str | None = None
    source_url: str | None = None
    updated_at: str | None = None


class PaperPage(Out):
    items: list[PaperSummary]
    count: int | None = None
    page: int | None = None
    next_page: int | None = None
    data: dict[str, Any] | list[dict[str, Any]]  # recent, trending, related: a bare list of papers


class PaperInfo(Out):
    paper: PaperDetail
    evaluation_count: int | None = None  # with include_evaluations; rows are in data.evaluations
    data: dict[str, Any]


class EvaluationPage(Out):
    paper: str
    evaluation_count: int | None = None
    page: int
    next_page: int | None = None
    evaluations: list[Evaluation]
    data: dict[str, Any]


class PaperRead(Out):
    paper: str
    truncated: bool
    next_cursor: str | None = None
    offset: int = 0
    content_version: str | None = None
    data: dict[str, Any]


class Lineage(Out):
    paper: dict[str, Any] | None = None
    predecessors: list[dict[str, Any]]
    successors: list[dict[str, Any]]
    coverage: Literal["explicit_catalog_links_only"] = "explicit_catalog_links_only"
    data: dict[str, Any]


class Record(Out):
    """One named entity (task, method, conference, organization, framework)."""

    item: dict[str, Any]
    data: dict[str, Any]


class RecordPage(Out):
    items: list[dict[str, Any]]
    count: int | None = None
    page: int | None = None
    next_page: int | None = None
    data: dict[str, Any]


class BenchmarkSummary(BaseModel):
    id: str | None = None
    name: str | None = None
    slug: str | None = None
    full_name: str | None = None
    description: str | None = None
    paper_count: int | None = None


class Leaderboard(Out):
    benchmark: BenchmarkSummary
    evaluation_count: int | None = None
    matched_count: int | None = None
    page: int
    next_page: int | None = None
    evaluations: list[Evaluation]
    metric_directions: dict[str, str] = {}
    data: dict[str, Any]


# --- projections -------------------------------------------------------------------------


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


def paper_summary(row: dict[str, Any]) -> PaperSummary:
    return PaperSummary(
        id=text(row.get("id")),
        arxiv_id=text(row.get("arxiv_id")),
        title=str(row.get("title") or ""),
        authors=[str(a) for a in row.get("authors") or [] if a],
        published=text(row.get("published") or row.get("date_published")),
        citation_count=integer(row.get("citation_count")),
        url=absolute(row.get("url_abs") or row.get("source_url")),
        has_official_implementation=row.get("has_official_implementation") is True,
        code_repository_count=integer(row.get("code_repository_count")) or 0,
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
    """Compact and official-first: official code always; the rest only when asked for."""
    repositories = _links(paper.get("repositories"))
    if not everything:
        repositories = [r for r in repositories if r.is_official]
    summary = paper_summary(paper).model_dump()

    def urls(key: str) -> list[str]:
        return (
            [str(u) for u in paper.get(key) or [] if isinstance(u, str)][:repo_limit]
            if everything
            else []
        )

    return PaperDetail(
        **summary,
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


def evaluation(row: dict[str, Any]) -> Evaluation:
    methodology = text(row.get("methodology"))
    shots = _SHOTS.search(methodology or "")
    scopes = row.get("rank_scopes") or [
        {
            "task_id": row.get("task_id"),
            "task_name": row.get("task_name"),
            "rank": row.get("best_rank"),
        }
    ]
    is_open = row.get("is_open")
    return Evaluation(
        model_name=text(row.get("model_name")),
        harness=text(row.get("harness")),
        benchmark=text(row.get("dataset_name")),
        metrics={str(k): _metric(v) for k, v in (row.get("metrics") or {}).items()},
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
        num_parameters=integer(row.get("num_parameters")),
        is_open=is_open if isinstance(is_open, bool) else None,
        split=text(row.get("split") or row.get("split_name") or row.get("evaluated_on")),
        shots=int(shots.group(1)) if shots else None,
        protocol=methodology,
        source_url=absolute(
            row.get("result_url") or row.get("source_url") or row.get("external_source_url")
        ),
        updated_at=text(row.get("updated_at")),
    )


def benchmark_summary(row: dict[str, Any]) -> BenchmarkSummary:
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


def compact_schema(node: Any, defs: dict[str, Any] | None = None) -> Any:
    """The same contract in fewer, more portable bytes: no titles, `$defs` inlined, and no
    `null` branches.

    A nullable input is simply optional (absent means unset; validation still accepts null),
    and an output field that is unknown is omitted rather than sent as null (`respond` dumps
    with `exclude_none`). So every property keeps a single `type`, which single-type schema
    dialects (e.g. Gemini's function declarations) require, and clients load fewer tokens.
    """
    if isinstance(node, list):
        return [compact_schema(item, defs) for item in node]
    if not isinstance(node, dict):
        return node
    if "$ref" in node and defs is not None:
        return compact_schema(defs[node["$ref"].rsplit("/", 1)[-1]], defs)
    out = {
        k: compact_schema(v, defs)
        for k, v in node.items()
        if k not in ("title", "$defs", "properties")
        and not (k == "default" and v is None)
        and not (k == "additionalProperties" and v is True)
    }
    if isinstance(node.get("properties"), dict):  # property names are data, not keywords
        out["properties"] = {k: compact_schema(v, defs) for k, v in node["properties"].items()}
    if "const" in out:
        out.pop("type", None)  # a const already fixes the type
    options = out.get("anyOf")
    if isinstance(options, list) and {"type": "null"} in options:
        rest = [o for o in options if o != {"type": "null"}]
        if len(rest) == 1:
            del out["anyOf"]
            out = {**rest[0], **out}
        else:
            out["anyOf"] = rest
    return out


def lean_schema(model: type[BaseModel]) -> dict[str, Any]:
    """A model's output schema, compacted, with defaults removed (they describe inputs)."""
    schema = model.model_json_schema()
    return _without_defaults(compact_schema(schema, schema.get("$defs", {})))


def _without_defaults(node: Any) -> Any:
    if isinstance(node, list):
        return [_without_defaults(item) for item in node]
    if isinstance(node, dict):
        return {k: _without_defaults(v) for k, v in node.items() if k != "default"}
    return node
