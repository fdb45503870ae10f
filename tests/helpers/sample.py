"""Sample catalog test helpers: the two shapes of an answer (a document, an error detail)."""

from __future__ import annotations

import httpx


def ok(response: httpx.Response) -> object:
    assert response.status_code == 200, response.text
    return response.json()


def error(response: httpx.Response, status: int) -> object:
    assert response.status_code == status, response.text
    body = response.json()
    assert set(body) == {"detail"}
    return body["detail"]
