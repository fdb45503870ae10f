"""A catalog that answers whatever the test says, on loopback: oversized pages and error bodies
full of internals must not travel to MCP clients (issue #14, bounded memory and upstream detail).
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from pwc_mcp.params import HOSTED_ROW_CAP
from tests.helpers.mcp import call, error_of

pytestmark = pytest.mark.anyio
ROWS = 48_000  # a legal page (under the 2 MiB bound) that ignores the requested page size


def rows(count: int) -> list[dict[str, str]]:
    return [{"id": str(i), "title": "t"} for i in range(count)]


async def test_an_oversized_page_is_cut_to_the_rows_returned(hostile) -> None:
    client, answers = hostile
    answers.by_path["papers/search"] = (200, {"count": ROWS, "results": rows(ROWS)})
    assert len(json.dumps(answers.by_path["papers/search"][1])) < 2 * 1024 * 1024
    structured, _ = await call(client, "search_papers", query="anything", limit=10)
    data = structured["data"]
    assert len(structured["items"]) == len(data["results"]) == HOSTED_ROW_CAP
    assert data["truncated"] is True and data["count"] == ROWS
    assert len(json.dumps(structured)) < 20_000


async def test_an_oversized_bare_list_is_cut_and_marked(hostile) -> None:
    client, answers = hostile
    answers.by_path["papers/recent"] = (200, rows(ROWS))
    structured, _ = await call(client, "list_recent_papers", limit=5)
    data = structured["data"]
    assert data == {"results": rows(HOSTED_ROW_CAP), "count": ROWS, "truncated": True}


async def test_a_page_within_the_cap_is_the_payload_verbatim(hostile) -> None:
    client, answers = hostile
    answers.by_path["papers/recent"] = (200, rows(3))
    structured, _ = await call(client, "list_recent_papers", limit=5)
    assert structured["data"] == rows(3)


@pytest.mark.parametrize(
    ("detail", "message"),
    [
        ("bad ... http://10.0.0.5/internal", "invalid_argument: bad ..."),
        (
            "rejected by db-7.internal.example:5432 (see /srv/catalog/app/filters.py)\x1b[2J",
            "invalid_argument: rejected by (see ) [2J",
        ),
        (
            "page_size must be between 1 and 100",
            "invalid_argument: limit must be between 1 and 100",
        ),
        (
            "start_date must be a date in YYYY-MM-DD format",
            "invalid_argument: published_after must be a date in YYYY-MM-DD format",
        ),
        ({"loc": ["query", "q"], "msg": "secret at http://10.0.0.5"}, None),
        ("word " * 600, "invalid_argument: " + " ".join(["word"] * 24) + " …"),
        ("x" * 5000, None),  # the 4 KiB the client reads of it is no JSON any more
    ],
)
async def test_upstream_rejections_reach_clients_in_our_words(
    hostile, detail: Any, message: str | None
) -> None:
    client, answers = hostile
    answers.by_path["papers/search"] = (422, {"detail": detail})
    text = await error_of(client, "search_papers", query="anything")
    assert text == (message or "invalid_argument: the catalog rejected the request")
    assert "://" not in text and "10.0.0.5" not in text and "/srv/" not in text
    assert text.isprintable() and len(text) <= 160
