"""Errors in the tool's own words (issue #16): through a real MCP client against the sample
catalog, every refused value is named as the tool's parameter, never as a CLI flag or the
catalog's own parameter name; blank required text is refused before any request; a listing's
unknown filter says which value was not found. Forgiving where safe: a size may be a number."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest
from fastmcp import Client

from pwc_mcp.sample import RunningCatalog
from pwc_mcp.server import build_server
from tests.helpers.mcp import make_service

pytestmark = pytest.mark.anyio
IMAGENET = {"benchmark": "ImageNet"}


@pytest.fixture
async def client(sample: RunningCatalog) -> AsyncIterator[Client]:
    async with Client(build_server(make_service(sample.url, cached=False))) as connected:
        yield connected


async def refusal(client: Client, tool: str, arguments: dict[str, Any]) -> str:
    result = await client.call_tool_mcp(tool, arguments)
    assert result.is_error, result.structured_content
    text = result.content[0].text
    assert "argument " not in text and " --" not in text, text  # no CLI flag wording
    return text


REFUSED = [
    # (tool, arguments, the whole message or its start)
    (
        "get_benchmark",
        {**IMAGENET, "max_parameters": "-5M"},
        "invalid_argument: max_parameters: expected a positive integer or decimal size",
    ),
    (
        "get_benchmark",
        {**IMAGENET, "max_parameters": -5},
        "invalid_argument: max_parameters: expected a positive integer or decimal size",
    ),
    (
        "get_benchmark",
        {**IMAGENET, "max_parameters": 1.5},
        "invalid_argument: max_parameters: expected a positive integer or decimal size",
    ),
    (
        "get_benchmark",
        {**IMAGENET, "minimum_metrics": {"": 80}},
        "invalid_argument: minimum_metrics: a metric name must not be blank",
    ),
    (
        "get_benchmark",
        {**IMAGENET, "maximum_metrics": {"  ": 80}},
        "invalid_argument: maximum_metrics: a metric name must not be blank",
    ),
    (
        "get_benchmark",
        {**IMAGENET, "sort_metric": "  "},
        "invalid_argument: sort_metric: expected METRIC[:asc|desc|higher|lower]",
    ),
    (
        "list_benchmarks",
        {"order_by": "trending"},
        'invalid_argument: order_by: "trending" requires task',
    ),
]


@pytest.mark.parametrize(("tool", "arguments", "message"), REFUSED)
async def test_a_refused_value_is_named_as_the_tool_names_it(
    client: Client, tool: str, arguments: dict[str, Any], message: str
) -> None:
    assert (await refusal(client, tool, arguments)).startswith(message)


# JSON has no NaN or Infinity literal: a client sends them as strings, which a number field
# accepts in lax mode.
NON_FINITE = ["NaN", "nan", "inf", "Infinity", "-inf", "-Infinity"]


@pytest.mark.parametrize("value", NON_FINITE, ids=repr)
@pytest.mark.parametrize("parameter", ["minimum_metrics", "maximum_metrics"])
async def test_non_finite_thresholds_are_refused(
    client: Client, parameter: str, value: Any
) -> None:
    # NaN passes no comparison and inf no row: both filters would silently lie.
    text = await refusal(
        client, "get_benchmark", {**IMAGENET, parameter: {"Top 1 Accuracy": value}}
    )
    assert text.startswith(f"invalid_argument: {parameter}: metric threshold must be a finite")


async def test_a_non_finite_velocity_is_refused(client: Client) -> None:
    text = await refusal(client, "list_trending_papers", {"min_velocity": "nan"})
    assert text == "invalid_argument: min_velocity: expected a finite number, got 'nan'"


@pytest.mark.parametrize(
    "objectives",
    [
        ["Top 1 Accuracy:higher", "Top 1 Accuracy:lower"],
        ["Top 1 Accuracy:higher", "top 1 accuracy:higher", "GFLOPs:lower"],
        ["Top-1:higher", "Top 1 Accuracy:lower"],  # one metric under two of its names
    ],
)
async def test_contradictory_pareto_objectives_are_refused(
    client: Client, objectives: list[str]
) -> None:
    text = await refusal(client, "get_benchmark", {**IMAGENET, "pareto": objectives})
    assert text.startswith("invalid_argument: pareto: each Pareto objective must be a different")


@pytest.mark.parametrize(
    ("tool", "arguments", "name"),
    [
        ("search_papers", {"query": "   "}, "query"),
        ("get_paper_info", {"paper": " \t"}, "paper"),
        ("read_paper", {"paper": "  "}, "paper"),
        ("get_benchmark", {"benchmark": "  "}, "benchmark"),
        ("get_task", {"task": "\n"}, "task"),
    ],
)
async def test_blank_required_text_is_refused_before_any_request(
    client: Client, sample: RunningCatalog, tool: str, arguments: dict[str, Any], name: str
) -> None:
    sample.stats.reset()
    assert await refusal(client, tool, arguments) == f"invalid_argument: {name} must not be blank"
    assert sample.stats.total() == 0  # the catalog would have said it as `q is required`


@pytest.mark.parametrize(
    ("tool", "arguments", "message"),
    [
        ("list_papers", {"task": "no-such-task"}, "task 'no-such-task' is not in the catalog"),
        (
            "list_papers",  # the catalog's answer says which of two filters it could not find
            {"task": "no-such-task", "organization": "Google"},
            "task 'no-such-task' is not in the catalog",
        ),
    ],
)
async def test_a_missing_filter_value_is_said(
    client: Client, tool: str, arguments: dict[str, Any], message: str
) -> None:
    assert (await refusal(client, tool, arguments)).startswith(f"not_found: {message}")


@pytest.mark.parametrize("size", [100_000_000, 1.5e9, 3_000_000_000])
async def test_a_size_may_be_a_json_number(client: Client, size: float) -> None:
    result = await client.call_tool_mcp("get_benchmark", {**IMAGENET, "max_parameters": size})
    assert not result.is_error, result.content[0].text
    rows = result.structured_content["data"]["results"]
    assert rows and all(row["num_parameters"] <= size for row in rows)


async def test_the_size_stays_advertised_as_one_type(client: Client) -> None:
    tools = {tool.name: tool for tool in await client.list_tools()}
    prop = tools["get_benchmark"].input_schema["properties"]["max_parameters"]
    types = {prop.get("type")} | {option.get("type") for option in prop.get("anyOf", [])}
    assert types - {None, "null"} == {"string"}
    assert "number" in prop["description"]
