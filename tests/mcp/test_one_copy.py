"""What a structured-only client pays (issue #26): every example of the one table
(pwc_mcp/site/examples.py) through a real MCP client against the sample catalog. Beside `data`, the
CLI's payload, a result carries only what `data` lacks: at most 0.3x its bytes more, no value
of it twice, no null or empty field; and tools/list stays within its budget (tests/helpers/mcp.py) with plain schemas.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest
from fastmcp import Client

from pwc_mcp.sample import RunningCatalog
from pwc_mcp.server import build_server
from pwc_mcp.site.examples import TOOL_EXAMPLES
from tests.helpers.boards import Scope, rows_of, serve
from tests.helpers.mcp import TOOLS_LIST_BUDGET, Answers, make_service

pytestmark = pytest.mark.anyio

EXAMPLES = [(tool, i) for tool, examples in TOOL_EXAMPLES.items() for i in range(len(examples))]
IDS = [f"{tool}-{i}" for tool, i in EXAMPLES]
RATIO = 1.3  # structuredContent bytes per byte of its `data`
REPEAT = 64  # bytes of compact JSON from which a sub-object may appear only once


def compact(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


@pytest.fixture(scope="module")
async def results(cached_client: Client) -> dict[tuple[str, int], dict[str, Any]]:
    """Each example's structuredContent, called once for the tests of this module."""
    answers = {}
    for tool, index in EXAMPLES:
        result = await cached_client.call_tool_mcp(tool, TOOL_EXAMPLES[tool][index])
        assert not result.is_error, (tool, index, result.content)
        answers[tool, index] = result.structured_content
    return answers


@pytest.mark.parametrize(("tool", "index"), EXAMPLES, ids=IDS)
async def test_the_structured_content_is_at_most_1_3_times_its_data(
    results: dict[tuple[str, int], dict[str, Any]], tool: str, index: int
) -> None:
    structured = results[tool, index]
    whole, data = len(compact(structured)), len(compact(structured["data"]))
    assert whole <= RATIO * data, f"{whole} bytes for {data} of data: {whole / data:.2f}x"


def nodes(value: Any) -> Iterator[str]:
    """Every object and array below `value`, as compact JSON."""
    for child in value.values() if isinstance(value, dict) else value:
        if isinstance(child, dict | list):
            yield compact(child)
            yield from nodes(child)


@pytest.mark.parametrize(("tool", "index"), EXAMPLES, ids=IDS)
async def test_nothing_beside_data_repeats_a_sub_object(
    results: dict[tuple[str, int], dict[str, Any]], tool: str, index: int
) -> None:
    """A sub-object (or array) of more than 64 bytes beside `data` appears once, there or in
    `data`. Repeats inside `data` are the CLI's payload, sent exactly as the CLI prints it."""
    structured = results[tool, index]
    beside = [text for text in nodes(projection(structured)) if len(text) > REPEAT]
    inside = set(nodes([structured["data"]]))
    repeated = [text[:120] for text, n in Counter(beside).items() if n > 1 or text in inside]
    assert not repeated, repeated


def projection(structured: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in structured.items() if key != "data"}


def empties(value: Any, path: str = "$") -> Iterator[str]:
    for key, child in value.items() if isinstance(value, dict) else enumerate(value):
        where = f"{path}.{key}"
        if child is None or child == [] or child == {}:
            yield where
        elif isinstance(child, dict | list):
            yield from empties(child, where)


@pytest.mark.parametrize(("tool", "index"), EXAMPLES, ids=IDS)
async def test_no_field_beside_data_is_null_or_empty(
    results: dict[tuple[str, int], dict[str, Any]], tool: str, index: int
) -> None:
    found = list(empties(projection(results[tool, index])))
    assert not found, found


async def listing(sample: RunningCatalog) -> list[dict[str, Any]]:
    """tools/list from a server of its own, each tool as JSON as the golden file holds it."""
    async with Client(build_server(make_service(sample.url))) as client:
        tools = (await client.list_tools_mcp()).tools
    return [t.model_dump(mode="json", by_alias=True, exclude_none=True) for t in tools]


def refs(schema: Any) -> Iterator[str]:
    if isinstance(schema, dict):
        yield from (key for key in schema if key in ("$ref", "$defs", "definitions"))
        for child in schema.values():
            yield from refs(child)
    elif isinstance(schema, list):
        for child in schema:
            yield from refs(child)


async def test_tools_list_is_within_its_budget_and_listed_in_one_order(
    sample: RunningCatalog,
) -> None:
    first, second = await listing(sample), await listing(sample)
    assert compact(first) == compact(second), "the same listing, in the same order"
    size = len(compact(first))
    assert size <= TOOLS_LIST_BUDGET, size


async def test_every_tool_has_plain_input_and_output_schemas(sample: RunningCatalog) -> None:
    """Both client eras read them: an object at the root, no `$ref` or definitions."""
    for tool in await listing(sample):
        for kind in ("inputSchema", "outputSchema"):
            assert tool.get(kind, {}).get("type") == "object", (tool["name"], kind)
            assert not list(refs(tool[kind])), (tool["name"], kind)


async def test_no_tool_is_listed_with_an_empty_meta(sample: RunningCatalog) -> None:
    """FastMCP's `{"fastmcp": {"tags": []}}` tells a client nothing; the app binding stays."""
    metas = {tool["name"]: tool.get("_meta") for tool in await listing(sample)}
    assert metas.pop("get_benchmark") == {"ui": {"resourceUri": "ui://pwc/leaderboard.html"}}
    assert set(metas.values()) == {None}, metas


async def test_a_long_timeline_is_sent_once(hostile: tuple[Client, Answers]) -> None:
    """SOTA over time on a board where every row set a record (issue #36: 1.40x on a catalog
    with a long timeline, when the chart repeated each record): within the bound, and the
    chart draws the payload's records by position."""
    client, answers = hostile
    rows = rows_of([Scope("1", "Accuracy", False, [40.0 + k / 2 for k in range(80)])])
    for row in rows:  # the better, the later: each row beats every earlier one
        year, day = divmod(int(row["metrics"]["Accuracy"] * 2) - 80, 12)
        row["paper_published_date"] = f"{1990 + year}-{day + 1:02d}-15"
    serve(answers.by_path, rows)
    result = await client.call_tool_mcp(
        "get_benchmark", {"benchmark": "Bench", "timeline": True, "limit": 3}
    )
    structured = result.structured_content
    records = structured["data"]["timeline"]["records"]
    assert len(records) == len(rows), "every row is a record"
    whole, data = len(compact(structured)), len(compact(structured["data"]))
    assert whole <= RATIO * data, f"{whole} bytes for {data} of data: {whole / data:.2f}x"
    assert structured["chart"]["timeline"]["rows"] == list(range(len(records)))
