"""Wrong-shaped upstream answers are errors, never an empty success (issue #16): a catalog on
loopback answers with an identifying field of the wrong type, and every tool says
`upstream_error:` instead of projecting `## ` and `0 code repositories`. A catalog string that
is long stays one short line of the text."""

from __future__ import annotations

from typing import Any

import pytest

from tests.helpers.mcp import call, error_of

pytestmark = pytest.mark.anyio
SHAPE = "upstream_error: API returned an unexpected response shape"
PAPER = {"id": "48213", "arxiv_id": "1706.03762", "title": "Attention Is All You Need"}
WRONG = {"id": [], "title": {}}


@pytest.mark.parametrize(
    ("tool", "arguments", "answers"),
    [
        ("get_paper_info", {"paper": "1706.03762"}, {"papers/1706.03762": WRONG}),
        (
            "get_paper_info",
            {"paper": "1706.03762"},
            {"papers/1706.03762": {"id": "1", "title": {}}},
        ),
        ("get_paper_info", {"paper": "1706.03762"}, {"papers/1706.03762": {"id": "1"}}),
        ("search_papers", {"query": "x"}, {"papers/search": {"count": 1, "results": [WRONG]}}),
        ("list_recent_papers", {}, {"papers/recent": [{"id": "1", "arxiv_id": 1706.03762}]}),
        (
            "get_paper_evaluations",
            {"paper": "1706.03762"},
            {
                "papers/1706.03762": PAPER,
                "evaluations/": {"count": 1, "results": [{"model_name": {}, "metrics": {}}]},
            },
        ),
        (
            "get_paper_lineage",
            {"paper": "1706.03762"},
            {
                "papers/1706.03762": PAPER,
                "research/papers/1706.03762/lineage": {
                    "paper": PAPER,
                    "predecessors": [{"reference": "x", "title": ["not", "a", "title"]}],
                    "successors": [],
                },
            },
        ),
        (
            "list_organizations",
            {},
            {"organizations/": {"results": [{"id": "1", "slug": "x", "name": {"en": "X"}}]}},
        ),
        (
            "list_benchmarks",
            {"search": "x"},
            {"datasets/": {"count": 1, "results": [{"id": [], "name": "X", "slug": "x"}]}},
        ),
    ],
    ids=lambda value: value if isinstance(value, str) else None,
)
async def test_a_wrong_shaped_answer_is_an_upstream_error(
    hostile, tool: str, arguments: dict[str, Any], answers: dict[str, Any]
) -> None:
    client, catalog = hostile
    catalog.by_path.update({path: (200, document) for path, document in answers.items()})
    assert await error_of(client, tool, **arguments) == SHAPE


async def test_a_paper_whose_id_is_not_an_id_is_never_looked_up(hostile) -> None:
    """`id: []` once became the upstream query `paper_id=[]`."""
    client, catalog = hostile
    catalog.by_path["papers/1706.03762"] = (200, WRONG)
    catalog.by_path["evaluations/"] = (200, {"count": 0, "results": []})
    text = await error_of(client, "get_paper_evaluations", paper="1706.03762")
    assert text == "upstream_error: Paper response did not contain an ID"


async def test_a_long_catalog_string_stays_one_short_line(hostile) -> None:
    client, catalog = hostile
    rows = [{"id": str(i), "title": f"T{i} " + "word\n" * 2_000} for i in range(25)]
    catalog.by_path["papers/search"] = (200, {"count": 25, "results": rows})
    structured, text = await call(client, "search_papers", query="x")
    assert structured["data"]["results"][0]["title"] == rows[0]["title"]  # the structure is whole
    lines = text.splitlines()
    assert len(lines) == 26 and all(len(line) < 300 for line in lines)
    assert all(f"T{i} word" in lines[i + 1] and f"ID {i}" in lines[i + 1] for i in range(25))
