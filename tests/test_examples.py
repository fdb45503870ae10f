"""One table of example arguments (pwc_mcp/site/examples.py) and everything that must agree with it."""

from __future__ import annotations

import pytest
from fastmcp import Client

from pwc_mcp.params import TOOLS
from pwc_mcp.server import build_server
from pwc_mcp.site.examples import PROMPT_EXAMPLES, RESOURCE_EXAMPLES, TOOL_EXAMPLES
from tests.helpers.mcp import make_service
from tests.helpers.ops import load_script


def test_every_tool_has_examples_in_the_tool_tables_order() -> None:
    assert list(TOOL_EXAMPLES) == list(TOOLS)
    assert all(TOOL_EXAMPLES.values())


def test_the_standalone_smoke_script_agrees_with_the_tables() -> None:
    """scripts/smoke.py may run on deployments with only httpx: it keeps its own example and
    takes the tool count from the package when the package is there."""
    smoke = load_script("smoke")
    assert len(TOOLS) == smoke.EXPECTED_TOOLS
    assert {"paper": smoke.DEFAULT_PAPER} in TOOL_EXAMPLES["read_paper"]


@pytest.mark.anyio
async def test_every_template_and_prompt_the_server_lists_has_a_working_example(sample) -> None:
    async with Client(build_server(make_service(sample.url))) as client:
        templates = {t.uri_template for t in await client.list_resource_templates()}
        prompts = {p.name for p in await client.list_prompts()}
        assert templates == set(RESOURCE_EXAMPLES) and prompts == set(PROMPT_EXAMPLES)
        for uri in RESOURCE_EXAMPLES.values():
            contents = await client.read_resource(uri)
            assert contents and getattr(contents[0], "text", ""), uri
        for name, arguments in PROMPT_EXAMPLES.items():
            result = await client.get_prompt(name, arguments)
            assert result.messages, name


@pytest.mark.anyio
async def test_every_tool_without_required_parameters_works_with_none(sample) -> None:
    async with Client(build_server(make_service(sample.url))) as client:
        bare = [t.name for t in await client.list_tools() if not t.input_schema.get("required")]
        assert "list_trending_papers" in bare and "list_tasks" in bare
        for tool in bare:
            result = await client.call_tool_mcp(tool, {})
            assert not result.is_error, (tool, result.content[0].text)
            assert result.structured_content["data"] is not None, tool
