"""Human output for `benchmark --name` and `benchmark list` (docs/upstream-api.md#output-rules)."""

from __future__ import annotations

import argparse
from typing import Any

from pwc_cli.charts.steps import terminal_steps
from pwc_cli.render import Screen, code, heading, link, more_hint, no_results, sections, table
from pwc_cli.views import Rendered, view
from pwc_cli.views.common import is_grouped, paper_cell, plural, wrapped
from pwc_cli.views.papers import listed_rank, scope_cell, scores
from pwc_cli.views.timeline import timeline_blocks, timeline_notes
from pwc_core.commands.benchmarks import flat_filters, metric_mode, trending_mode
from pwc_core.flags import extra_data, openness
from pwc_core.replies import extract_rows
from pwc_core.scopes import scopes_of
from pwc_core.sentences import (
    best_lines,
    leaderboard_summary,
    left_out_sentence,
    ordering_sentence,
)
from pwc_core.text import cell_text, md_escape, one_line
from pwc_core.urls import site_url

IGNORED_GROUPING = "# filters select task-scoped flat output; --group-by-area ignored"


def parameters(value: Any) -> str:
    """632000000 → `632M`, 1500000000 → `1.5B`, 350000 → `350,000`, unknown → `—`."""
    if not isinstance(value, int) or isinstance(value, bool) or value <= 0:
        return "—"
    for scale, suffix in ((10**9, "B"), (10**6, "M")):
        if value >= scale:
            return f"{value / scale:.2f}".rstrip("0").rstrip(".") + suffix
    return f"{value:,}"


def qualifiers(row: dict[str, Any]) -> list[str]:
    """What a result's number depends on beyond the model: whether it used extra training data
    when the catalog says (pwc_core.flags, the MCP texts' words), and the evaluation protocol
    where the catalog names one."""
    said = [extra_data(row.get("uses_additional_data")), one_line(row.get("methodology"))]
    return [part for part in said if part]


def _model(row: dict[str, Any]) -> str:
    model = one_line(row.get("model_name"))
    model = f"{model} ({one_line(row['harness'])})" if row.get("harness") else model
    return " · ".join([model, *qualifiers(row)])


def _leaderboard_table(rows: list[dict[str, Any]], tty: Screen) -> str:
    headers = ["Rank", "Model", "Parameters", "Scores", "Task", "Paper", "Published", "Open"]
    body = []
    for row in rows:
        body.append(
            [
                listed_rank(row),
                _model(row),
                parameters(row.get("num_parameters")),
                scores(row),
                scope_cell(row),
                paper_cell(row, tty),
                cell_text(row.get("paper_published_date")),
                openness(row.get("is_open")) or "—",
            ]
        )
    if tty:
        return table(headers, body, tty=tty, right=["Rank"])
    align = ["---:", "---", "---:", "---", "---", "---", "---", ":---:"]
    # the paper cell is already Markdown; escape the other cells only
    lines = ["| " + " | ".join(headers) + " |", "| " + " | ".join(align) + " |"]
    for cells in body:
        escaped = [c if i == 5 else md_escape(c) for i, c in enumerate(cells)]
        lines.append("| " + " | ".join(escaped) + " |")
    return "\n".join(lines) + "\n"


def summary(data: dict[str, Any], args: argparse.Namespace) -> str:
    """The CLI's summary line; with a timeline the page of rows is not shown, so not counted."""
    shown = "timeline" not in data
    return leaderboard_summary(data, args.limit, metric_mode(args), page_shown=shown)


def _scope_title(scope: dict[str, Any]) -> str:
    task = one_line(scope.get("task_name") or scope.get("task_id") or "No task")
    role = "main task scope" if scope.get("main") else "other task scope"
    metric, direction = scope.get("primary_metric"), scope.get("direction")
    by = f"; ranked by {one_line(metric)}" if metric else ""
    by += f", {direction} is better" if metric and direction else ""
    return f"{task} ({role}{by})"


def _runs(rows: list[dict[str, Any]]) -> list[list[dict[str, Any]]]:
    """Consecutive rows listed under the same task scope."""
    runs: list[list[dict[str, Any]]] = []
    for row in rows:
        if runs and scopes_of(runs[-1][0])[0].get("task_id") == scopes_of(row)[0].get("task_id"):
            runs[-1].append(row)
        else:
            runs.append([row])
    return runs


def scoped_tables(
    data: dict[str, Any], rows: list[dict[str, Any]], args: argparse.Namespace, tty: Screen
) -> list[str]:
    """One labelled table per task scope when the rows come grouped (no sort asked for);
    else one table whose Rank and Task columns name each row's scope."""
    runs = _runs(rows)
    scopes = {s.get("task_id"): s for s in data.get("task_scopes") or [] if isinstance(s, dict)}
    ordered = getattr(args, "sort_metric", None) or getattr(args, "pareto", None)
    if ordered or len(runs) < 2 or len(runs) != len(scopes):
        return [_leaderboard_table(rows, tty)] if rows else []
    blocks = []
    for run in runs:
        scope = scopes.get(scopes_of(run[0])[0].get("task_id")) or {}
        blocks += [
            wrapped(heading(_scope_title(scope), tty, 2), tty),
            _leaderboard_table(run, tty),
        ]
    return blocks


@view("benchmark")
def benchmark_view(data: dict[str, Any], args: argparse.Namespace, tty: Screen) -> Rendered:
    bench = data.get("benchmark") or {}
    rows = [r for r in data.get("results") or [] if isinstance(r, dict)]
    full = bench.get("full_name")
    notes = [f"# more: rerun with --page {data['next_page']}"] if data.get("next_page") else []
    if not rows:
        hint = "loosen --min/--max/--require-metrics/--max-parameters" if selecting(args) else ""
        notes = no_results(args, hint)
    if "timeline" in data:  # the records take the place of the page of rows
        notes = timeline_notes(data, args)
    # the name matched exactly, but other benchmarks contain it: one may be the one meant
    also = [one_line(n) for n in data.get("similar_benchmarks") or [] if n]
    notes = notes + ([f"# also: {', '.join(also)}"] if also else [])
    return Rendered(
        sections(
            heading(bench.get("name"), tty),
            wrapped(one_line(full), tty) if full and full != bench.get("name") else "",
            wrapped(one_line(bench.get("description")), tty),
            link(
                "View benchmark", site_url("benchmark", bench.get("slug") or bench.get("id")), tty
            ),
            wrapped(summary(data, args), tty),
            wrapped(ordering_sentence(data), tty),
            wrapped(left_out_sentence(data), tty),
            wrapped("\n".join(best_lines(data)), tty),
            *(timeline_blocks(data, tty) or scoped_tables(data, rows, args, tty)),
            terminal_steps(data, tty),  # a terminal only: the timeline as a step chart
        ),
        notes,
    )


# --- benchmark list -----------------------------------------------------------------------


def selecting(args: argparse.Namespace) -> bool:
    return metric_mode(args) or getattr(args, "max_parameters", None) is not None


def _benchmark_bullet(row: dict[str, Any], tty: Screen) -> str:
    name = one_line(row.get("name") or row.get("slug"))
    parts = [
        f"description: {one_line(row['description'])}" if row.get("description") else "",
        f"HF: {row['hf_url']}" if row.get("hf_url") else "",
        f"full name: {one_line(row['full_name'])}"
        if row.get("full_name") and row.get("full_name") != row.get("name")
        else "",
        f"slug: {code(cell_text(row['slug']), tty)}" if row.get("slug") else "",
        f"ID: {code(cell_text(row['id']), tty)}" if row.get("id") is not None else "",
        plural(row["evaluation_count"], "evaluation")
        if row.get("evaluation_count") is not None
        else "",
    ]
    text = "; ".join(p for p in parts if p)
    return f"- {name} — {text}" if text else f"- {name}"


def _grouped(payload: dict[str, Any], tty: Screen) -> str:
    blocks = []
    for area in payload.get("results") or []:
        if not isinstance(area, dict):
            continue
        tasks = []
        for task in area.get("tasks") or []:
            if not isinstance(task, dict):
                continue
            bullets = [
                _benchmark_bullet(b, tty)
                for b in task.get("benchmarks") or []
                if isinstance(b, dict)
            ]
            if bullets:
                title = f"{one_line(task.get('name'))} ({code(one_line(task.get('slug')), tty)})"
                tasks += [heading(title, tty, 2), "\n".join(bullets)]
        if tasks:  # an area or task without benchmarks is noise in a listing of benchmarks
            name = one_line(area.get("name")) or "Uncategorized"
            blocks.append(heading(f"Area: {name}", tty))
            blocks += [
                f"Inspect a benchmark with {code('pwc benchmark --name SLUG', tty)}.",
                *tasks,
            ]
    return sections(*blocks)


def ranking_score(row: dict[str, Any]) -> Any:
    return (
        row["support_weighted_score"] if "support_weighted_score" in row else row.get("trend_score")
    )


@view("benchmark list")
def benchmark_list_view(payload: Any, args: argparse.Namespace, tty: Screen) -> Rendered:
    notes = [IGNORED_GROUPING] if args.group_by_area and flat_filters(args) else []
    if is_grouped(payload) or args.area:  # --area always selects the grouped listing
        text = _grouped(payload, tty)
        return Rendered(text, notes + ([] if text else no_results(args, "drop --area")))
    rows, total = extract_rows(payload)
    if trending_mode(args):
        headers = [
            "id",
            "slug",
            "name",
            "description",
            "hf_url",
            "recent_papers",
            "ranking_score",
            "best_model",
            "paper_title",
            "code",
        ]
        right = ["id", "recent_papers", "ranking_score"]
        lines = [
            [
                r.get("id"),
                r.get("slug"),
                r.get("name"),
                r.get("description"),
                r.get("hf_url"),
                r.get("recent_paper_count"),
                ranking_score(r),
                r.get("best_model_name"),
                r.get("best_paper_title"),
                r.get("best_code_url"),
            ]
            for r in rows
        ]
    else:
        headers = ["id", "name", "description", "hf_url", "full_name", "evals"]
        right = ["id", "evals"]
        lines = [
            [
                r.get("id"),
                r.get("name"),
                r.get("description"),
                r.get("hf_url"),
                r.get("full_name"),
                r.get("paper_count"),
            ]
            for r in rows
        ]
    text = table(headers, lines, tty=tty, right=right)
    if not rows:
        hint = "try other --search words, or drop --min-eval-count/--is-open"
        return Rendered(text, notes + no_results(args, hint))
    return Rendered(text, notes + more_hint(total, args.page, args.page_size))
