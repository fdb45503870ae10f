"""Human output of `benchmark --name NAME --timeline`: the records under the leaderboard header
(README.md#sota-over-time)."""

from __future__ import annotations

import argparse
from typing import Any

from pwc_cli.render import Screen, heading, no_results, table
from pwc_cli.views.common import paper_cell, wrapped
from pwc_core.sentences import records_of, summary
from pwc_core.text import cell_text, md_escape, one_line

HEADERS = ["Date", "Value", "Improvement", "Model", "Paper"]


def number(value: Any) -> str:
    """78.4 → `78.4`, 5.0 → `5`, missing → `—`."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return "—"
    return format(value, ".10g")


def records_table(timeline: dict[str, Any], tty: Screen) -> str:
    body = [
        [
            cell_text(r.get("date")),
            number(r.get("value")),
            number(r.get("improvement")),
            one_line(r.get("model_name")),
            paper_cell(r, tty),
        ]
        for r in records_of(timeline)
    ]
    if not body:
        return ""
    if tty:
        return table(HEADERS, body, tty=tty, right=["Value", "Improvement"])
    lines = ["| " + " | ".join(HEADERS) + " |", "| --- | ---: | ---: | --- | --- |"]
    # the paper cell is already Markdown; escape the other cells only
    lines += ["| " + " | ".join([*map(md_escape, cells[:4]), cells[4]]) + " |" for cells in body]
    return "\n".join(lines) + "\n"


def timeline_blocks(data: dict[str, Any], tty: Screen) -> list[str]:
    """The timeline's title, its summary sentence and the records table."""
    timeline = data.get("timeline")
    if not isinstance(timeline, dict):
        return []
    line = wrapped(summary(timeline), tty)
    return [heading("SOTA over time", tty, 2), line, records_table(timeline, tty)]


def timeline_notes(data: dict[str, Any], args: argparse.Namespace) -> list[str]:
    """No paging hint (the records replace the page of rows); `# no results` without records."""
    timeline = data.get("timeline")
    if isinstance(timeline, dict) and records_of(timeline):
        return []
    return no_results(args, "no dated row reports the metric; loosen the filters")
