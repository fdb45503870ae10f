"""Helpers shared by the domain views: counted nouns, record lists, names and page notes."""

from __future__ import annotations

import argparse
import functools
from typing import Any

from pwc_cli.render import Screen, fold, more_hint, no_results
from pwc_cli.views import Rendered, View
from pwc_core.replies import extract_rows
from pwc_core.text import cell_text, count, md_escape, one_line
from pwc_core.urls import site_url


def plural(value: Any, word: str, words: str | None = None) -> str:
    """`1 paper`, `13,086 papers`, `unknown papers` when missing."""
    words = words or word + "s"
    if value is None or isinstance(value, bool):
        return f"unknown {words}"
    return f"{count(value)} {word if value == 1 else words}"


def records(items: Any) -> list[dict[str, Any]]:
    return [item for item in items if isinstance(item, dict)] if isinstance(items, list) else []


def slug_of(row: dict[str, Any]) -> Any:
    return row.get("slug") or row.get("id")


def name_of(row: dict[str, Any]) -> str:
    return one_line(row.get("name") or row.get("slug") or row.get("id"))


def page_notes(payload: Any, args: argparse.Namespace, shown: int, empty: str = "") -> list[str]:
    """`# more: ...` when a later page exists; `# no results` (with `empty` as hint) when none."""
    if not shown:
        return no_results(args, empty)
    _, total = extract_rows(payload)
    size = getattr(args, "page_size", None) or getattr(args, "limit", None) or shown
    return more_hint(total, getattr(args, "page", 1) or 1, size)


def is_grouped(payload: Any) -> bool:
    """Grouped payloads are `{results: [area with a tasks list]}`; task rows have no `tasks`."""
    rows = payload.get("results") if isinstance(payload, dict) else None
    return (
        isinstance(rows, list)
        and bool(rows)
        and all(isinstance(r, dict) and isinstance(r.get("tasks"), list) for r in rows)
    )


def paper_cell(row: dict[str, Any], tty: Screen) -> str:
    """A row's paper: `Title [ref]` on a terminal, else a Markdown link to its page (the cell
    is already Markdown: a table escapes the other cells only)."""
    ref = row.get("paper_arxiv_id") or row.get("paper_id")
    title = one_line(row.get("paper_title") or "Untitled")
    if tty:
        return f"{title} [{cell_text(ref)}]" if ref else title
    label = md_escape(title).replace("[", "\\[").replace("]", "\\]")
    return f"[{label}]({site_url('paper', ref)})" if ref else md_escape(title)


def prose(fn: View) -> View:
    """A detail view that is all text (no table): in a terminal, folded to its width at word
    boundaries rather than left for the terminal to break mid-word. Applied under `@view`."""

    @functools.wraps(fn)
    def folded(payload: Any, args: argparse.Namespace, tty: Screen) -> Rendered:
        rendered = fn(payload, args, tty)
        return Rendered(fold(rendered.stdout, tty), rendered.stderr)

    return folded


def wrapped(text: str, tty: Screen) -> str:
    """Prose folded to the terminal's width at word boundaries (pwc_cli.render.fold); a pipe
    gets it whole."""
    return fold(text, tty)
