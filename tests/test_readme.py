"""The README is the manual: every `pwc` example and every tool example in it runs against the
sample catalog."""

from __future__ import annotations

import json
import re
import shlex

import pytest
from fastmcp import Client

from pwc_mcp.examples import PROMPT_EXAMPLES, RESOURCE_EXAMPLES, TOOL_EXAMPLES
from pwc_mcp.params import TOOLS
from pwc_mcp.server import build_server
from tests.helpers import ROOT
from tests.helpers.cli import run_cli
from tests.helpers.mcp import make_service

README = (ROOT / "README.md").read_text()
CLI_LINES = [
    re.sub(r"\s+#.*$", "", line).split(" > ")[0]
    for line in README.splitlines()
    if line.startswith("pwc ")
]
TOOL_ROWS = [
    (re.match(r"\| `(\w+)`", row).group(1), example)
    for row in README.splitlines()
    if row.startswith("| `") and "`{" in row
    for example in re.findall(r"`(\{.*?\})`", row)
    if "<next_cursor>" not in example
]


def test_the_readme_has_examples() -> None:
    assert len(CLI_LINES) >= 15 and len({tool for tool, _ in TOOL_ROWS}) == len(TOOLS)


def test_the_tool_table_shows_the_example_table() -> None:
    """pwc_mcp/examples.py is the one table; the README shows it, row by row, in order."""
    shown: dict[str, list[dict]] = {}
    for tool, example in TOOL_ROWS:
        shown.setdefault(tool, []).append(json.loads(example))
    assert shown == {tool: list(examples) for tool, examples in TOOL_EXAMPLES.items()}
    assert list(shown) == list(TOOLS)
    commands = dict(re.findall(r"^\| `(\w+)` \| `pwc ([a-z ]+?)(?: --name)?` \|", README, re.M))
    assert commands == TOOLS


def test_the_counts_and_the_resource_and_prompt_examples_are_the_tables() -> None:
    counts = re.search(r"(\d+) tools, (\d+) resource templates,\s+(\d+) prompts", README)
    assert counts and tuple(map(int, counts.groups())) == (
        len(TOOLS),
        len(RESOURCE_EXAMPLES),
        len(PROMPT_EXAMPLES),
    )
    uris = re.findall(r"^\| `pwc://.*e\.g\. `(pwc://[^`]+)`", README, re.M)
    assert uris and set(uris) <= set(RESOURCE_EXAMPLES.values())
    prompts = re.findall(r"`(\w+)` with `(\{.*?\})`\.", README)
    assert prompts and all(PROMPT_EXAMPLES[name] == json.loads(a) for name, a in prompts)


@pytest.mark.parametrize("line", CLI_LINES)
def test_cli_example_runs(line: str, sample) -> None:
    result = run_cli(sample.url, shlex.split(line)[1:])
    assert result.code == 0, result.err
    assert result.out
    assert "# no results" not in result.err  # an example shows something


@pytest.mark.anyio
@pytest.mark.parametrize(("tool", "example"), TOOL_ROWS)
async def test_tool_example_runs(tool: str, example: str, sample) -> None:
    async with Client(build_server(make_service(sample.url))) as client:
        result = await client.call_tool_mcp(tool, json.loads(example))
    assert not result.is_error, result.content[0].text


TEXT_EXAMPLES = re.findall(
    r"^\w+: `(\w+)` with `(\{.*?\})`\n\n```text\n(.*?)\n```", README, flags=re.M | re.S
)


def test_the_readme_shows_a_text_per_tool_family() -> None:
    assert {tool for tool, _, _ in TEXT_EXAMPLES} >= {"get_paper_lineage", "get_benchmark"}
    assert all(json.loads(example) in TOOL_EXAMPLES[tool] for tool, example, _ in TEXT_EXAMPLES)


@pytest.mark.anyio
@pytest.mark.parametrize(("tool", "example", "text"), TEXT_EXAMPLES)
async def test_text_example_is_what_the_tool_returns(
    tool: str, example: str, text: str, sample
) -> None:
    async with Client(build_server(make_service(sample.url))) as client:
        result = await client.call_tool_mcp(tool, json.loads(example))
    assert result.content[0].text == text


def test_the_sample_catalog_sizes_are_the_data() -> None:
    catalog = json.loads((ROOT / "pwc_mcp/sample/data/catalog.json").read_text())
    papers, tasks, benchmarks = (len(catalog[k]) for k in ("papers", "tasks", "datasets"))
    said = f"({papers} papers, {tasks} tasks, {benchmarks} benchmarks,"
    assert said in " ".join(README.split())
