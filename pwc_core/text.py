"""Plain-text helpers shared by handlers, views and the server: cells, escaping, counts.

They decide nothing about presentation (that is `pwc_cli.render` and `pwc_cli/views/`), so
domain code can use them without importing the renderer.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

_SPACE = re.compile(r"\s+")
# Whole escape sequences go first (so their parameters do not survive as text): CSI, OSC and
# the string controls DCS/SOS/PM/APC (ended by BEL or ST, or by the end of the text), then
# two-character ESC sequences; their 8-bit C1 forms as well.
_SEQUENCE = re.compile(
    r"(?:\x1b\[|\x9b)[\x30-\x3f]*[\x20-\x2f]*[\x40-\x7e]?"
    r"|(?:\x1b[\]PX^_]|[\x90\x98\x9d\x9e\x9f])[^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c)?"
    r"|\x1b[\x20-\x2f]*[\x30-\x7e]?"
)
# What is left of C0 (except tab and newline), DEL and C1 can still move the cursor or ring.
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


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


def neutralise(text: str) -> str:
    """Text safe to print on a terminal: escape sequences and control characters removed
    (tab and newline kept; a CRLF becomes a newline)."""
    if text.isprintable():
        return text
    return _CONTROL.sub("", _SEQUENCE.sub("", text.replace("\r\n", "\n")))
