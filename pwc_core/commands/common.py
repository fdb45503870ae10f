"""Shapes shared by every handler: row extraction (docs/upstream-api.md#row-extraction) and exact
entity matching (docs/upstream-api.md#exact-entity-matching)."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from pwc_core.errors import NotFoundError
from pwc_core.replies import extract_rows
from pwc_core.suggest import suggestions

_SPACE = re.compile(r"\s+")
_NON_SLUG = re.compile(r"[^\w]+|_+")


def fold(value: Any) -> str:
    """Trimmed, casefolded, whitespace-collapsed text of any value (None → "")."""
    if value is None:
        return ""
    return _SPACE.sub(" ", str(value)).strip().casefold()


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


def not_found(
    label: str, typed: str, candidates: Iterable[str], search: NameSearch | None = None
) -> NotFoundError:
    """The contract's miss: `<Label> not found: <name>; closest results: <names>`, the names
    gathered by `search` too when the candidates in hand are nothing like what was typed."""
    names = suggestions(typed, list(candidates), search)
    suffix = f"; closest results: {', '.join(names)}" if names else ""
    return NotFoundError(f"{label} not found: {typed}{suffix}")


def candidate_names(rows: Iterable[dict[str, Any]], fallback_slug: bool = False) -> list[str]:
    names = []
    for row in rows:
        name = row.get("name") or (row.get("slug") if fallback_slug else None)
        if name:
            names.append(str(name))
    return names


RowSearch = Callable[[str], list[dict[str, Any]]]
NameSearch = Callable[[str], list[str]]


def q_search(client: Any, route: str, params: dict[str, Any]) -> RowSearch:
    """The rows of `route` whose name contains a text: the catalog's `q` lookup of an entity."""

    def search(query: str) -> list[dict[str, Any]]:
        rows, _ = extract_rows(client.get_json(route, {"q": query, **params}))
        return rows

    return search


def _names_found(search: RowSearch, fallback_slug: bool) -> NameSearch:
    return lambda query: candidate_names(search(query), fallback_slug)


def find_entity(
    rows: Sequence[dict[str, Any]],
    target: str,
    fields: Sequence[str],
    label: str,
    *,
    fallback_slug: bool = False,
    search: RowSearch | None = None,
) -> dict[str, Any]:
    """The row `target` names exactly; else not-found with suggestions, from `rows` or, when
    none of them is alike, from a few more `search` lookups (pwc_core.suggest)."""
    row = match_entity(rows, target, fields)
    if row is None:
        names = None if search is None else _names_found(search, fallback_slug)
        raise not_found(label, target, candidate_names(rows, fallback_slug), names)
    return row


def area_names(payload: Any) -> dict[str, str]:
    """id → name map of the `areas/` catalog (rows lacking either are skipped)."""
    rows, _ = extract_rows(payload)
    return {str(r["id"]): str(r["name"]) for r in rows if r.get("id") is not None and r.get("name")}


def slug_of(name: str) -> str:
    """The URL form of a name: "Natural Language Processing" -> "natural-language-processing"."""
    return _NON_SLUG.sub("-", fold(name)).strip("-")


def resolve_area(areas: dict[str, str], typed: str) -> str:
    """The area id whose id, name or slug equals `typed` (casefolded); else the contract's
    error. Every tool resolves areas against the full `areas/` catalog through this."""
    wanted = fold(typed)
    for area_id, name in areas.items():
        if wanted in (fold(area_id), fold(name), slug_of(name)):
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
