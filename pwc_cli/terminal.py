"""Terminal text (control characters are neutralised by pwc_core.text.neutralise): display widths,
and fitting table columns into a terminal's width (long cells truncated, as `gh` does).
"""

from __future__ import annotations

import shutil
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass

ELLIPSIS = "…"
MIN_COLUMN = 6


def char_width(char: str) -> int:
    if unicodedata.combining(char):
        return 0
    return 2 if unicodedata.east_asian_width(char) in ("W", "F") else 1


def display_width(text: str) -> int:
    if text.isascii():
        return len(text)
    return sum(char_width(c) for c in text)


def truncate(text: str, width: int) -> str:
    """`text` cut to at most `width` columns, ending in an ellipsis when cut."""
    if display_width(text) <= width:
        return text
    kept, used = [], 0
    for char in text:
        size = char_width(char)
        if used + size > width - 1:
            break
        kept.append(char)
        used += size
    return "".join(kept) + ELLIPSIS


def pad(text: str, width: int, right: bool = False) -> str:
    gap = " " * max(0, width - display_width(text))
    return gap + text if right else text + gap


def fit_widths(natural: Sequence[int], total: int, gap: int = 2) -> list[int]:
    """Column widths that fit `total` columns: narrow columns keep their width, the space left
    is shared fairly by the wide ones (each at least MIN_COLUMN, so a very narrow terminal
    still overflows rather than losing columns)."""
    available = total - gap * (len(natural) - 1)
    if sum(natural) <= available:
        return list(natural)
    widths = list(natural)
    remaining = available
    pending = sorted(range(len(natural)), key=lambda i: natural[i])
    while pending:
        share = max(MIN_COLUMN, remaining // len(pending))
        column = pending[0]
        if natural[column] <= share:
            widths[column] = natural[column]
            remaining -= natural[column]
            pending.pop(0)
            continue
        for index, column in enumerate(pending):
            left = len(pending) - index
            widths[column] = max(MIN_COLUMN, min(natural[column], remaining // left))
            remaining -= widths[column]
        break
    return widths


@dataclass(frozen=True)
class Terminal:
    """Output goes to a terminal this many columns wide (views receive None for a pipe)."""

    width: int

    @classmethod
    def detect(cls) -> Terminal:
        return cls(shutil.get_terminal_size(fallback=(100, 24)).columns)
