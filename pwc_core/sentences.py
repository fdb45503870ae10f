"""The sentences that say what a leaderboard answer holds: which rows of how many, in which
order, and what a timeline found. Shared word for word by the `pwc` views and the MCP tools'
texts, so both read from here (neither package imports the other)."""

from __future__ import annotations

from typing import Any

from pwc_core.bests import MATCHING
from pwc_core.chart_axes import parameters
from pwc_core.text import count, one_line


def _pages(total: int, size: int) -> str:
    pages = max(1, -(-total // max(size, 1)))
    return f"{pages} page{'s' if pages != 1 else ''} of {size}"


def leaderboard_summary(
    data: dict[str, Any], size: int, selecting: bool, *, page_shown: bool = True
) -> str:
    """What a leaderboard payload's rows are, counted truthfully: which slice of how many, what
    merging did, and a page past the end said as such. `size` is the page size asked for;
    `selecting` says metric filters or a sort chose the rows; `page_shown` false (the CLI's
    timeline, which prints records instead) leaves out the slice. Shared by the CLI view and
    the MCP tool's text, followed by `ordering_sentence`."""
    rows = [r for r in data.get("results") or [] if isinstance(r, dict)]
    total, page = data.get("count"), data.get("page") or 1
    matched = data.get("matched_count") or 0
    if not rows and matched:
        return f"Page {page} is past the end: {matched:,} rows fill {_pages(matched, size)}."
    read = data.get("rows_read")
    read = read if isinstance(read, int) else len(rows)
    evaluated = (
        f"{read:,} evaluation rows"
        if read == total or total is None
        else f"{read:,} of {count(total)} evaluation rows read"
    )
    merged = data.get("merged_count")
    merged = merged if isinstance(merged, int) else len(rows)
    if selecting:
        said = f"{matched:,} of {merged:,} merged rows match ({evaluated})"
    elif merged < read:
        said = f"{merged:,} rows from {evaluated} (one result in several task scopes is one row)"
    else:
        said = f"{merged:,} rows ({evaluated})"
    if not page_shown:
        return f"{said}."
    first = (page - 1) * size + 1
    if not rows:
        return f"{said}; none to show."
    if page == 1 and not data.get("next_page"):
        return f"{said}; all shown."
    return f"{said}; showing rows {first:,}–{first + len(rows) - 1:,}."


def _direction_words(direction: str | None, source: str | None) -> str:
    if direction is None:
        return "its direction is unknown"
    by = {"name": "by its name", "ranks": "by the catalog's ranks", "stated": "as stated"}
    return f"{direction} is better, {by.get(source or '', 'by its name')}"


def ordering_sentence(data: dict[str, Any]) -> str:
    """Which order the rows are in, and over how much of the board (README.md#leaderboards)."""
    order = data.get("ordering")
    if not isinstance(order, dict):
        return ""
    said = ""
    if order.get("by") in ("sort", "pareto"):
        metric = one_line(order.get("metric"))
        way = "highest first" if order.get("order") == "desc" else "lowest first"
        words = _direction_words(order.get("direction"), order.get("direction_source"))
        basis = order.get("basis")
        if basis == "asked":
            why = f"as asked; {words}"
        elif basis == "default":
            why = f"{words}, so descending"
        else:
            why = f"best first: {words}"
        lead = "Pareto front sorted" if order.get("by") == "pareto" else "Sorted"
        said = f"{lead} by {metric}, {way} ({why})."
    if order.get("complete") is False:
        reason = one_line(order.get("stopped")) or "bounded scan incomplete"
        rows = order.get("rows_ordered")
        said += (
            f" Ordered over the first {count(rows)} evaluation rows read of {count(data.get('count'))}"
            f" ({reason}): rows beyond are not ranked here."
        )
    return said.strip()


def records_of(timeline: dict[str, Any]) -> list[dict[str, Any]]:
    return [r for r in timeline.get("records") or [] if isinstance(r, dict)]


def summary(timeline: dict[str, Any]) -> str:
    """One sentence: how many records among how many rows, what was left out, and whether the
    scan read every row. Shared by the CLI view and the MCP tool's text."""
    records = records_of(timeline)
    considered, undated = timeline.get("considered") or 0, timeline.get("undated") or 0
    metric = one_line(timeline.get("metric") or "")
    if not metric:
        return "No row reports a metric, so there is no timeline."
    direction = timeline.get("direction")
    better = f" ({direction} is better)" if direction in ("higher", "lower") else ""
    text = (
        f"{len(records):,} record{'s' if len(records) != 1 else ''} of {metric}{better} among "
        f"{considered:,} row{'s' if considered != 1 else ''} reporting it"
    )
    text += f"; {undated:,} without a publication date left out." if undated else "."
    if timeline.get("complete") is False:
        text += " The scan stopped at its row limit: earlier records may be missing."
    return text


def left_out_sentence(data: dict[str, Any]) -> str:
    """How many rows the extra-training-data filter left out because the catalog does not say
    whether they used extra data; nothing when it left none out or was not asked."""
    unknown = data.get("unknown_extra_training_data")
    if not isinstance(unknown, int) or not unknown:
        return ""
    rows = f"{unknown:,} row{'s' if unknown != 1 else ''}"
    return f"{rows} left out: the catalog does not say whether {'they' if unknown != 1 else 'it'} used extra training data."


def _flag(value: Any, yes: str, no: str) -> str:
    """A tri-state flag in words: nothing when the catalog does not say."""
    return yes if value is True else no if value is False else ""


def _best_row(best: dict[str, Any], metric: str) -> str:
    value = f"{metric} {one_line(best['value'])}" if "value" in best else "no value"
    paper = one_line(best.get("paper_title"))
    date = one_line(best.get("paper_published_date"))
    size = best.get("num_parameters")
    terms = [
        f"{parameters(size)} parameters" if isinstance(size, int) and size > 0 else "",
        _flag(best.get("is_open"), "open", "closed"),
        _flag(best.get("uses_additional_data"), "extra training data", "no extra training data"),
        one_line(best.get("methodology")),
    ]
    said = f"{one_line(best.get('model_name')) or 'unnamed model'}, {value}"
    said += f" — {paper}" if paper else ""
    said += f" ({date})" if date else ""
    terms = [t for t in terms if t]
    return said + (f"; {'; '.join(terms)}" if terms else "")


def best_lines(data: dict[str, Any]) -> list[str]:
    """The `scope_bests` block (README.md#leaderboards), one line per task scope: its metric, its
    best matching row and, when filters left it out, the whole board's best. Lines without a
    bullet, so they never read as rows of the page. Shared by the CLI view and the MCP text."""
    block = data.get("scope_bests")
    block = block if isinstance(block, dict) else {}
    lead = "Best of the matching rows in" if block.get("among") == MATCHING else "Best in"
    lines = []
    for scope in [s for s in block.get("scopes") or [] if isinstance(s, dict)]:
        task = one_line(scope.get("task_name") or scope.get("task_id") or "no task")
        metric = one_line(scope.get("metric")) or "no metric"
        direction = scope.get("direction")
        how = f"{direction} is better" if direction else "direction unknown, by the catalog's rank"
        main = "main scope; " if scope.get("main") else ""
        matched = scope.get("matched")
        if isinstance(matched, int) and not isinstance(matched, bool):
            noun = "row" if lead == "Best in" else "matching row"
            how += f"; {count(matched)} {noun}{'' if matched == 1 else 's'}"
        best, whole = scope.get("best"), scope.get("whole_board_best")
        said = _best_row(best, metric) if isinstance(best, dict) else "no matching row"
        said += f". Whole board: {_best_row(whole, metric)}" if isinstance(whole, dict) else ""
        lines.append(f"{lead} {task} ({main}{metric}, {how}): {said}.")
    return lines
