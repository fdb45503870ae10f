"""What a result carries beside `data`: only what the CLI's payload lacks (issue #26).

`data` holds every row whole; the typed rows (pwc_mcp.answers.projections) are what the texts are
written from. A structured-only client (Claude Code, VS Code, Codex) reads `data` and this,
so nothing is sent twice: the rows here are `data`'s rows, one each and in order, named by
their ID, each with only what its `data` row does not hold already (its metric values as
numbers when the row writes one as text, a few-shot count read from its methodology). A paper
row's abstract snippet is the one key added to `data`'s rows (pwc_mcp.tools.abstracts). No field is
null or empty (`structured`).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

from pydantic import BaseModel

from pwc_mcp.answers.models import Evaluation, PaperRef, PaperSummary, Scores


def paper_refs(papers: Iterable[PaperSummary]) -> list[PaperRef]:
    """Each paper row by its catalog ID (its snippet is in its `data` row)."""
    return [PaperRef(id=p.id) for p in papers]


def scores(rows: Iterable[dict[str, Any]], evaluations: Iterable[Evaluation]) -> list[Scores]:
    """Each evaluation row by its ID, with its metric values as numbers unless the row holds
    exactly those numbers already (it writes none as text: "88.55%", "1,234"), and its
    few-shot count."""
    listed = []
    for row, evaluation in zip(rows, evaluations, strict=True):
        numbers = {
            name: value
            for name, value in evaluation.metrics.items()
            if isinstance(value, float) and math.isfinite(value)
        }
        raw = row.get("metrics")
        same = raw == numbers  # every value a number already: data holds them
        identity = row.get("id")
        listed.append(
            Scores(
                id=None if identity is None else str(identity),
                metrics={} if same else numbers,
                shots=evaluation.shots,
            )
        )
    return listed


def lighter_rows(payload: dict[str, Any]) -> dict[str, Any]:
    """A leaderboard payload whose rows leave out the `metric_directions` we add to each row
    (pwc_core.board) where the board's `metric_directions` already says the same for each of
    the row's metrics: said once, not once a row (issue #36). A row with a direction the board
    does not state keeps its own. The CLI's `--json` keeps every row whole (v1)."""
    board = payload.get("metric_directions")
    rows = payload.get("results")
    if not isinstance(board, dict) or not isinstance(rows, list):
        return payload
    return {**payload, "results": [_without_said(row, board) for row in rows]}


def _without_said(row: Any, board: dict[str, Any]) -> Any:
    own = row.get("metric_directions") if isinstance(row, dict) else None
    if not isinstance(own, dict) or any(board.get(k) != v for k, v in own.items()):
        return row
    return {key: value for key, value in row.items() if key != "metric_directions"}


def structured(model: BaseModel) -> dict[str, Any]:
    """The model as structuredContent: no null, empty list or empty object outside `data`,
    which stays exactly as the handler made it."""
    dumped = model.model_dump(mode="json")
    data = dumped.pop("data")
    return {**_pruned(dumped), "data": data}


def _pruned(node: Any) -> Any:
    if isinstance(node, dict):
        kept = {key: _pruned(value) for key, value in node.items()}
        return {key: value for key, value in kept.items() if value not in (None, [], {})}
    if isinstance(node, list):
        return [_pruned(item) for item in node]
    return node
