"""Output primitives (§5): the JSON envelope, tables (aligned or TSV), Markdown escaping, links.

Per-command human views live in `pwc_cli/views/` and register themselves with `@view(...)`.
A view is `(payload, args, tty) -> Rendered`; it never prints.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

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


View = Callable[[Any, argparse.Namespace, bool], Rendered]
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
    tty: bool,
    right: Iterable[str] = (),
    always_aligned: bool = False,
) -> str:
    """Aligned columns in a terminal (or when asked), lossless TSV when captured."""
    rows = [list(row) for row in rows]
    if not tty and not always_aligned:
        lines = ["\t".join(headers)]
        lines.extend("\t".join(tsv_escape(cell) for cell in row) for row in rows)
        return "\n".join(lines) + "\n"
    right_set = set(right)
    text_rows = [list(headers)] + [
        [tsv_escape(cell) if not tty else cell_text(cell).replace("\n", " ") for cell in row]
        for row in rows
    ]
    widths = [max(len(r[i]) for r in text_rows) for i in range(len(headers))]
    lines = []
    for row in text_rows:
        cells = []
        for i, cell in enumerate(row):
            last = i == len(headers) - 1
            if headers[i] in right_set:
                cells.append(cell.rjust(widths[i]))
            elif last:
                cells.append(cell)
            else:
                cells.append(cell.ljust(widths[i]))
        lines.append(
            "  ".join(cells).rstrip() if not right_set & {headers[-1]} else "  ".join(cells)
        )
    return "\n".join(lines) + "\n"


def markdown_table(
    headers: Sequence[str], align: Sequence[str], rows: Iterable[Sequence[Any]]
) -> str:
    lines = ["| " + " | ".join(headers) + " |", "| " + " | ".join(align) + " |"]
    lines.extend(
        "| " + " | ".join(md_escape(c) if c != "" else "" for c in row) + " |" for row in rows
    )
    return "\n".join(lines) + "\n"


def heading(name: Any, tty: bool, level: int = 1) -> str:
    if tty:
        return cell_text(name) or "—"
    text = md_escape(name) or "—"
    return f"{'#' * level} {text}"


def link(label: str, url: str | None, tty: bool) -> str:
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
