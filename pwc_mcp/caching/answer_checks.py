"""What an upstream answer must be to be used and cached, and how each outcome is labelled.

`parse` checks a JSON body against its route's declared shape (pwc_core/routes.py); level 1
and level 2 (pwc_mcp/caching/cache.py, pwc_mcp/caching/shared_cache.py) both run it, so an answer borrowed
from another replica passes exactly the check a fetched one does. Labels are content-free: an
HTTP status, or `timeout`, `invalid` (unusable answer), `error` (transport) or `refused` (not
made: the calling client's catalog budget is spent, pwc_mcp/caching/upstream.py).
"""

from __future__ import annotations

from typing import Any

from pydantic_core import from_json

from pwc_core.errors import HTTPStatusError, ResponseError, UpstreamShapeError, UpstreamTimeout
from pwc_core.routes import LIST, OBJECT, RESULTS
from pwc_mcp.caching.upstream import BudgetSpent

SHAPE_MESSAGE = "API returned an unexpected response shape"
LIST_MESSAGE = "API response did not contain a result list"
# Outcomes that are the upstream failing, not answering (a 404 or 422 is an answer).
_FAILURES = frozenset({"timeout", "invalid", "error", "429"})


def status_label(exc: BaseException) -> str:
    if isinstance(exc, UpstreamTimeout):
        return "timeout"
    if isinstance(exc, HTTPStatusError):
        return str(exc.status)
    if isinstance(exc, ResponseError):
        return "invalid"
    return "refused" if isinstance(exc, BudgetSpent) else "error"


def failed(label: str) -> bool:
    """Whether an outcome label counts as an upstream failure (/metrics)."""
    return label in _FAILURES or label.startswith("5")


def parse(body: bytes, shape: str) -> Any:
    """The document of a body, checked against its route's shape. pydantic-core's parser is
    several times faster than json's, and hits parse with it too, so both agree exactly."""
    try:
        document = from_json(body)
    except ValueError as exc:
        raise UpstreamShapeError("API returned invalid JSON") from exc
    if not isinstance(document, dict | list) or (
        shape in (OBJECT, RESULTS) and not isinstance(document, dict)
    ):
        raise UpstreamShapeError(SHAPE_MESSAGE)
    if shape == RESULTS and not (
        isinstance(document, dict) and isinstance(document.get("results"), list)
    ):
        raise UpstreamShapeError(LIST_MESSAGE)
    if shape == LIST and isinstance(document, dict):
        rows = document.get("results")
        if not isinstance(rows if rows is not None else document.get("items"), list):
            raise UpstreamShapeError(LIST_MESSAGE)
    return document
