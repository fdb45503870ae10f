"""Every tool, resource template and prompt, in memory, against the sample catalog on loopback."""

from __future__ import annotations

import json

import pytest
from fastmcp import Client, FastMCP
from mcp import MCPError

from pwc_mcp.edge.jsonrpc import INVALID_PARAMS
from pwc_mcp.params import HOSTED_ROW_CAP, TOOLS
from pwc_mcp.sample import RunningCatalog
from pwc_mcp.server import ToolCalls
from pwc_mcp.site.examples import TOOL_EXAMPLES
from pwc_mcp.tools import prompts
from pwc_mcp.tools.prompts import Prompt
from tests.helpers.mcp import (
    call,
    error_of,
    is_json,
    scored_rows,
)

pytestmark = pytest.mark.anyio


async def test_every_tool_is_annotated_read_only(client: Client) -> None:
    tools = await client.list_tools()
    assert sorted(t.name for t in tools) == sorted(TOOLS)
    for tool in tools:
        hints = tool.annotations
        assert (
            hints.read_only_hint,
            hints.destructive_hint,
            hints.idempotent_hint,
            hints.open_world_hint,
        ) == (True, False, True, True), tool.name
        assert tool.description and len(tool.description) > 20
        assert tool.output_schema and "data" in tool.output_schema["properties"]
        assert "schema_version" in tool.output_schema["properties"]


async def test_limits_are_capped_at_25_on_every_list_tool(client: Client) -> None:
    for tool in await client.list_tools():
        limit = tool.input_schema["properties"].get("limit")
        if limit is not None:
            assert limit["maximum"] <= HOSTED_ROW_CAP, tool.name
    text = await error_of(client, "list_papers", limit=26)
    assert text.startswith("invalid_argument: limit: ")


async def test_search_defaults_to_hybrid(client: Client, sample: RunningCatalog) -> None:
    search = {t.name: t for t in await client.list_tools()}["search_papers"]
    assert search.input_schema["properties"]["mode"]["default"] == "hybrid"
    assert search.input_schema["properties"]["mode"]["enum"] == ["hybrid", "keyword", "semantic"]
    structured, text = await call(client, "search_papers", query="transformer")
    assert structured["schema_version"] == "v2" and structured["items"]
    assert structured["data"]["results"], "data carries the CLI payload"
    assert text.startswith("Found ") and not is_json(text)


# Every example of the one table (pwc_mcp/site/examples.py); calls without arguments are in
# tests/test_examples.py.
SMOKE = [(tool, example) for tool, examples in TOOL_EXAMPLES.items() for example in examples]


@pytest.mark.parametrize(("tool", "arguments"), SMOKE, ids=[s[0] for s in SMOKE])
async def test_every_tool_returns_structured_content_with_data(
    client: Client, tool: str, arguments: dict
) -> None:
    structured, text = await call(client, tool, **arguments)
    assert structured["schema_version"] == "v2"
    assert "data" in structured and structured["data"] is not None
    assert text and not is_json(text), "the text fallback is a summary, not the JSON again"
    rows = structured.get("items") or structured.get("evaluations") or []
    assert len(rows) <= HOSTED_ROW_CAP


async def test_paper_info_is_compact_and_official_first(client: Client) -> None:
    compact, text = await call(client, "get_paper_info", paper="1706.03762")
    paper = compact["data"]
    assert paper["title"] == "Attention Is All You Need" and text.startswith("## Attention")
    assert paper["repositories"] and all(r["is_official"] for r in paper["repositories"])
    assert "hf_models" not in paper and "project_pages" not in paper
    full, _ = await call(
        client, "get_paper_info", paper="1706.03762", include_resources=True, repo_limit=2
    )
    repositories = full["data"]["repositories"]
    assert len(repositories) == 2 and repositories[0]["is_official"]
    assert not repositories[1]["is_official"], "the next best: the upstream's order after it"


async def test_a_task_holds_as_many_benchmarks_as_asked(client: Client) -> None:
    """benchmark_limit bounds `data` itself, the one copy a structured-only client reads."""
    whole, _ = await call(client, "get_task", task="image-classification", benchmark_limit=10)
    count = len(whole["data"]["benchmarks"])
    structured, text = await call(
        client, "get_task", task="image-classification", benchmark_limit=1
    )
    data = structured["data"]
    assert count > 1 and [b["slug"] for b in data["benchmarks"]] == ["imagenet"]
    assert (data["truncated"], data["benchmarks_count"]) == (True, count)
    assert "- ImageNet (`imagenet`)" in text and "CIFAR-10" not in text


async def test_leaderboard_with_constraints(client: Client) -> None:
    structured, text = await call(
        client,
        "get_benchmark",
        benchmark="ImageNet",
        max_parameters="100M",
        minimum_metrics={"top1": 70},
        sort_metric="Top 1 Accuracy",
        limit=5,
    )
    rows = scored_rows(structured)
    assert rows and len(rows) <= 5
    assert all(r["num_parameters"] is not None and r["num_parameters"] <= 100_000_000 for r in rows)
    scores = [r["metrics"]["Top 1 Accuracy"] for r in rows]
    assert scores == sorted(scores, reverse=True) and min(scores) >= 70
    assert structured["matched_count"] >= len(rows)
    assert structured["data"]["metric_directions"].get("Top 1 Accuracy") == "higher"
    assert text.startswith("## ImageNet")


async def test_pareto_selection(client: Client) -> None:
    structured, _ = await call(
        client,
        "get_benchmark",
        benchmark="imagenet",
        pareto=["Top 1 Accuracy:higher", "GFLOPs:lower"],
    )
    rows = scored_rows(structured)
    assert rows
    for a in rows:
        for b in rows:
            better = (
                b["metrics"]["Top 1 Accuracy"] >= a["metrics"]["Top 1 Accuracy"]
                and b["metrics"]["GFLOPs"] <= a["metrics"]["GFLOPs"]
            )
            strictly = (
                b["metrics"]["Top 1 Accuracy"] > a["metrics"]["Top 1 Accuracy"]
                or b["metrics"]["GFLOPs"] < a["metrics"]["GFLOPs"]
            )
            assert not (better and strictly), "a frontier row is dominated"


@pytest.mark.parametrize(
    ("tool", "arguments", "prefix"),
    [
        ("get_task", {"task": "no-such-task"}, "not_found: Task not found: no-such-task"),
        (
            "get_paper_info",
            {"paper": "Neural Architecture Search with Reinforcement Learning"},
            'ambiguous: paper "Neural Architecture Search with Reinforcement Learning" matches 2 '
            "catalog papers; retry with paper:",
        ),
        ("get_paper_info", {"paper": "9999.99999"}, "not_found: "),
        (
            "get_benchmark",
            {"benchmark": "imagenet", "max_parameters": "3K"},
            "invalid_argument: max_parameters: expected a positive integer",
        ),
        (
            "get_benchmark",
            {"benchmark": "imagenet", "sort_metric": "latency"},
            'invalid_argument: unknown metric(s): sort_metric "latency"; available metrics: ',
        ),
        (
            "get_paper_info",
            {"paper": "https://example.org/papers/10.1145/3065386"},  # doi.org URLs are DOIs
            "invalid_argument: Paper URL not supported",
        ),
        (
            "search_papers",
            {"query": "x", "published_after": "2021-02-01", "published_before": "2021-01-01"},
            "invalid_argument: published_after must be on or before published_before",
        ),
        (
            "search_papers",
            {"query": "x", "published_after": "2021-13-01"},
            "invalid_argument: published_after: ",
        ),
        ("search_papers", {"query": "x", "bogus": 1}, "invalid_argument: bogus: "),
        ("list_papers", {"authors": [f"a{i}" for i in range(11)]}, "invalid_argument: authors: "),
    ],
)
async def test_errors_are_prefixed_and_readable(client: Client, tool, arguments, prefix) -> None:
    text = await error_of(client, tool, **arguments)
    assert text.startswith(prefix), text
    assert "validation error" not in text and "pydantic" not in text


async def test_upstream_failures_are_generic(client: Client, sample: RunningCatalog) -> None:
    sample.faults.fail(500, times=1, path_prefix="papers/search")
    assert await error_of(client, "search_papers", query="x") == (
        "upstream_error: the Papers With Code catalog request failed"
    )
    sample.faults.invalid_json(times=1, path_prefix="papers/search")
    assert await error_of(client, "search_papers", query="x") == (
        "upstream_error: API returned invalid JSON"
    )
    sample.faults.oversize(times=1, path_prefix="papers/recent")
    assert await error_of(client, "list_recent_papers") == (
        "upstream_error: API response exceeded the client byte limit"
    )


async def test_resource_templates(client: Client) -> None:
    templates = await client.list_resource_templates()
    assert sorted(t.uri_template for t in templates) == sorted(
        [
            "pwc://papers/{paper}",
            "pwc://papers/{paper}/markdown",
            "pwc://tasks/{task}",
            "pwc://benchmarks/{benchmark}",
        ]
    )
    assert all(t.title and t.description for t in templates)
    paper = json.loads((await client.read_resource("pwc://papers/1706.03762"))[0].text)
    assert paper["data"]["title"] == "Attention Is All You Need"
    task = json.loads((await client.read_resource("pwc://tasks/image-classification"))[0].text)
    assert task["data"]["task"]["slug"] == "image-classification"
    bench = json.loads((await client.read_resource("pwc://benchmarks/imagenet"))[0].text)
    assert bench["data"]["benchmark"]["slug"] == "imagenet" and bench["evaluations"]
    markdown = (await client.read_resource("pwc://papers/904512/markdown"))[0].text
    assert markdown.startswith("#")


@pytest.mark.parametrize("paper", ["1706.03762", "1706.03762v7", "48213"])
async def test_long_markdown_resource_points_to_read_paper(client: Client, paper: str) -> None:
    with pytest.raises(MCPError, match="read_paper"):
        await client.read_resource(f"pwc://papers/{paper}/markdown")


@pytest.mark.parametrize("paper", ["1810.04805", "1512.03385", "2010.11929"])
async def test_short_markdown_resource_is_read_whole(client: Client, paper: str) -> None:
    markdown = (await client.read_resource(f"pwc://papers/{paper}/markdown"))[0].text
    assert markdown.startswith("#") and "read_paper" not in markdown


async def test_prompts(client: Client) -> None:
    prompts = {p.name: p for p in await client.list_prompts()}
    assert set(prompts) == {"find_papers", "compare_leaderboard", "survey_task"}
    assert all(p.title and p.description for p in prompts.values())
    for name, argument in (
        ("find_papers", "topic"),
        ("compare_leaderboard", "benchmark"),
        ("survey_task", "task"),
    ):
        result = await client.get_prompt(name, {argument: "vision transformers"})
        assert "'vision transformers'" in result.messages[0].content.text


async def test_a_prompt_is_one_row_of_the_table() -> None:
    """A new row is all a prompt takes: listed with its one required argument, rendered from its
    template with the stripped argument, and a blank argument is -32602 naming it (the
    server's ToolCalls layer says a prompt's failure by its kind)."""
    row = Prompt("survey_area", "Survey an area", "Survey one area.", "area", "Survey {area!r}.")
    server = FastMCP("test", providers=[prompts.build((row,))], middleware=[ToolCalls()])
    async with Client(server) as client:
        (listed,) = await client.list_prompts()
        assert (listed.name, listed.title, listed.description) == row[:3]
        assert [(a.name, a.required) for a in listed.arguments or []] == [("area", True)]
        result = await client.get_prompt("survey_area", {"area": "  Vision "})
        assert result.messages[0].content.text == "Survey 'Vision'."
        with pytest.raises(MCPError, match="area must be 1 to 500 characters") as refused:
            await client.get_prompt("survey_area", {"area": " "})
        assert refused.value.error.code == INVALID_PARAMS


def _type_arrays(node: object, path: str = "") -> list[str]:
    if isinstance(node, dict):
        found = [path] if isinstance(node.get("type"), list) else []
        for key, value in node.items():
            found += _type_arrays(value, f"{path}.{key}")
        return found
    if isinstance(node, list):
        return [p for i, item in enumerate(node) for p in _type_arrays(item, f"{path}[{i}]")]
    return []


async def test_schemas_are_portable_to_single_type_dialects(client: Client) -> None:
    """Every property has one `type` (Gemini-style dialects reject type arrays), and `data`
    is typed rather than unconstrained."""
    for tool in await client.list_tools():
        assert _type_arrays(tool.input_schema) == [], tool.name
        assert _type_arrays(tool.output_schema) == [], tool.name
        data = tool.output_schema["properties"]["data"]
        assert "type" in data or "anyOf" in data, tool.name
