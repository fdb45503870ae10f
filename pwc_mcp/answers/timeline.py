"""`get_benchmark` with `timeline`: the text of the payload's timeline.

The handler builds the timeline (pwc_core.timeline) and `data.timeline` carries it; here it is
checked into `Timeline` and becomes a compact list for content-only clients: one line per
record, oldest first.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel

from pwc_core.flags import openness
from pwc_core.sentences import records_of, summary
from pwc_mcp.answers.texts import clip, joined, number, size

TEXT_RECORDS = 40  # record lines in the text; data.timeline holds every record


class Timeline(BaseModel):
    # SOTA over time; each record: date, value, improvement, model_name, paper_id, paper_title,
    # paper_arxiv_id, num_parameters, is_open, evaluation_id (pwc_core.timeline).
    metric: str | None = None
    direction: Literal["higher", "lower"] | None = None
    records: list[dict[str, Any]] = []
    considered: int = 0
    undated: int = 0
    complete: bool = True


def timeline_of(payload: dict[str, Any]) -> Timeline | None:
    """The payload's timeline, checked, or None when none was asked for."""
    raw = payload.get("timeline")
    if not isinstance(raw, dict):
        return None
    direction = raw.get("direction")
    metric = raw.get("metric")
    return Timeline(
        metric=metric if isinstance(metric, str) else None,
        direction=direction if direction in ("higher", "lower") else None,
        records=records_of(raw),
        considered=_count(raw.get("considered")),
        undated=_count(raw.get("undated")),
        complete=raw.get("complete") is not False,
    )


def _count(value: Any) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else 0


def record_line(record: dict[str, Any]) -> str:
    """`- 2017-08-07: 57.3 (5.1 better) · AWD-LSTM · Paper title (arXiv 1708.02182) · 24M params`"""
    gain = record.get("improvement")
    value = number(record.get("value"))
    if isinstance(gain, int | float) and not isinstance(gain, bool):
        value += f" ({number(gain)} better)"
    paper = clip(record.get("paper_title") or "untitled paper", 100)
    key = record.get("paper_arxiv_id")
    paper += f" (arXiv {clip(key, 40)})" if key else f" (ID {clip(record.get('paper_id'), 40)})"
    params = record.get("num_parameters")
    facts = [
        clip(record.get("model_name") or "unnamed model", 80),
        paper,
        size(params) if isinstance(params, int) and params > 0 else None,
        openness(record.get("is_open")),
    ]
    return f"- {clip(record.get('date'), 10)}: {value} · {joined(facts)}"


def timeline_text(timeline: Timeline) -> str:
    """`SOTA over time: <summary>` and one line per record (at most TEXT_RECORDS, then a count
    of the rest)."""
    raw = timeline.model_dump()
    raw["metric"] = clip(raw["metric"], 60) if raw["metric"] else None
    lines = [f"SOTA over time: {summary(raw)}"]
    lines += [record_line(r) for r in timeline.records[:TEXT_RECORDS]]
    rest = len(timeline.records) - TEXT_RECORDS
    if rest > 0:
        lines.append(
            f"- … {rest:,} later records in the structured content (data.timeline.records)"
        )
    return "\n".join(lines)
