"""Helpers shared by the domain views: counted nouns, record lists, names and page notes."""

from __future__ import annotations

import argparse
from typing import Any

from pwc_cli.commands.common import extract_rows
from pwc_cli.render import more_hint, no_results
from pwc_cli.text import count, one_line


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
