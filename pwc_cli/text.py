"""Plain-text helpers shared by handlers, views and the server: cells, escaping, counts.

They decide nothing about presentation (that is `pwc_cli.render` and `pwc_cli/views/`), so
domain code can use them without importing the renderer.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

_SPACE = re.compile(r"\s+")


def cell_text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def one_line(value: Any) -> str:
    """Whitespace (newlines included) collapsed to single spaces, trimmed."""
    return _SPACE.sub(" ", cell_text(value)).strip()


def tsv_escape(value: Any) -> str:
    text = cell_text(value)
    return text.replace("\\", "\\\\").replace("\t", "\\t").replace("\r", "").replace("\n", "\\n")


def md_escape(value: Any) -> str:
    text = cell_text(value)
    return text.replace("\\", "\\\\").replace("|", "\\|").replace("\r", "").replace("\n", " ")


def count(value: Any) -> str:
    """Thousands separators for integers; other values unchanged."""
    if isinstance(value, int) and not isinstance(value, bool):
        return f"{value:,}"
    return cell_text(value)


def meta_line(parts: Iterable[str]) -> str:
    return " · ".join(part for part in parts if part)
