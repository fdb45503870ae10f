"""Output primitives (§5): the JSON envelope, tables (aligned or TSV), Markdown escaping, links.

Per-command human views live in `pwc_cli/views/` and register themselves with `@view(...)`.
A view is `(payload, args, tty) -> Rendered`, where `tty` is the Terminal (None when stdout
is captured); it never prints, and it decides presentation only: a terminal and a pipe get the
same rows.
"""

from __future__ import annotations

import argparse
import json
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from pwc_cli.terminal import Terminal, display_width, fit_widths, neutralise, pad, truncate

SITE = "https://paperswithcode.co"
SITE_PATHS = {
    "paper": "paper",
    "task": "tasks",
    "method": "methods",
    "benchmark": "benchmark",
    "conference": "conferences",
    "organization": "orgs",
    "framework": "frameworks",
}


@dataclass
class Rendered:
    """What a command prints: stdout text and informational stderr lines."""

    stdout: str = ""
    stderr: list[str] = field(default_factory=list)


Screen = Terminal | None  # a terminal of known width, or None for a pipe or file
View = Callable[[Any, argparse.Namespace, Screen], Rendered]
VIEWS: dict[str, View] = {}


def view(*commands: str) -> Callable[[View], View]:
    def register(fn: View) -> View:
        for command in commands:
            VIEWS[command] = fn
        return fn

    return register


def load_views() -> dict[str, View]:
    from pwc_cli.views import benchmarks, papers, taxonomy  # noqa: F401

    return VIEWS


def envelope(payload: Any) -> str:
    """`{"schema_version":"v1","data":...}`: compact, UTF-8, one line."""
    return json.dumps(
        {"schema_version": "v1", "data": payload}, ensure_ascii=False, separators=(",", ":")
    )


def cell_text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


_SPACE = re.compile(r"\s+")


def one_line(value: Any) -> str:
    """Whitespace (newlines included) collapsed to single spaces, trimmed."""
    return _SPACE.sub(" ", cell_text(value)).strip()


def tsv_escape(value: Any) -> str:
    text = cell_text(value)
    return text.replace("\\", "\\\\").replace("\t", "\\t").replace("\r", "").replace("\n", "\\n")


def md_escape(value: Any) -> str:
    text = cell_text(value)
    return text.replace("\\", "\\\\").replace("|", "\\|").replace("\r", "").replace("\n", " ")


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


def site_url(kind: str, slug: Any) -> str:
    return f"{SITE}/{SITE_PATHS[kind]}/{cell_text(slug)}"


def absolute(url: Any) -> str | None:
    """Site-relative paths (e.g. `/paper/1706.03762`) get the site prefix."""
    if not url:
        return None
    text = str(url)
    return SITE + text if text.startswith("/") else text


def count(value: Any) -> str:
    """Thousands separators for integers; other values unchanged."""
    if isinstance(value, int) and not isinstance(value, bool):
        return f"{value:,}"
    return cell_text(value)


def meta_line(parts: Iterable[str]) -> str:
    return " · ".join(part for part in parts if part)


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
