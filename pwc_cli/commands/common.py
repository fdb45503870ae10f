"""Shapes shared by every handler: row extraction (§1.5) and exact entity matching (§4.2)."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Any

from pwc_cli.errors import NotFoundError, ResponseError

_SPACE = re.compile(r"\s+")


def fold(value: Any) -> str:
    """Trimmed, casefolded, whitespace-collapsed text of any value (None → "")."""
    if value is None:
        return ""
    return _SPACE.sub(" ", str(value)).strip().casefold()


def extract_rows(payload: Any) -> tuple[list[dict[str, Any]], int | None]:
    """Rows and total of a list-like reply: a bare array, or `results`/`items` + `count`/`total`."""
    if isinstance(payload, list):
        return [row for row in payload if isinstance(row, dict)], None
    if not isinstance(payload, dict):
        raise ResponseError("API returned an unexpected response shape")
    rows = payload.get("results")
    if rows is None:
        rows = payload.get("items")
    if not isinstance(rows, list):
        raise ResponseError("API response did not contain a result list")
    total = payload.get("count") or payload.get("total")
    try:
        count = int(total) if total is not None and not isinstance(total, bool) else None
    except (TypeError, ValueError):
        count = None
    return [row for row in rows if isinstance(row, dict)], count


def require_object(payload: Any, message: str) -> dict[str, Any]:
    if not isinstance(payload, dict):
        raise ResponseError(message)
    return payload


def match_entity(
    rows: Sequence[dict[str, Any]], target: str, fields: Sequence[str]
) -> dict[str, Any] | None:
    """First row matching by field priority: a name match anywhere beats a slug match."""
    wanted = fold(target)
    for field in fields:
        for row in rows:
            if row.get(field) is not None and fold(row.get(field)) == wanted:
                return row
    return None


def not_found(label: str, typed: str, candidates: Iterable[str]) -> NotFoundError:
    names = [name for name in candidates if name][:3]
    suffix = f"; closest results: {', '.join(names)}" if names else ""
    return NotFoundError(f"{label} not found: {typed}{suffix}")


def candidate_names(rows: Iterable[dict[str, Any]], fallback_slug: bool = False) -> list[str]:
    names = []
    for row in rows:
        name = row.get("name") or (row.get("slug") if fallback_slug else None)
        if name:
            names.append(str(name))
    return names


def find_entity(
    rows: Sequence[dict[str, Any]],
    target: str,
    fields: Sequence[str],
    label: str,
    *,
    fallback_slug: bool = False,
) -> dict[str, Any]:
    row = match_entity(rows, target, fields)
    if row is None:
        raise not_found(label, target, candidate_names(rows, fallback_slug))
    return row


def area_names(payload: Any) -> dict[str, str]:
    """id → name map of the `areas/` catalog (rows lacking either are skipped)."""
    rows, _ = extract_rows(payload)
    return {str(r["id"]): str(r["name"]) for r in rows if r.get("id") is not None and r.get("name")}


def resolve_area(areas: dict[str, str], typed: str) -> str:
    """The area id whose id or name equals `typed` (casefolded); else the contract's error."""
    wanted = fold(typed)
    for area_id, name in areas.items():
        if fold(area_id) == wanted or fold(name) == wanted:
            return area_id
    available = ", ".join(sorted(areas.values(), key=str.casefold))
    raise NotFoundError(f"Area not found: {typed}; available areas: {available}")


AREAS_PARAMS = {"page": 1, "page_size": 500, "ordering": "name"}


def fetch_areas(client: Any) -> dict[str, str]:
    return area_names(client.get_json("areas/", AREAS_PARAMS))


def ordering(field: str | None, direction: str) -> str | None:
    if field is None:
        return None
    return f"-{field}" if direction == "desc" else field
