"""The Best / Gap / Rank cells of `paper evaluations --against-sota` and its notes on stderr
(the comparison itself is pwc_core.standing)."""

from __future__ import annotations

from typing import Any

from pwc_core.flags import extra_data
from pwc_core.scopes import scopes_of
from pwc_core.text import cell_text, one_line

HEADERS = ("best", "gap", "rank")


def number(value: Any) -> str:
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return cell_text(value)


def cells(row: dict[str, Any]) -> list[str]:
    """[best, gap, rank]: `35 (Transformer Big + BT)`, `6.6`, `6/7`; a row that could not be
    compared says why under best and keeps the catalog's rank."""
    sota = row.get("sota")
    if not isinstance(sota, dict):
        reason = row.get("sota_unavailable")
        listed = cell_text(scopes_of(row)[0].get("rank"))
        return [f"— ({one_line(reason)})" if reason else "—", "", listed]
    said = [
        one_line(sota.get("model_name")),
        extra_data(sota.get("uses_additional_data")) or "",
        one_line(sota.get("protocol")),
    ]
    who = ", ".join(part for part in said if part)
    best = number(sota.get("value")) + (f" ({who})" if who else "")
    rank = cell_text(sota.get("rank")) or "?"
    of = sota.get("of")
    return [best, number(sota.get("gap")), f"{rank}/{of if of is not None else '?'}"]


def notes(payload: dict[str, Any]) -> list[str]:
    """One `# not compared:` line per task scope that could not be compared."""
    summary = payload.get("against_sota")
    entries = summary.get("unavailable") if isinstance(summary, dict) else None
    lines = []
    for entry in entries if isinstance(entries, list) else []:
        if not isinstance(entry, dict):
            continue
        name = one_line(entry.get("dataset_name") or entry.get("dataset_id") or "a benchmark")
        task = one_line(entry.get("task_name") or entry.get("task_id"))
        where = f"{name} ({task})" if task else name
        lines.append(f"# not compared: {where}: {one_line(entry.get('reason'))}")
    return lines
