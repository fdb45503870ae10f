"""/metrics' upstream counters per path family: every request by status, and the failures among
them (timeouts, transport errors, unusable answers, 429 and 5xx); a 404 or 422 is an answer."""

from __future__ import annotations

import httpx
import pytest

from pwc_core.errors import HTTPStatusError, ResponseError, TransportError, UpstreamTimeout
from pwc_core.transport import CatalogClient
from pwc_mcp.caching.cache import CachedCatalog
from tests.helpers.mcp import CATALOG_BASE as BASE

DOC = {"id": "1", "results": []}


def test_upstream_failures_are_counted_per_family(mock) -> None:
    mock.get("/tasks/1/page").mock(
        side_effect=[
            httpx.Response(503, json={"detail": "busy"}),
            httpx.Response(429, json={"detail": "slow down"}),
            httpx.Response(200, content=b"not json"),
            httpx.ReadTimeout("slow"),
            httpx.ConnectError("down"),
            httpx.Response(200, json=DOC),
        ]
    )
    mock.get("/papers/1706.03762").respond(404, json={"detail": "missing"})
    mock.get("/papers/search").respond(422, json={"detail": "bad query"})
    catalog = CachedCatalog(CatalogClient(BASE))
    for error in (HTTPStatusError, HTTPStatusError, ResponseError, UpstreamTimeout, TransportError):
        with pytest.raises(error):
            catalog.get_json("tasks/1/page")
    assert catalog.get_json("tasks/1/page") == DOC
    for path in ("papers/1706.03762", "papers/search"):
        with pytest.raises(HTTPStatusError):
            catalog.get_json(path)
    families = catalog.stats()["families"]
    page = families["tasks/{id}/page"]
    assert page["status"] == {"503": 1, "429": 1, "invalid": 1, "timeout": 1, "error": 1, "200": 1}
    assert (page["upstream_calls"], page["upstream_failures"]) == (6, 5)
    assert families["papers/{ref}"]["upstream_failures"] == 0  # not found is an answer
    assert families["papers/search"]["upstream_failures"] == 0
    assert catalog.stats()["upstream_failures"] == 5
