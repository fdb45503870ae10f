"""Every tool's text stands alone (issue #16): a content-only cached_client shows the model only the
text, so it names every returned row with its identifier and the numbers that matter, says what
is not in the catalog, and stays compact. Checked for every tool through a real MCP cached_client
against the sample catalog: the identifiers come from the result's own structuredContent."""

from __future__ import annotations

from typing import Any

import pytest
from fastmcp import Client

from pwc_mcp.params import TOOLS
from tests.helpers.mcp import call

pytestmark = pytest.mark.anyio
COMPACT = 4096  # bytes: "a few KB"

CALLS: list[tuple[str, dict[str, Any]]] = [
    ("search_papers", {"query": "transformer"}),
    ("get_paper_info", {"paper": "1706.03762"}),
    ("get_paper_info", {"paper": "1706.03762", "include_resources": True, "repo_limit": 3}),
    ("get_paper_info", {"paper": "1706.03762", "include_evaluations": True}),
    ("get_paper_info", {"paper": "10.1038/nature16961"}),
    ("get_paper_evaluations", {"paper": "1706.03762"}),
    ("read_paper", {"paper": "904512"}),
    ("list_papers", {"task": "image-classification"}),
    ("list_recent_papers", {"limit": 25}),
    ("list_trending_papers", {}),
    ("get_related_papers", {"paper": "2010.11929"}),
    ("get_paper_lineage", {"paper": "BERT"}),
    ("get_task", {"task": "image-classification"}),
    ("list_tasks", {}),
    ("list_tasks", {"group_by_area": True}),
    ("get_method", {"method": "transformer"}),
    ("list_methods", {}),
    ("get_conference", {"conference": "neurips-2017"}),
    ("list_conferences", {}),
    ("get_organization", {"organization": "google"}),
    ("list_organizations", {}),
    ("get_framework", {"framework": "pytorch"}),
    ("list_frameworks", {}),
    ("get_benchmark", {"benchmark": "imagenet"}),
    ("get_benchmark", {"benchmark": "ImageNet", "sort_metric": "Top 1 Accuracy", "limit": 5}),
    ("list_benchmarks", {"search": "image"}),
    ("list_benchmarks", {"group_by_area": True}),
]


def number(value: Any) -> str:
    return str(value).removesuffix(".0") if isinstance(value, float) else str(value)


def paper_ids(row: dict[str, Any]) -> list[str]:
    key = row.get("arxiv_id") or row.get("reference") or row.get("id")
    if key is None:  # only a paper outside the catalog has no ID; its links name it
        assert row.get("in_catalog") is False and row["available_at"]
        return [row["title"]]
    return [row["title"], key]


def record_ids(row: dict[str, Any]) -> list[str]:
    return [row["name"], row.get("slug") or row["id"]]


def evaluation_ids(row: dict[str, Any]) -> list[str]:
    ranks = [str(s["rank"]) for s in row.get("rank_scopes", []) if "rank" in s]
    values = [number(v) for v in row["metrics"].values() if v is not None]
    return [row["model_name"], *values, *ranks]


def identifiers(structured: dict[str, Any]) -> list[str]:
    """What names each returned row, read from the structured content alone."""
    found: list[str] = []
    paper = structured.get("paper")
    if isinstance(paper, dict):  # get_paper_info, get_paper_lineage
        found += paper_ids(paper)
        found += [r["url"] for r in paper.get("repositories", [])]
        found += [a["url"] for a in paper.get("available_at", [])]
    for key in ("predecessors", "successors"):
        found += [i for row in structured.get(key, []) for i in paper_ids(row)]
    bench = structured.get("benchmark")
    if isinstance(bench, dict):
        found += record_ids(bench)
    for row in structured.get("evaluations", []):
        found += evaluation_ids(row)
        found += [row["benchmark"]] if "paper" in structured else []
    evaluations = structured["data"].get("evaluations") if "paper" in structured else None
    if isinstance(evaluations, dict):  # get_paper_info with include_evaluations
        found += [row["model_name"] for row in evaluations["results"]]
    for row in structured.get("items", []):
        found += paper_ids(row) if "title" in row else record_ids(row)
    item = structured.get("item")
    if isinstance(item, dict):
        found += record_ids(item)
        for key in ("benchmarks", "children", "parents", "common_methods"):
            found += [i for row in item.get(key, []) for i in record_ids(row)]
    return [str(i) for i in found]


@pytest.mark.parametrize(
    ("tool", "arguments"), CALLS, ids=[f"{t}-{i}" for i, (t, _) in enumerate(CALLS)]
)
async def test_the_text_names_every_returned_row(
    cached_client: Client, tool: str, arguments: dict[str, Any]
) -> None:
    structured, text = await call(cached_client, tool, **arguments)
    if tool == "read_paper":  # the paper's own Markdown, whole
        assert text == structured["data"]["markdown"]
        return
    wanted = identifiers(structured)
    assert wanted or tool == "list_trending_papers", "the call returns rows to look for"
    missing = [i for i in wanted if i not in text]
    assert not missing, f"{tool}: the text omits {missing}\n{text}"
    assert len(text.encode()) < COMPACT


def test_every_tool_is_checked() -> None:
    assert {tool for tool, _ in CALLS} == set(TOOLS)


async def test_an_empty_list_says_zero(cached_client: Client) -> None:
    structured, text = await call(cached_client, "list_trending_papers", max_age_days=1)
    assert structured["items"] == [] and text.startswith("Found 0 papers")


async def test_a_paper_outside_the_catalog_says_so(cached_client: Client) -> None:
    structured, text = await call(cached_client, "get_paper_info", paper="10.1038/nature16961")
    assert structured["paper"]["in_catalog"] is False
    assert "Not in the Papers With Code catalog" in text
    _, inside = await call(cached_client, "get_paper_info", paper="1706.03762")
    assert "Not in the" not in inside


async def test_a_leaderboard_text_follows_the_rows_order(cached_client: Client) -> None:
    structured, text = await call(cached_client, "get_benchmark", benchmark="imagenet")
    models = [row["model_name"] for row in structured["evaluations"]]
    lines = [line for line in text.splitlines() if line.startswith("- ")]
    assert len(lines) == len(models)
    assert all(line.startswith(f"- {name}:") for line, name in zip(lines, models, strict=True))
