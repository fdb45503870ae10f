"""What the catalog answers, below every handler and domain module: the `Catalog` a handler reads
through (the CLI's client or the server's cached one) and the rows of its list replies."""

from __future__ import annotations

from typing import Any, Protocol

from pwc_core.errors import UpstreamShapeError


class Catalog(Protocol):
    """What a handler needs of the transport (the CLI client or the server's cached one)."""

    def get_json(self, path: str, params: Any = None) -> Any: ...

    def get(self, path: str, params: Any = None) -> Any: ...


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
