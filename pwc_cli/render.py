"""Output primitives (docs/upstream-api.md#output-rules): the JSON envelope, tables (aligned or
TSV), Markdown blocks, links.

Per-command human views live in `pwc_cli/views/` (the registry is `pwc_cli.views`); plain-text
helpers are `pwc_cli.text`, the site's links `pwc_cli.urls`.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Iterable, Sequence
from typing import Any

from pwc_cli.terminal import Terminal, display_width, fit_widths, neutralise, pad, truncate
from pwc_cli.text import cell_text, md_escape, one_line, tsv_escape

Screen = Terminal | None  # a terminal of known width, or None for a pipe or file


def envelope(payload: Any) -> str:
    """`{"schema_version":"v1","data":...}`: compact, UTF-8, one line."""
    return json.dumps(
        {"schema_version": "v1", "data": payload}, ensure_ascii=False, separators=(",", ":")
    )


def table(
    headers: Sequence[str],
    rows: Iterable[Sequence[Any]],
    *,
    tty: Screen,
    right: Iterable[str] = (),
) -> str:
    """Aligned columns fitted to the terminal's width, or lossless TSV when captured.

    In a terminal an empty table prints nothing (the view says "no results" on stderr); TSV
    keeps its header so a consumer always sees the columns.
    """
    rows = [list(row) for row in rows]
    if tty is None:
        lines = ["\t".join(headers)]
        lines.extend("\t".join(tsv_escape(cell) for cell in row) for row in rows)
        return "\n".join(lines) + "\n"
    if not rows:
        return ""
    right_set = set(right)
    text_rows = [list(headers)] + [
        [one_line(neutralise(cell_text(c))) for c in row] for row in rows
    ]
    natural = [max(display_width(r[i]) for r in text_rows) for i in range(len(headers))]
    widths = fit_widths(natural, tty.width)
    lines = []
    for row in text_rows:
        cells = [
            pad(truncate(cell, widths[i]), widths[i], right=headers[i] in right_set)
            for i, cell in enumerate(row)
        ]
        lines.append("  ".join(cells).rstrip())
    return "\n".join(lines) + "\n"


def markdown_table(
    headers: Sequence[str], align: Sequence[str], rows: Iterable[Sequence[Any]]
) -> str:
    lines = ["| " + " | ".join(headers) + " |", "| " + " | ".join(align) + " |"]
    lines.extend(
        "| " + " | ".join(md_escape(c) if c != "" else "" for c in row) + " |" for row in rows
    )
    return "\n".join(lines) + "\n"


def heading(name: Any, tty: Screen, level: int = 1) -> str:
    if tty:
        return cell_text(name) or "—"
    text = md_escape(name) or "—"
    return f"{'#' * level} {text}"


def link(label: str, url: str | None, tty: Screen) -> str:
    if not url:
        return ""
    return f"{label}: {url}" if tty else f"[{label}]({url})"


def more_hint(total: int | None, page: int, page_size: int) -> list[str]:
    if total is not None and page * page_size < total:
        return [f"# more: rerun with --page {page + 1}"]
    return []


def sections(*blocks: str) -> str:
    """Join non-empty blocks with blank lines and end with one newline."""
    text = "\n\n".join(block.strip("\n") for block in blocks if block and block.strip())
    return text + "\n" if text else ""


def section(title: str, lines: list[str], tty: Screen, level: int = 2) -> str:
    """A titled block (Markdown heading when captured, the bare title in a terminal)."""
    if not lines:
        return ""
    return f"{title if tty else '#' * level + ' ' + title}\n\n" + "\n".join(lines)


def strong(text: str, tty: Screen) -> str:
    return text if tty else f"**{text}**"


def code(text: str, tty: Screen) -> str:
    return text if tty else f"`{text}`"


def no_results(args: argparse.Namespace, hint: str = "") -> list[str]:
    """The stderr note of an empty result: past the last page, or nothing matched (+ a hint)."""
    page = getattr(args, "page", 1) or 1
    if page > 1:
        return [f"# no results on page {page}; the last page is earlier, try --page 1"]
    return [f"# no results{'; ' + hint if hint else ''}"]
