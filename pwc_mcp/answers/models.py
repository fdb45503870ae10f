"""Stable, versioned structured outputs (`schema_version: "v2"`) and their compact schemas.

Every result carries `data`, the CLI's JSON payload, and beside it only what `data` lacks or
holds in a form a model cannot rely on: metric values as numbers, counts and pages, cursors,
each row named by its `data` row's ID (one copy of every fact: issue #26). The typed rows
(`PaperSummary`, `Evaluation`, ...) are what `pwc_mcp.answers.projections` checks an answer into and the
texts are written from; they are not sent. The models are lean (few nested types, short
descriptions): every client loads their schemas into the model's context through `tools/list`.
"""

from __future__ import annotations

from typing import Any, Final, Literal

from pydantic import BaseModel

# v2 (issue #26): beside `data` only what it lacks; v1 repeated `data` in typed fields. A field
# removed or changed in meaning is a new version; a field added is not. (The CLI's `--json`
# envelope has its own version, still v1: its payload did not change.)
SCHEMA_VERSION: Final = "v2"

# --- typed rows: what an answer is checked into, the texts' source (not sent) --------------


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
    snippet: str | None = None  # list rows: the abstract's head (pwc_mcp.tools.abstracts)


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
    organizations: list[str] = []
    predecessors: list[dict[str, Any]] = []  # lineage rows as data holds them
    successors: list[dict[str, Any]] = []


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
    paper_published: str | None = None
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


class BenchmarkSummary(BaseModel):
    id: str | None = None
    name: str | None = None
    slug: str | None = None
    full_name: str | None = None
    description: str | None = None
    paper_count: int | None = None


# --- the structured outputs ----------------------------------------------------------


class Out(BaseModel):
    schema_version: Literal["v2"] = SCHEMA_VERSION


class Page(Out):
    count: int | None = None
    page: int | None = None
    next_page: int | None = None


class PaperRef(BaseModel):  # a paper row of data, by its ID (its snippet is in that row)
    id: str | None = None


class PaperPage(Page):
    items: list[PaperRef] = []
    data: dict[str, Any] | list[dict[str, Any]]  # recent, trending, related: a bare list of papers


class Scores(BaseModel):  # an evaluation row of data, by its ID: its metric values as numbers
    id: str | None = None
    metrics: dict[str, float] = {}
    shots: int | None = None  # read from the row's methodology


class Citation(BaseModel):
    # A `cite` entry (pwc_core.citations); `source` is "catalog" or "public_metadata". No
    # docstring: it would become a schema description in every tools/list.
    format: str
    key: str
    text: str
    source: str
    note: str | None = None  # what a public-metadata entry was built from


class PaperInfo(Out):
    evaluation_count: int | None = None  # with include_evaluations
    evaluations: list[Scores] = []  # those of data.evaluations.results
    citation: Citation | None = None  # with cite; then the text block is the entry itself
    data: dict[str, Any]


class EvaluationPage(Out):
    evaluation_count: int | None = None
    page: int
    next_page: int | None = None
    evaluations: list[Scores] = []
    data: dict[str, Any]


class PaperRead(Out):
    truncated: bool | None = None  # present (true) only while more remains: call with next_cursor
    next_cursor: str | None = None
    offset: int | None = None
    content_version: str | None = None
    data: dict[str, Any]


class Lineage(Out):
    coverage: Literal["explicit_catalog_links_only"] = "explicit_catalog_links_only"
    data: dict[str, Any]


class Record(Out):  # one named entity (task, method, conference, organization, framework)
    data: dict[str, Any]


class RecordPage(Page):
    data: dict[str, Any]


class Leaderboard(Out):
    evaluation_count: int | None = None
    matched_count: int | None = None
    page: int
    next_page: int | None = None
    evaluations: list[Scores] = []
    # What the leaderboard app draws, computed by the server (pwc_core.chart_json); untyped:
    # its schema would cost every client's context.
    chart: dict[str, Any] | None = None
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
