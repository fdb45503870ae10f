"""Stable, versioned structured outputs (`schema_version: "v1"`) and their compact schemas.

Every result carries `data`, the CLI's JSON payload, beside typed projections (made by
`pwc_mcp.projections`). The models are deliberately lean (few nested types, short
descriptions): every client loads their schemas into the model's context through `tools/list`.
"""

from __future__ import annotations

from typing import Any, Final, Literal

from pydantic import BaseModel

SCHEMA_VERSION: Final = "v1"


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
    extra_data: bool | None = None  # trained with data beyond the benchmark's own
    source_url: str | None = None
    updated_at: str | None = None


class Standing(BaseModel):  # the task scope's best now; gap: how far behind (0 = the best)
    metric: str
    value: float
    gap: float
    rank: int | None = None
    of: int | None = None
    model_name: str | None = None
    paper_title: str | None = None  # its paper_id is in data
    extra_data: bool | None = None
    protocol: str | None = None


class PaperEvaluation(Evaluation):  # with against_sota: `sota`, or why not
    sota: Standing | None = None
    sota_unavailable: str | None = None


class PaperPage(Out):
    items: list[PaperSummary]
    count: int | None = None
    page: int | None = None
    next_page: int | None = None
    data: dict[str, Any] | list[dict[str, Any]]  # recent, trending, related: a bare list of papers


class Citation(BaseModel):
    # A `cite` entry (pwc_core.citations); `source` is "catalog" or "public_metadata". No
    # docstring: it would become a schema description in every tools/list.
    format: str
    key: str
    text: str
    source: str
    note: str | None = None  # what a public-metadata entry was built from


class PaperInfo(Out):
    paper: PaperDetail
    evaluation_count: int | None = None  # with include_evaluations; rows are in data.evaluations
    citation: Citation | None = None  # with cite; then the text block is the entry itself
    data: dict[str, Any]


class EvaluationPage(Out):
    paper: str
    evaluation_count: int | None = None
    page: int
    next_page: int | None = None
    evaluations: list[PaperEvaluation]
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


class Timeline(BaseModel):
    # SOTA over time; each record: date, value, improvement, model_name, paper_id, paper_title,
    # paper_arxiv_id, num_parameters, is_open, evaluation_id (pwc_core.timeline). Records stay
    # untyped objects here: their schema would cost every client's context far more than it tells.
    metric: str | None = None
    direction: Literal["higher", "lower"] | None = None
    records: list[dict[str, Any]] = []
    considered: int = 0
    undated: int = 0
    complete: bool = True


class Leaderboard(Out):
    benchmark: BenchmarkSummary
    evaluation_count: int | None = None
    matched_count: int | None = None
    page: int
    next_page: int | None = None
    evaluations: list[Evaluation]
    metric_directions: dict[str, str] = {}
    timeline: Timeline | None = None
    data: dict[str, Any]


# --- schemas ------------------------------------------------------------------------------


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
