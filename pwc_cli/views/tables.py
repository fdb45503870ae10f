"""Catalog rows as a table, and the pieces of a record's detail view.

A list view names its columns, each a header with the row's field (or a function of the row);
a detail view joins the lines it has, and counts only what the catalog reported."""

from __future__ import annotations

import argparse
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from pwc_cli.render import Screen, table
from pwc_cli.views import Rendered
from pwc_cli.views.common import page_notes, plural
from pwc_core.replies import extract_rows

Cell = str | Callable[[dict[str, Any]], Any]


def row_table(
    payload: Any,
    args: argparse.Namespace,
    tty: Screen,
    columns: Sequence[tuple[str, Cell]],
    *,
    right: Iterable[str] = (),
    empty: str = "",
) -> Rendered:
    """The payload's rows under `columns` (header, field or function of the row), then the page
    notes (`empty` is the hint when there are no rows)."""
    rows, _ = extract_rows(payload)
    lines = [
        [cell(row) if callable(cell) else row.get(cell) for _, cell in columns] for row in rows
    ]
    text = table([header for header, _ in columns], lines, tty=tty, right=right)
    return Rendered(text, page_notes(payload, args, len(rows), empty))


def joined(*lines: str | None) -> str:
    """The lines that are there, one per line."""
    return "\n".join(line for line in lines if line)


def counted(record: dict[str, Any], key: str, word: str) -> str:
    """`12 papers` for a count the record has, nothing for one it lacks."""
    return plural(record[key], word) if record.get(key) is not None else ""
