"""Leaderboards built for a case, served like the catalog serves them: ordered by task-scoped
rank (so the scopes interleave), paginated with a page-size cap of the catalog's own (so a scan
needs several pages), metrics whose names say nothing about their direction, and tri-state
openness and extra-training-data flags (true, false, unknown), openness filtered upstream."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

BENCH = {"id": "7", "name": "Bench", "slug": "bench", "full_name": "A bench built for the case"}
UPSTREAM_PAGE_CAP = 15  # the catalog answers at most this many rows a page, whatever is asked


@dataclass
class Scope:
    task_id: str
    metric: str
    lower_is_better: bool
    values: list[float]  # one row each, any order; the catalog ranks them
    extra: dict[str, Any] = field(default_factory=dict)


def rows_of(scopes: list[Scope]) -> list[dict[str, Any]]:
    """Every scope's rows, ranked within their scope (rank 1 best), in the catalog's order:
    by rank, scopes interleaved, the later scope first among equal ranks (so the first row of
    the board is not the main scope's)."""
    rows: list[dict[str, Any]] = []
    for position, scope in enumerate(scopes):
        ordered = sorted(scope.values, reverse=not scope.lower_is_better)
        for rank, value in enumerate(ordered, start=1):
            key = f"{scope.task_id}-{rank}"
            rows.append(
                {
                    "id": f"e{key}",
                    "paper_id": f"p{key}",
                    "paper_title": f"Paper {key}",
                    "paper_published_date": f"20{10 + (int(value * 7) % 14):02d}-01-01",
                    "dataset_id": BENCH["id"],
                    "dataset_name": BENCH["name"],
                    "task_id": scope.task_id,
                    "task_name": f"Task {scope.task_id}",
                    "model_name": f"Model {key}",
                    "metrics": {scope.metric: value},
                    "best_metric": scope.metric,
                    "best_rank": rank,
                    "num_parameters": 1_000_000 * (1 + (int(value * 13) % 50)),
                    # closed at ranks 3 and 11 only (so few rows are closed), unknown at every
                    # 4th; extra data unknown at every 3rd rank, used at every 5th
                    "is_open": False if rank in (3, 11) else None if rank % 4 == 0 else True,
                    "uses_additional_data": None if rank % 3 == 0 else rank % 5 == 0,
                    "_position": position,
                    **scope.extra,
                }
            )
    rows.sort(key=lambda r: (r["best_rank"], -r["_position"]))
    for row in rows:
        del row["_position"]
    return rows


def paginated(rows: list[dict[str, Any]]) -> Callable[[dict[str, str]], dict[str, Any]]:
    """The `datasets/{id}/evaluations/` document for a query (page, page_size)."""

    def document(query: dict[str, str]) -> dict[str, Any]:
        size = min(int(query.get("page_size", 20)), UPSTREAM_PAGE_CAP)
        page = int(query.get("page", 1))
        wanted = {"true": True, "false": False}.get(query.get("is_open", ""))
        kept = [r for r in rows if wanted is None or r.get("is_open") is wanted]
        chunk = kept[(page - 1) * size : page * size]
        more = page * size < len(kept)
        return {"count": len(kept), "next_page": page + 1 if more else None, "results": chunk}

    return document


def serve(by_path: dict[str, tuple[int, Any]], rows: list[dict[str, Any]]) -> None:
    """Put the bench and its rows in a loopback catalog's answers (tests.helpers.mcp.Answers)."""
    by_path["datasets/"] = (200, {"count": 1, "next_page": None, "results": [BENCH]})
    by_path[f"datasets/{BENCH['id']}/evaluations/"] = (200, paginated(rows))


# --- the oracle: written from the README's rules, sharing no code with pwc_cli ----------------


def oracle_order(rows: list[dict[str, Any]]) -> list[str]:
    """Main scope (most rows) first, each scope by its rank: the whole board's order."""
    counts: dict[str, int] = {}
    for row in rows:
        counts[row["task_id"]] = counts.get(row["task_id"], 0) + 1
    scopes = sorted(counts, key=lambda t: -counts[t])
    return [
        r["id"]
        for task in scopes
        for r in sorted((r for r in rows if r["task_id"] == task), key=lambda r: r["best_rank"])
    ]


def oracle_front(
    rows: list[dict[str, Any]], objectives: list[tuple[Callable[[dict[str, Any]], Any], str]]
) -> set[str]:
    """Rows no other row dominates, by pairwise comparison."""
    scored = []
    for row in rows:
        values = [get(row) for get, _ in objectives]
        if all(isinstance(v, int | float) and not math.isnan(v) for v in values):
            signs = [1 if way == "higher" else -1 for _, way in objectives]
            scored.append((row["id"], [s * v for s, v in zip(signs, values, strict=True)]))
    front = set()
    for ident, mine in scored:
        dominated = any(
            all(o >= m for o, m in zip(other, mine, strict=True)) and other != mine
            for _, other in scored
        )
        if not dominated:
            front.add(ident)
    return front


def oracle_records(rows: list[dict[str, Any]], metric: str, lower: bool) -> list[str]:
    """The rows that set a record: strictly better than every earlier-dated row."""
    dated = sorted(rows, key=lambda r: (r["paper_published_date"], r["metrics"][metric]))
    if not lower:
        dated = sorted(rows, key=lambda r: (r["paper_published_date"], -r["metrics"][metric]))
    records, best = [], None
    for row in dated:
        value = row["metrics"][metric]
        if best is None or (value < best if lower else value > best):
            records.append(row["id"])
            best = value
    return records


def oracle_bests(
    rows: list[dict[str, Any]],
    scopes: list[Scope],
    *,
    is_open: bool | None = None,
    extra: bool | None = None,
) -> dict[str, tuple[str | None, str]]:
    """Per task scope: (the best row's ID among the rows whose flags are known to equal the
    asked ones, or None; the best row's ID over the whole board), by the scope's metric in its
    direction."""

    def best(candidates: list[dict[str, Any]], scope: Scope) -> str | None:
        values = {row["id"]: row["metrics"][scope.metric] for row in candidates}
        pick = min if scope.lower_is_better else max
        return pick(values, key=values.__getitem__) if values else None

    found = {}
    for scope in scopes:
        members = [r for r in rows if r["task_id"] == scope.task_id]
        kept = oracle_kept(rows, scope, is_open=is_open, extra=extra)
        found[scope.task_id] = (best(kept, scope), str(best(members, scope)))
    return found


def oracle_kept(
    rows: list[dict[str, Any]],
    scope: Scope,
    *,
    is_open: bool | None = None,
    extra: bool | None = None,
) -> list[dict[str, Any]]:
    """The scope's rows whose flags are known to equal the asked ones."""
    return [
        r
        for r in rows
        if r["task_id"] == scope.task_id
        and (is_open is None or r["is_open"] is is_open)
        and (extra is None or r["uses_additional_data"] is extra)
    ]
