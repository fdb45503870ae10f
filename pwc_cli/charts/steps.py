"""A compact Unicode step chart of a timeline for a terminal: the record value in force at each
column's date, drawn as a filled area in eighth blocks (better is up), a few lines tall and no
wider than the terminal. Plain text, never escape sequences."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from typing import Any

from pwc_cli.charts.scales import number
from pwc_cli.render import Screen
from pwc_cli.terminal import truncate
from pwc_core.chart import Record, Timeline, better, timeline_of
from pwc_core.text import one_line

HEIGHT = 4  # rows of blocks
MAX_WIDTH = 100  # a wider terminal still gets a chart this wide
MIN_PLOT = 12  # fewer columns than this say nothing: no chart
BLOCKS = " ▁▂▃▄▅▆▇█"


def _in_force(records: list[Record], day: dt.date) -> Record:
    """The last record set on or before `day` (records are oldest first; day >= the first)."""
    found = records[0]
    for record in records:
        if record.date > day:
            break
        found = record
    return found


def _levels(records: list[Record], columns: int, direction: str | None) -> list[int]:
    """Per column, a fill level in eighths of a row: 1 (the first, worst record) to HEIGHT*8."""
    first, last = records[0].date, records[-1].date
    span = (last - first).days
    span += max(1, span // 10)  # the latest record holds a tenth of the width, not one column
    sign = better(direction)
    scores = [sign * r.value for r in records]
    low, high = min(scores), max(scores)
    top = HEIGHT * 8
    levels = []
    for column in range(columns):
        offset = round(span * column / (columns - 1)) if columns > 1 else span
        score = sign * _in_force(records, first + dt.timedelta(days=offset)).value
        fraction = (score - low) / (high - low) if high > low else 1.0
        levels.append(1 + round(fraction * (top - 1)))
    return levels


def step_chart(timeline: Timeline | None, width: int) -> str:
    """The chart's lines (ending in a newline), or "" when there is nothing to draw or no room."""
    if timeline is None or len(timeline.records) < 2:  # one record is the table's one line
        return ""
    records = timeline.records
    sign = better(timeline.direction)
    best = max(records, key=lambda r: sign * r.value).value
    worst = min(records, key=lambda r: sign * r.value).value
    labels = [number(best), number(worst) if worst != best else ""]
    gutter = len(max(labels, key=len)) + 1
    total = min(width, MAX_WIDTH)
    columns = total - gutter - 1
    if columns < MIN_PLOT:
        return ""
    levels = _levels(records, columns, timeline.direction)
    lines = []
    for row in range(HEIGHT - 1, -1, -1):
        cells = "".join(BLOCKS[max(0, min(8, level - row * 8))] for level in levels)
        label = labels[0] if row == HEIGHT - 1 else labels[1] if row == 0 else ""
        axis = "┤" if label else "│"
        lines.append(f"{label.rjust(gutter - 1)} {axis}{cells}".rstrip())
    lines.append(" " * gutter + "└" + "─" * columns)
    start, end = records[0].date.isoformat(), records[-1].date.isoformat()
    room = columns > len(start) + len(end)
    dates = start + end.rjust(columns - len(start)) if room and start != end else start
    lines.append(" " * (gutter + 1) + dates)
    words = {"higher": "higher is better", "lower": "lower is better"}
    said = words.get(timeline.direction or "", "direction unknown")
    count = len(records)
    records_said = f"{count} record{'s' if count != 1 else ''}"
    caption = f"{said} (up) · {one_line(timeline.metric)} over time · {records_said}"
    lines.append(" " * (gutter + 1) + truncate(caption, max(1, columns)))
    return "\n".join(lines) + "\n"


def terminal_steps(data: Mapping[str, Any], tty: Screen) -> str:
    """The step chart that follows the timeline table in a terminal; a pipe never gets it."""
    return step_chart(timeline_of(data), tty.width) if tty is not None else ""
