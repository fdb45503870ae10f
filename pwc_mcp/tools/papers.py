"""Paper tools (`pwc search`, `pwc paper …`) and the paper resource templates."""

from __future__ import annotations

import json
from typing import Any

from fastmcp.server.providers import LocalProvider
from fastmcp.tools import ToolResult

from pwc_core import citations
from pwc_mcp.answers import paper_texts, texts
from pwc_mcp.answers.additions import paper_refs, scores
from pwc_mcp.answers.models import (
    Citation,
    EvaluationPage,
    Lineage,
    PaperInfo,
    PaperPage,
    PaperRead,
    lean_schema,
)
from pwc_mcp.answers.projections import (
    checked,
    checked_rows,
    evaluation,
    paper_detail,
    paper_evaluation,
    paper_summary,
)
from pwc_mcp.answers.tool_errors import tool_error
from pwc_mcp.catalog import CatalogService
from pwc_mcp.failures import Failure, Kind
from pwc_mcp.params import HOSTED_ROW_CAP, validated
from pwc_mcp.tools import (
    READ_ONLY,
    bounded,
    cap,
    generated,
    more,
    next_page_of,
    payload_of,
    respond,
    rows_of,
    sections,
)
from pwc_mcp.tools.abstracts import replace_rows, with_snippets


def paper_page(
    catalog: CatalogService, payload: Any, page: int | None = None, scope: str | None = None
) -> ToolResult:
    """A page of paper rows; each row of `data` gains its abstract's `snippet` (pwc_mcp.tools.abstracts),
    the one key `data` adds to the CLI's payload, so the projection names rows by ID only."""
    rows, total = rows_of(payload)
    shown = with_snippets(catalog.transport, cap(rows))
    items = [paper_summary(r) for r in shown]
    next_page = next_page_of(payload)
    model = PaperPage(
        items=paper_refs(items),
        count=total,
        page=page,
        next_page=next_page,
        data=replace_rows(bounded(payload), shown),
    )
    return respond(model, paper_texts.paper_list(total, items, page, more(next_page), scope))


RESOURCES = ("repositories", "project_pages", "hf_models", "hf_datasets", "hf_spaces")


def _resources(payload: dict[str, Any], repo_limit: int, everything: bool) -> dict[str, Any]:
    """The payload with its resource lists as the tool returns them: at most repo_limit of
    each kind, official repositories first; without include_resources only those."""
    data: dict[str, Any] = {}
    for key, value in payload.items():
        if key not in RESOURCES or (everything and not isinstance(value, list)):
            data[key] = value
        elif key == "repositories":
            kept = sorted(value, key=lambda r: not _official(r)) if isinstance(value, list) else []
            data[key] = (kept if everything else [r for r in kept if _official(r)])[:repo_limit]
        elif everything:
            data[key] = value[:repo_limit]
    if not everything:
        data.setdefault("repositories", [])
    return data


def _official(repository: Any) -> bool:
    return isinstance(repository, dict) and repository.get("is_official") is True


def info_result(catalog: CatalogService, name: str, params: dict[str, Any]) -> ToolResult:
    payload = payload_of(catalog, name, params, include_resources=True)
    repo_limit = params.get("repo_limit") or 5
    everything = bool(params.get("include_resources"))
    paper = paper_detail(payload, repo_limit, everything)
    count, shown, rows = None, None, []
    data = _resources(payload, repo_limit, everything)
    if isinstance(payload.get("evaluations"), dict):
        rows = cap(checked_rows(payload["evaluations"].get("results")))
        count = payload["evaluations"].get("count")
        shown = [evaluation(r) for r in rows]
        data["evaluations"] = {
            "count": count,
            "results": rows,
            "note": "first 25 rows; page with get_paper_evaluations",
        }
    cited = data.pop("citation", None)  # typed below, not twice
    if params.get("cite") and cited is None and payload.get("in_catalog") is False:
        # CatalogService.run answers a paper outside the catalog before the handler runs;
        # its citation needs no catalog request (public metadata names no venue).
        cited = citations.citation(None, payload, params["cite"])
    citation = Citation.model_validate(cited) if isinstance(cited, dict) else None
    if citation is not None:
        text = paper_texts.citation(citation, paper.published)
    else:
        text = paper_texts.paper_info(paper, shown, count)
    model = PaperInfo(
        evaluation_count=count,
        evaluations=scores(rows, shown or []),
        citation=citation,
        data=data,
    )
    return respond(model, text)


def build(catalog: CatalogService) -> LocalProvider:
    provider = LocalProvider(on_duplicate="error")
    tool = provider.tool

    @tool(annotations=READ_ONLY, output_schema=lean_schema(PaperPage))
    @generated
    def search_papers(name: str, /, **params: Any) -> ToolResult:
        """Find papers by topic, title, author or arXiv ID (hybrid; mode keyword for exact words).
        Exact filters (task, method, venue, author): list_papers. Next: get_paper_info or
        read_paper."""
        return paper_page(catalog, payload_of(catalog, name, params), params.get("page"))

    @tool(annotations=READ_ONLY, output_schema=lean_schema(PaperInfo))
    @generated
    def get_paper_info(name: str, /, **params: Any) -> ToolResult:
        """One paper: metadata, abstract, official code first. Next: get_paper_evaluations (its
        results), read_paper (full text)."""
        return info_result(catalog, name, params)

    @tool(annotations=READ_ONLY, output_schema=lean_schema(EvaluationPage))
    @generated
    def get_paper_evaluations(name: str, /, **params: Any) -> ToolResult:
        """A paper's benchmark results, merged across task scopes. A whole leaderboard:
        get_benchmark."""
        payload = payload_of(catalog, name, params)
        raw = cap(checked_rows(payload.get("results")))
        rows = [paper_evaluation(r) for r in raw]
        model = EvaluationPage(
            evaluation_count=payload.get("count"),
            page=payload.get("page") or 1,
            next_page=payload.get("next_page"),
            evaluations=scores(raw, rows),
            data=bounded(payload),
        )
        text = texts.evaluations(
            params["paper"].strip(), model.evaluation_count, rows, model.page, more(model.next_page)
        )
        return respond(model, text)

    @tool(annotations=READ_ONLY, output_schema=lean_schema(PaperRead))
    @generated
    def read_paper(name: str, /, **params: Any) -> ToolResult:
        """A paper's full text as Markdown, 64 KiB per call; while `truncated`, call again with
        cursor=next_cursor. Metadata and abstract: get_paper_info."""
        try:
            chunk = sections.read(catalog, params)
        except Exception as error:
            raise tool_error(error, "paper read") from None
        if isinstance(chunk, dict):  # the outline
            outline = PaperRead(data=chunk)  # its content_version is in the payload
            return respond(outline, sections.outline_text(chunk))
        data: dict[str, Any]
        if isinstance(chunk, sections.SectionChunk):
            data = {"paper": chunk.paper, "section": chunk.section, "markdown": chunk.markdown}
        else:
            data = {"paper": chunk.paper, "markdown": chunk.markdown}
        return respond(_chunk_model(chunk, data), chunk.markdown + sections.continuation(chunk))

    @tool(annotations=READ_ONLY, output_schema=lean_schema(PaperPage))
    @generated
    def list_papers(name: str, /, **params: Any) -> ToolResult:
        """Papers by exact filters (task, method, conference, framework, organization, authors,
        dates, official code); fails rather than ignore a filter. Topic search: search_papers.
        Next: get_paper_info."""
        return paper_page(catalog, payload_of(catalog, name, params), params.get("page"))

    @tool(annotations=READ_ONLY, output_schema=lean_schema(PaperPage))
    @generated
    def list_recent_papers(name: str, /, **params: Any) -> ToolResult:
        """The most recently published papers. Next: get_paper_info."""
        return paper_page(catalog, payload_of(catalog, name, params))

    @tool(annotations=READ_ONLY, output_schema=lean_schema(PaperPage))
    @generated
    def list_trending_papers(name: str, /, **params: Any) -> ToolResult:
        """Papers gaining attention now, published within max_age_days. Next: get_paper_info."""
        scope = paper_texts.trending_scope(params.get("max_age_days"), params.get("min_velocity"))
        return paper_page(catalog, payload_of(catalog, name, params), scope=scope)

    @tool(annotations=READ_ONLY, output_schema=lean_schema(PaperPage))
    @generated
    def get_related_papers(name: str, /, **params: Any) -> ToolResult:
        """Papers the catalog lists as similar to one paper. What it builds on or led to:
        get_paper_lineage. Next: get_paper_info."""
        return paper_page(catalog, payload_of(catalog, name, params))

    @tool(annotations=READ_ONLY, output_schema=lean_schema(Lineage))
    @generated
    def get_paper_lineage(name: str, /, **params: Any) -> ToolResult:
        """What a paper builds on and what built on it: explicit catalog links only (empty lists
        prove nothing). Similar work: get_related_papers."""
        payload = payload_of(catalog, name, params)

        def items(key: str) -> list[dict[str, Any]]:
            return checked_rows(payload.get(key))[:HOSTED_ROW_CAP]

        paper = payload.get("paper")
        text = paper_texts.lineage(
            checked(paper) if paper is not None else None,
            items("predecessors"),
            items("successors"),
        )
        model = Lineage(data=bounded(payload, ("predecessors", "successors")))
        return respond(model, text)

    @provider.resource(
        "pwc://papers/{paper}",
        name="paper-info",
        title="Paper information",
        description="Canonical paper metadata (get_paper_info with defaults). "
        "Percent-encode a `/` in legacy arXiv IDs.",
        mime_type="application/json",
    )
    def paper_resource(paper: str) -> str:
        name = "get_paper_info"  # the tool this resource is, with its defaults
        result = _as_resource(lambda: info_result(catalog, name, validated(name, {"paper": paper})))
        return json.dumps(result.structured_content, ensure_ascii=False)

    @provider.resource(
        "pwc://papers/{paper}/markdown",
        name="paper-markdown",
        title="Paper Markdown",
        mime_type="text/markdown",
        description="The complete stored Markdown when it fits one 64 KiB "
        "response; longer papers are read with read_paper.",
    )
    def paper_markdown(paper: str) -> str:
        chunk = _as_resource(
            lambda: catalog.read(validated("read_paper", {"paper": paper})["paper"], None)
        )
        if chunk.truncated:
            raise Failure(
                Kind.INVALID_ARGUMENT,
                "this paper's Markdown is longer than one response; read it with the "
                "read_paper tool and its cursor",
            )
        return chunk.markdown

    return provider


def _chunk_model(chunk: Any, data: dict[str, Any]) -> PaperRead:
    """One chunk of a paper or of a section: the same fields, its own `data`."""
    return PaperRead(
        truncated=chunk.truncated or None,  # said only while more remains
        next_cursor=chunk.next_cursor,
        offset=chunk.offset,
        content_version=chunk.content_version,
        data=data,
    )


def _as_resource(produce: Any) -> Any:
    """Resource reads fail with the tools' Failures (the same kinds and words); the server says
    each as the JSON-RPC error of its kind (pwc_mcp.server)."""
    try:
        return produce()
    except Exception as error:
        raise tool_error(error) from None
