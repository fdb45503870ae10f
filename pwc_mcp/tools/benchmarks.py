"""Benchmark tools (leaderboards with constraints) and the benchmark resource."""

from __future__ import annotations

import json
from typing import Any

from fastmcp.server.providers import LocalProvider
from fastmcp.tools import ToolResult

from pwc_core.chart_json import to_json as chart_json
from pwc_core.sentences import (
    best_lines,
    leaderboard_summary,
    left_out_sentence,
    ordering_sentence,
)
from pwc_mcp import ui
from pwc_mcp.answers import texts
from pwc_mcp.answers.additions import lighter_rows, scores
from pwc_mcp.answers.models import Leaderboard, RecordPage, lean_schema
from pwc_mcp.answers.projections import benchmark_summary, checked_rows, evaluation
from pwc_mcp.answers.timeline import timeline_of, timeline_text
from pwc_mcp.catalog import CatalogService
from pwc_mcp.params import HOSTED_ROW_CAP, validated
from pwc_mcp.tools import (
    READ_ONLY,
    answer_of,
    bounded,
    cap,
    flat_page,
    generated,
    more,
    payload_of,
    respond,
)
from pwc_mcp.tools.papers import _as_resource
from pwc_mcp.tools.taxonomy import grouped


def leaderboard(catalog: CatalogService, name: str, params: dict[str, Any]) -> ToolResult:
    answered = answer_of(catalog, name, params)
    payload, selection = answered.payload, answered.selection
    assert selection is not None  # the benchmark handler always resolves one
    rows = cap(checked_rows(payload.get("results")))
    bench = benchmark_summary(payload.get("benchmark") or {})
    evaluations = [evaluation(r) for r in rows]
    model = Leaderboard(
        evaluation_count=payload.get("count"),
        matched_count=payload.get("matched_count"),
        page=payload.get("page") or 1,
        next_page=payload.get("next_page"),
        evaluations=scores(rows, evaluations),
        # the rows the result holds, and the objectives the handler selected them by
        chart=chart_json({**payload, "results": rows}, selection),
        data=bounded(lighter_rows(payload)),
    )
    # The page size and selection exactly as the CLI handler resolved them, so the header is
    # the CLI's own sentence (pwc_core.sentences.leaderboard_summary).
    header = texts.joined(
        [
            leaderboard_summary(payload, selection.limit, selection.selecting),
            ordering_sentence(payload),
            left_out_sentence(payload),
            texts.main_scope(payload.get("task_scopes")),
            "Ranks are task-scoped.",
        ],
        " ",
    )
    text = texts.leaderboard(
        bench.model_dump(),
        header,
        evaluations,
        more(model.next_page),
        payload.get("similar_benchmarks"),
        best_lines(payload),
    )
    timeline = timeline_of(payload)
    if timeline is not None:
        text += "\n" + timeline_text(timeline)
    return respond(model, text)


def build(catalog: CatalogService) -> LocalProvider:
    provider = LocalProvider(on_duplicate="error")

    @provider.tool(annotations=READ_ONLY, output_schema=lean_schema(Leaderboard), meta=ui.BINDING)
    @generated
    def get_benchmark(name: str, /, **params: Any) -> ToolResult:
        """Leaderboard of one benchmark (what Papers With Code calls a dataset), by exact name:
        list_benchmarks(search=) finds it. State of the art under constraints (openness, size,
        metric thresholds, Pareto); metric names match case-insensitively, by alias (AP/mAP,
        top1/Accuracy) or by the one metric containing them. Ranks are task-scoped; timeline
        gives SOTA over time."""
        return leaderboard(catalog, name, params)

    @provider.tool(annotations=READ_ONLY, output_schema=lean_schema(RecordPage))
    @generated
    def list_benchmarks(name: str, /, **params: Any) -> ToolResult:
        """Find benchmarks (Papers With Code's datasets) by name, by task (ranked by recent
        activity) or grouped by area. Next: get_benchmark, a leaderboard."""
        group = bool(params.get("group_by_area") or params.get("area"))
        limit = params.get("limit") or (None if group else HOSTED_ROW_CAP)
        payload = payload_of(catalog, name, {**params, "limit": limit})
        if "results" in payload and payload.get("results") and "tasks" in payload["results"][0]:
            items: list[dict[str, Any]] = []
            for area in checked_rows(payload["results"]):
                for task in checked_rows(area.get("tasks")):
                    items.extend(
                        {**b, "task": task.get("name"), "area": area.get("name")}
                        for b in checked_rows(task.get("benchmarks"))
                    )
            items = items[:HOSTED_ROW_CAP]
            _, data = grouped(payload, "tasks")
            return respond(
                RecordPage(count=len(items), data=data),
                texts.grouped(items, "benchmarks", "area", "task"),
            )
        return flat_page(payload, params.get("page"), "benchmarks")

    @provider.resource(
        "pwc://benchmarks/{benchmark}",
        name="benchmark",
        title="Benchmark leaderboard",
        mime_type="application/json",
        meta=ui.BINDING,
        description="Canonical benchmark metadata and its leading evaluations "
        "(get_benchmark page 1).",
    )
    def benchmark_resource(benchmark: str) -> str:
        name = "get_benchmark"  # the tool this resource is, on its first page of 20
        arguments = {"benchmark": benchmark, "page": 1, "limit": 20}
        result = _as_resource(lambda: leaderboard(catalog, name, validated(name, arguments)))
        return json.dumps(result.structured_content, ensure_ascii=False)

    return provider
