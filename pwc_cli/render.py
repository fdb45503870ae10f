"""Output primitives (docs/upstream-api.md#output-rules): the JSON envelope, tables (aligned or
TSV; how columns fit a terminal is pwc_cli.columns), Markdown blocks, links, prose folded to the
terminal's width.

Per-command human views live in `pwc_cli/views/` (the registry is `pwc_cli.views`); plain-text
helpers are `pwc_core.text`, the site's links `pwc_core.urls`.
"""

from __future__ import annotations

import argparse
import json
import re
import textwrap
from collections.abc import Iterable, Sequence
from typing import Any

from pwc_cli.columns import Parts, cutter, fit, folded, said_once
from pwc_cli.terminal import Terminal, display_width, pad, truncate
from pwc_core.text import cell_text, md_escape, neutralise, one_line, tsv_escape

Screen = Terminal | None  # a terminal of known width, or None for a pipe or file
MIN_FOLD = 20  # narrower than this, folding makes text harder to read, not easier
_LEAD = re.compile(r"^\s*(?:[-*] |\d+\. )?")  # a bullet's text starts after its marker


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
    keeps its header so a consumer always sees the columns. A column with the same cell on
    every row is said once above the terminal's table ("Task: Image Classification"), and a
    cell of Parts folds between its parts rather than being cut (pwc_cli.columns).
    """
    rows = [list(row) for row in rows]
    if tty is None:
        lines = ["\t".join(headers)]
        lines.extend("\t".join(tsv_escape(cell) for cell in row) for row in rows)
        return "\n".join(lines) + "\n"
    if not rows:
        return ""
    text_rows = [[_text(c) for c in row] for row in rows]
    said = said_once(headers, text_rows)
    kept = [i for i in range(len(headers)) if i not in said]
    above = [_fold_line(f"{headers[i]}: {text_rows[0][i] or '—'}", tty.width) for i in said]
    headers = [headers[i] for i in kept]
    rows = [[row[i] for i in kept] for row in rows]
    text_rows = [[row[i] for i in kept] for row in text_rows]
    cell_parts = [
        [_parts(c, t) for c, t in zip(row, texts, strict=True)]
        for row, texts in zip(rows, text_rows, strict=True)
    ]
    whole = [
        max(display_width(p) for row in cell_parts for p in row[i])
        if any(isinstance(row[i], Parts) for row in rows)
        else 0
        for i in range(len(headers))
    ]
    natural = [max(display_width(r[i]) for r in [headers, *text_rows]) for i in range(len(headers))]
    body = [max(display_width(r[i]) for r in text_rows) for i in range(len(headers))]
    widths = fit(headers, natural, body, tty.width, whole=whole)
    cuts = [cutter([r[i] for r in text_rows], w) for i, w in enumerate(widths)]
    aligned = [header in set(right) for header in headers]
    lines = [_line([truncate(h, w) for h, w in zip(headers, widths, strict=True)], widths, aligned)]
    for row, parts in zip(text_rows, cell_parts, strict=True):
        stacks = [
            folded(parts[i], widths[i]) if whole[i] else [cuts[i](cell, widths[i])]
            for i, cell in enumerate(row)
        ]
        for depth in range(max(len(stack) for stack in stacks)):
            cells = [stack[depth] if depth < len(stack) else "" for stack in stacks]
            lines.append(_line(cells, widths, aligned))
    return "\n".join([*above, *lines]) + "\n"


def _text(cell: Any) -> str:
    return one_line(neutralise(cell_text(cell)))


def _parts(cell: Any, text: str) -> tuple[str, ...]:
    """A cell's parts as a terminal shows them (one part for a plain cell)."""
    return tuple(_text(part) for part in cell.parts) if isinstance(cell, Parts) else (text,)


def _line(cells: Sequence[str], widths: Sequence[int], right: Sequence[bool]) -> str:
    padded = [pad(c, w, right=r) for c, w, r in zip(cells, widths, right, strict=True)]
    return "  ".join(padded).rstrip()


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


def section(
    title: str, lines: list[str], tty: Screen, level: int = 2, *, folded: bool = True
) -> str:
    """A titled block (Markdown heading when captured, the bare title in a terminal); in a
    terminal its lines are folded to the width (`folded=False` for a table)."""
    if not lines:
        return ""
    body = "\n".join(lines)
    return f"{title if tty else '#' * level + ' ' + title}\n\n" + (
        fold(body, tty) if folded else body
    )


def fold(text: str, tty: Screen) -> str:
    """Each line longer than the terminal folded at spaces, a bullet's next lines indented
    under its text (a pipe gets the text whole: Markdown has its own wrapping).

    Never at a hyphen ("English-German" stays one word); a word is broken only when longer
    than the line, and not even then in a line with a URL: a URL cut in two cannot be opened or
    copied, so the terminal's own wrapping shows it. Widths are counted in characters, as
    textwrap does: a line of wide characters may still end early."""
    if not tty or tty.width < MIN_FOLD:
        return text
    return "\n".join(_fold_line(line, tty.width) for line in text.split("\n"))


def _fold_line(line: str, width: int) -> str:
    if display_width(line) <= width:
        return line
    lead = _LEAD.match(line)
    return textwrap.fill(
        line,
        width=width,
        subsequent_indent=" " * (lead.end() if lead else 0),
        break_on_hyphens=False,
        break_long_words="://" not in line,
    )


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
