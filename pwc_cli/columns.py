"""Fitting a table into a terminal: which columns give up width, and how a cell is cut.

Cutting every wide column alike ("Transfor…" on every row) loses what tells the rows apart. So
the width comes first from a header wider than its column's cells, then from the least
important columns, widest first: prose (titles, descriptions, URLs) before the other columns,
names (the model, the benchmark, the ID) last, and a column keeps a readable width before any
other is cut to the minimum. A cut column then keeps
the part of its cells that differs: the end when they share their start ("…former Big" and
"…former Base"), the middle cut out when both ends differ, the start otherwise.

A column of Parts (a leaderboard row's scores, "Top 1 Accuracy: 84.3, Top 5 Accuracy: 97") is
never cut: a part cut from the left reads as another metric ("…uracy: 97"). It narrows after
the prose, along with the names (widest first), by folding a cell between its parts onto more
lines, and never below its widest part.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from pwc_cli.terminal import ELLIPSIS, MIN_COLUMN, char_width, display_width, truncate

LOW, NORMAL, HIGH, WHOLE = 0, 1, 2, 3
READABLE = 12  # a column cut to this still says enough to be read

# Headers (case-insensitive) by how much their column may give up, as the views name them.
_PROSE = {
    "title",
    "description",
    "paper",
    "paper_title",
    "full_name",
    "source",
    "url",
    "hf_url",
    "code",
    "location",
    "platforms",
}
_NAMES = {"id", "name", "model", "benchmark", "rank"}

# (priorities, floor): each step shrinks those priorities' columns, widest first, down to the floor
# (never below their own width); the next step only when the table still does not fit.
# A WHOLE column's floor is its widest part, whatever the step says.
_STEPS = (
    ({LOW}, MIN_COLUMN),
    ({NORMAL}, READABLE),
    ({HIGH, WHOLE}, READABLE),
    ({NORMAL}, MIN_COLUMN),
    ({HIGH}, MIN_COLUMN),
)


class Parts(str):
    """A cell of parts, joined by ", " as text (a pipe, Markdown, JSON see only that text),
    that a terminal table folds between its parts and never cuts; `empty` when there are none."""

    parts: tuple[str, ...]

    def __new__(cls, parts: Iterable[str], empty: str = "—") -> Parts:
        kept = tuple(parts)
        cell = super().__new__(cls, ", ".join(kept) or empty)
        cell.parts = kept or (empty,)
        return cell


def folded(parts: Sequence[str], width: int) -> list[str]:
    """`parts` joined by ", " in lines of at most `width` columns, a line broken only between
    parts (a part wider than `width` keeps a line of its own)."""
    lines: list[str] = []
    for index, part in enumerate(parts):
        part = part if index == len(parts) - 1 else part + ","
        if lines and display_width(lines[-1]) + 1 + display_width(part) <= width:
            lines[-1] += " " + part
        else:
            lines.append(part)
    return lines


SAID_ONCE_ROWS = 3  # fewer rows alike are too short a table to gain, and likely a coincidence


def said_once(headers: Sequence[str], rows: Sequence[Sequence[str]]) -> list[int]:
    """The columns whose cell is the same on every one of SAID_ONCE_ROWS or more rows: a table
    says each once above itself instead (unless that would leave no column)."""
    if len(rows) < SAID_ONCE_ROWS:
        return []
    same = [i for i in range(len(headers)) if len({row[i] for row in rows}) == 1]
    return same if len(same) < len(headers) else []


def priority(header: str) -> int:
    """How much a column keeps its width: prose gives it up first, names last."""
    key = header.casefold()
    return LOW if key in _PROSE else HIGH if key in _NAMES else NORMAL


def fit(
    headers: Sequence[str],
    natural: Sequence[int],
    cells: Sequence[int],
    total: int,
    gap: int = 2,
    whole: Sequence[int] | None = None,
) -> list[int]:
    """Column widths that fit `total` columns with `gap` between them, or, when even the
    minimum (MIN_COLUMN each) is wider, that minimum: the line then overflows rather than a
    column vanishing. `natural` is each column's width with its header, `cells` without;
    `whole` the widest part of a column of Parts (0 for the others)."""
    least = list(whole or [0] * len(natural))
    # no column is wider than the line (a cell of 100,000 characters would otherwise cost as many
    # narrowing steps): the widest-first shrink below then runs at most `total` per column
    widths = [min(n, max(total, 1)) for n in natural]
    excess = sum(widths) + gap * (len(widths) - 1) - total
    ranks = [WHOLE if w else priority(h) for h, w in zip(headers, least, strict=True)]
    # first a header's width beyond its cells (`official_implementation` over true/false)
    floors = [min(n, max(c, READABLE)) for n, c in zip(natural, cells, strict=True)]
    excess = _shrink(widths, range(len(widths)), floors, excess)
    for levels, floor in _STEPS:
        floors = [max(min(n, floor), w) for n, w in zip(natural, least, strict=True)]
        excess = _shrink(widths, [i for i, r in enumerate(ranks) if r in levels], floors, excess)
    return widths


def _shrink(widths: list[int], columns: Iterable[int], floors: Sequence[int], excess: int) -> int:
    """Narrow `columns` one character at a time, the widest first (of equals the rightmost,
    where tables put the lesser ones), none below its floor, until `excess` is gone; what is
    left of it."""
    columns = list(columns)
    while excess > 0:
        shrinkable = [i for i in columns if widths[i] > floors[i]]
        if not shrinkable:
            break
        widest = max(shrinkable, key=lambda i: (widths[i], i))
        widths[widest] -= 1
        excess -= 1
    return excess


def cut_start(text: str, width: int) -> str:
    """`…` and the end of `text` that fits `width` columns."""
    if display_width(text) <= width:
        return text
    return ELLIPSIS + _tail(text, width - 1)


def cut_middle(text: str, width: int) -> str:
    """The start and the end of `text` with `…` between, in `width` columns."""
    if display_width(text) <= width:
        return text
    head = truncate(text, (width + 1) // 2)  # ends in the ellipsis
    return head + _tail(text, width - display_width(head))


def _tail(text: str, width: int) -> str:
    kept: list[str] = []
    used = 0
    for char in reversed(text):
        size = char_width(char)
        if used + size > width:
            break
        kept.append(char)
        used += size
    return "".join(reversed(kept))


_CUTS: tuple[Callable[[str, int], str], ...] = (truncate, cut_start, cut_middle)


def cutter(cells: Sequence[str], width: int) -> Callable[[str, int], str]:
    """How to cut one column's cells to `width`: the first of end, start and middle cuts that
    keeps the most different cells different."""
    distinct = set(cells)

    def kept_apart(cut: Callable[[str, int], str]) -> int:
        return len({cut(cell, width) for cell in distinct})

    return max(_CUTS, key=kept_apart)  # max keeps the first of equals: the end cut
