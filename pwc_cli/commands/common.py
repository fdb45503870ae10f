"""Shapes shared by every handler: row extraction (docs/upstream-api.md#row-extraction) and exact
entity matching (docs/upstream-api.md#exact-entity-matching)."""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable, Sequence
from typing import Any

from pwc_cli.errors import NotFoundError, UpstreamShapeError

_SPACE = re.compile(r"\s+")
_NON_SLUG = re.compile(r"[^\w]+|_+")


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
        raise UpstreamShapeError("API returned an unexpected response shape")
    rows = payload.get("results")
    if rows is None:
        rows = payload.get("items")
    if not isinstance(rows, list):
        raise UpstreamShapeError("API response did not contain a result list")
    # `count: 0` is a count: an empty result says 0, not "unknown"
    total = payload.get("count") if payload.get("count") is not None else payload.get("total")
    try:
        count = int(total) if total is not None and not isinstance(total, bool) else None
    except (TypeError, ValueError):
        count = None
    return [row for row in rows if isinstance(row, dict)], count


def require_object(payload: Any, message: str) -> dict[str, Any]:
    if not isinstance(payload, dict):
        raise UpstreamShapeError(message)
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


CLOSEST_SHOWN = 3
MIN_RATIO = 0.5


def _shares_word(a: str, b: str) -> bool:
    """A word of `a` (3+ characters) begins a word of `b`: "iclr 2020" and "ICLR 2017"."""
    words = b.split()
    return any(len(w) >= 3 and any(x.startswith(w) for x in words) for w in a.split())


def similarity(typed: str, name: str) -> tuple[int, float]:
    """How close `name` is to what was typed: a prefix (either way) beats containment beats a
    shared word beats none of these; then difflib's ratio of the folded texts."""
    a, b = fold(typed), fold(name)
    if not a or not b:
        return (0, 0.0)
    if b.startswith(a) or a.startswith(b):
        kind = 3
    elif a in b or b in a:
        kind = 2
    else:
        kind = 1 if _shares_word(a, b) else 0
    return (kind, difflib.SequenceMatcher(None, a, b).ratio())


def closest(typed: str, names: Iterable[str], shown: int = CLOSEST_SHOWN) -> list[str]:
    """The `shown` names most similar to `typed`; the catalog's order breaks a tie. Once some
    names are alike (sharing a word or half their letters), the unrelated ones are left out."""
    scored = [(similarity(typed, n), n) for n in dict.fromkeys(n for n in names if n)]
    alike = [(score, n) for score, n in scored if score[0] or score[1] >= MIN_RATIO]
    ranked = sorted(alike or scored, key=lambda pair: pair[0], reverse=True)
    return [name for _, name in ranked[:shown]]


def not_found(label: str, typed: str, candidates: Iterable[str]) -> NotFoundError:
    names = closest(typed, candidates)
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
