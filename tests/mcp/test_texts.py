"""Every tool's text stands alone (issue #16): a content-only cached_client shows the model only the
text, so it names every returned row with its identifier and the numbers that matter, says what
is not in the catalog, and stays compact. Checked for every tool through a real MCP cached_client
against the sample catalog: the identifiers come from the result's own structuredContent (the
rows of its `data`, with the numbers its projection adds)."""

from __future__ import annotations

from typing import Any

import pytest
from fastmcp import Client

from pwc_mcp.site.examples import TOOL_EXAMPLES
from tests.helpers.mcp import call, scored_rows

pytestmark = pytest.mark.anyio
COMPACT = 5120  # bytes: "a few KB" (issue #36: rows carry their date and known flags)

# Every example of the one table (pwc_mcp/site/examples.py); a text shape worth checking is an
# example there. Calls without arguments are derived from tools/list below.
CALLS = [(tool, example) for tool, examples in TOOL_EXAMPLES.items() for example in examples]


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


def rows_of(data: Any, key: str = "results") -> list[dict[str, Any]]:
    return data if isinstance(data, list) else data.get(key, [])


def identifiers(tool: str, structured: dict[str, Any]) -> list[str]:
    """What names each returned row, read from the structured content alone: the rows of `data`
    with what the projection adds (metric values as numbers)."""
    data = structured["data"]
    found: list[str] = []
    if tool == "get_paper_info":
        found += paper_ids(data)
        found += [r["url"] for r in data.get("repositories", [])]
        found += [a["url"] for a in data.get("available_at", [])]
        if isinstance(data.get("evaluations"), dict):  # with include_evaluations
            found += [row["model_name"] for row in data["evaluations"]["results"]]
    elif tool == "get_paper_lineage":
        found += paper_ids(data["paper"])
        for key in ("predecessors", "successors"):
            found += [i for row in data.get(key, []) for i in paper_ids(row)]
    elif tool in ("get_benchmark", "get_paper_evaluations"):
        if tool == "get_benchmark":
            found += record_ids(data["benchmark"])
        for row in scored_rows(structured):
            found += evaluation_ids(row)
            found += [row["dataset_name"]] if tool == "get_paper_evaluations" else []
    elif tool == "get_task":
        found += record_ids(data["task"])
        for key in ("benchmarks", "children", "parents", "common_methods"):
            found += [i for row in data.get(key, []) for i in record_ids(row)]
    elif tool.startswith("get_") and tool != "get_related_papers":  # a record, maybe by kind
        found += record_ids(data.get(tool.removeprefix("get_"), data))
    else:
        for row in rows_of(data):
            nested = row.get("tasks")
            if isinstance(nested, list):  # grouped by area: area -> tasks (-> benchmarks)
                for task in nested:
                    below = task.get("benchmarks")
                    rows = below if isinstance(below, list) else [task]
                    found += [i for r in rows for i in record_ids(r)]
            else:
                found += paper_ids(row) if "title" in row else record_ids(row)
    return [str(i) for i in found]


async def names_every_row(client: Client, tool: str, arguments: dict[str, Any]) -> None:
    structured, text = await call(client, tool, **arguments)
    data = structured["data"]
    if tool == "read_paper":  # the paper's own Markdown, whole, or its headings with their IDs
        if "outline" in data:
            assert all(f"{h['title']} (`{h['id']}`)" in text for h in data["outline"]), text
        else:
            assert text.startswith(data["markdown"]), "the chunk whole, then any continuation note"
        return
    if "citation" in structured:  # what was asked for, ready to paste
        assert structured["citation"]["text"].strip() in text
        return
    wanted = identifiers(tool, structured)
    assert wanted or text.startswith("Found 0 "), "the call returns rows to look for"
    missing = [i for i in wanted if i not in text]
    assert not missing, f"{tool}: the text omits {missing}\n{text}"
    # A few KB, beside the abstract snippets of paper rows (issue #26: each bounded, one a row)
    rows = data if isinstance(data, list) else data.get("results") or []
    cuts = {"  " + r["snippet"] for r in rows if isinstance(r, dict) and "snippet" in r}
    shown = [line for line in text.splitlines() if line in cuts]
    assert len(shown) == len(cuts), "each snippet shown under its row"
    rest = "\n".join(line for line in text.splitlines() if line not in cuts)
    assert len(rest.encode()) < COMPACT


@pytest.mark.parametrize(
    ("tool", "arguments"), CALLS, ids=[f"{t}-{i}" for i, (t, _) in enumerate(CALLS)]
)
async def test_the_text_names_every_returned_row(
    cached_client: Client, tool: str, arguments: dict[str, Any]
) -> None:
    await names_every_row(cached_client, tool, arguments)


async def test_the_text_of_a_call_without_arguments_names_every_returned_row(
    cached_client: Client,
) -> None:
    tools = await cached_client.list_tools()
    bare = [tool.name for tool in tools if not tool.input_schema.get("required")]
    assert "list_tasks" in bare and "list_frameworks" in bare
    for tool in bare:
        await names_every_row(cached_client, tool, {})


async def test_an_empty_list_says_zero(cached_client: Client) -> None:
    structured, text = await call(cached_client, "list_trending_papers", max_age_days=1)
    assert structured["data"] == [] and text.startswith("Found 0 papers")


async def test_a_paper_outside_the_catalog_says_so(cached_client: Client) -> None:
    structured, text = await call(cached_client, "get_paper_info", paper="10.1038/nature16961")
    assert structured["data"]["in_catalog"] is False
    assert "Not in the Papers With Code catalog" in text
    _, inside = await call(cached_client, "get_paper_info", paper="1706.03762")
    assert "Not in the" not in inside


async def test_a_leaderboard_text_follows_the_rows_order(cached_client: Client) -> None:
    structured, text = await call(cached_client, "get_benchmark", benchmark="imagenet")
    models = [row["model_name"] for row in structured["data"]["results"]]
    lines = [line for line in text.splitlines() if line.startswith("- ")]
    assert len(lines) == len(models)
    assert all(line.startswith(f"- {name}:") for line, name in zip(lines, models, strict=True))
