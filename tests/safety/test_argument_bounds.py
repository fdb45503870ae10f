"""Bounded arguments: every tool argument is bounded in the advertised inputSchema, and a value
one step over any bound is refused as `invalid_argument:` before the handler runs (the sample
catalog sees no request). The CLI refuses the same values with exit 2."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Iterator
from typing import Any

import httpx
import pytest
from fastmcp import Client

from pwc_core.values import MetricSort
from pwc_mcp.app import create_app
from pwc_mcp.config import Settings
from pwc_mcp.params import TOOLS
from pwc_mcp.sample import RunningCatalog
from pwc_mcp.server import build_server
from pwc_mcp.serving.localserver import Running, serve_in_thread
from tests.helpers.cli import run_cli
from tests.helpers.mcp import make_service

pytestmark = pytest.mark.anyio
LEGAL_TIME = "2024-01-01T00:00:00"  # a date pydantic would accept, but longer than YYYY-MM-DD


@pytest.fixture
async def client(sample: RunningCatalog) -> AsyncIterator[Client]:
    async with Client(build_server(make_service(sample.url, cached=False))) as connected:
        yield connected


@pytest.fixture
async def schemas(client: Client) -> dict[str, dict[str, Any]]:
    return {tool.name: tool.input_schema for tool in await client.list_tools()}


def unbounded(node: dict[str, Any], where: str) -> list[str]:
    """Paths of every string without maxLength, array without maxItems, object without
    maxProperties or with unbounded property names (an enum or const is bounded)."""
    found: list[str] = []
    kind = node.get("type")
    if "enum" in node or "const" in node:
        return found
    if kind == "string" and "maxLength" not in node:
        found.append(where)
    if kind == "array":
        if "maxItems" not in node:
            found.append(where)
        found += unbounded(node.get("items", {}), where + "[]")
    names = node.get("propertyNames", {})
    # (the arguments object itself is bounded by its declared properties)
    if kind == "object" and where and ("maxProperties" not in node or "maxLength" not in names):
        found.append(where)
    for name, child in (node.get("properties") or {}).items():
        found += unbounded(child, f"{where}.{name}" if where else name)
    for option in node.get("anyOf", []):
        found += unbounded(option, where)
    return found


async def test_every_argument_is_bounded_in_the_advertised_schema(
    schemas: dict[str, dict[str, Any]],
) -> None:
    assert set(schemas) == set(TOOLS)
    problems = {tool: unbounded(schema, "") for tool, schema in schemas.items()}
    assert not {tool: paths for tool, paths in problems.items() if paths}


def over_bound(prop: dict[str, Any]) -> list[tuple[str, Any]]:
    """(what, value) pairs, each exceeding exactly one bound of the property by one step."""
    kind = prop.get("type")
    if kind == "string" and "maxLength" in prop and "enum" not in prop:
        if prop.get("format") == "date":
            return [("maxLength", LEGAL_TIME)]
        return [("maxLength", "x" * (prop["maxLength"] + 1))]
    if kind == "array":
        count = prop["maxItems"] + 1
        cases: list[tuple[str, Any]] = [("maxItems", [f"m{i}:higher" for i in range(count)])]
        item_limit = prop.get("items", {}).get("maxLength")
        if item_limit:
            least = max(prop.get("minItems", 1), 1)
            long_item = "x" * (item_limit + 1)
            cases.append(("items.maxLength", [long_item] + ["m:higher"] * (least - 1)))
        return cases
    if kind == "object":
        count = prop["maxProperties"] + 1
        key_limit = prop["propertyNames"]["maxLength"]
        return [
            ("maxProperties", {f"m{i}": 1.0 for i in range(count)}),
            ("propertyNames.maxLength", {"x" * (key_limit + 1): 1.0}),
        ]
    return []


def attacks(schemas: dict[str, dict[str, Any]]) -> Iterator[tuple[str, str, str, dict[str, Any]]]:
    for tool, schema in sorted(schemas.items()):
        required = {name: "x" for name in schema.get("required", [])}
        for name, prop in schema["properties"].items():
            for what, value in over_bound(prop):
                yield tool, name, what, {**required, name: value}


async def test_one_step_over_any_bound_is_refused_before_the_handler(
    client: Client, schemas: dict[str, dict[str, Any]], sample: RunningCatalog
) -> None:
    tried = 0
    for tool, name, what, arguments in attacks(schemas):
        before = sample.stats.total()
        result = await client.call_tool_mcp(tool, arguments)
        text = result.content[0].text
        assert result.is_error, (tool, name, what)
        assert text.startswith("invalid_argument: ") and name in text, (tool, name, what, text)
        assert sample.stats.total() == before, f"{tool}.{name} ({what}) reached the catalog"
        tried += 1
    assert tried >= 40  # every string, list and object of every tool, not a lucky few


async def test_the_bounds_allow_real_use(client: Client, sample: RunningCatalog) -> None:
    """At the bound, a call runs: eight required metrics, long names (eight objectives must be
    eight metrics: tests/cli/test_strict_values.py)."""
    name = "Top 1 Accuracy".rjust(100)  # names are stripped: the longest spelling still matches
    result = await client.call_tool_mcp(
        "get_benchmark",
        {
            "benchmark": "ImageNet",
            "pareto": [f"{name}:higher", f"{'GFLOPs'.rjust(100)}:lower"],
            "require_metrics": [name] * 8,
            "minimum_metrics": {name: 80.0},
            "sort_metric": f"{name}:desc",
        },
    )
    assert not result.is_error, result.content[0].text
    assert result.structured_content["matched_count"] >= 1


@pytest.fixture
def served(sample: RunningCatalog) -> Iterator[Running]:
    settings = Settings(api_url=sample.url, request_limit=10_000, concurrency_limit=64)
    with serve_in_thread(create_app(settings), name="pwc-mcp-bounds") as running:
        yield running


def test_the_megabyte_pareto_attack_is_refused_over_http(
    served: Running, sample: RunningCatalog
) -> None:
    """The reported attack: a 1.25 MB `pareto` list (inside the 2 MiB body limit)."""
    objectives = ["Top 1 Accuracy:higher", "GFLOPs:lower"] * 31_000
    arguments = {"benchmark": "ImageNet", "pareto": objectives}
    body = json.dumps(
        {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "tools/call",
            "params": {"name": "get_benchmark", "arguments": arguments},
        }
    ).encode()
    assert 1_250_000 <= len(body) < 2 * 1024 * 1024
    before = sample.stats.total()
    answer = httpx.post(
        served.origin + "/mcp",
        content=body,
        headers={
            "Accept": "application/json, text/event-stream",
            "Content-Type": "application/json",
            "MCP-Protocol-Version": "2025-11-25",
        },
        timeout=30,
    )
    result = answer.json()["result"]
    assert result["isError"] is True
    text = result["content"][0]["text"]
    assert text.startswith("invalid_argument: pareto: ") and "at most 8" in text
    assert len(text) < 200  # the list is not echoed back
    assert sample.stats.total() == before


def pwc(sample: RunningCatalog, capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    """Exit code and stderr: the CLI's own, then argparse's (written to the real sys.stderr)."""
    result = run_cli(sample.url, argv)
    return result.code, result.err + capsys.readouterr().err


METRIC = "Top 1 Accuracy"
SORT_BOUND = MetricSort().max_length  # a metric name and `:higher`
CLI_OVER = [
    ("--pareto", ",".join([f"{METRIC}:higher"] * 9), "at most 8 Pareto objectives"),
    ("--require-metrics", ",".join([METRIC] * 9), "at most 8 metrics"),
    ("--require-metrics", "x" * 101, "at most 100 characters"),
    ("--sort", "x" * (SORT_BOUND + 1), f"at most {SORT_BOUND} characters"),
    ("--min", "x" * 101 + "=1", "at most 100 characters"),
    ("--max-parameters", "1" * 33, "at most 32 characters"),
    ("--name", "x" * 501, "at most 500 characters"),
]


@pytest.mark.parametrize(("flag", "value", "message"), CLI_OVER)
def test_cli_refuses_the_same_values_with_exit_2(
    sample: RunningCatalog, capsys: pytest.CaptureFixture[str], flag: str, value: str, message: str
) -> None:
    before = sample.stats.total()
    argv = ["benchmark", "--name", "ImageNet", flag, value, "--json"]
    code, err = pwc(sample, capsys, *argv)
    assert code == 2 and message in err, err
    assert sample.stats.total() == before


def test_cli_counts_repeated_thresholds(
    sample: RunningCatalog, capsys: pytest.CaptureFixture[str]
) -> None:
    eight = [arg for _ in range(8) for arg in ("--min", f"{METRIC}=1")]
    code, err = pwc(sample, capsys, "benchmark", "--name", "ImageNet", *eight, "--json")
    assert code == 0, err
    before = sample.stats.total()
    code, err = pwc(sample, capsys, "benchmark", "--name", "ImageNet", *eight, "--min", "a=1")
    assert code == 2 and "argument --min: may be given at most 8 times" in err
    assert sample.stats.total() == before


@pytest.mark.parametrize(
    "argv",
    [
        ["search", "x" * 501],
        ["paper", "list", "--search", "x" * 501],
        ["paper", "list", "--start-date", LEGAL_TIME],
        ["paper", "list", "--author", "x" * 501],
        ["task", "list", "--area", "x" * 501],
    ],
)
def test_cli_bounds_every_text_flag(
    sample: RunningCatalog, capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    before = sample.stats.total()
    code, err = pwc(sample, capsys, *argv)
    assert code == 2 and ("characters" in err or "YYYY-MM-DD" in err), err
    assert sample.stats.total() == before
