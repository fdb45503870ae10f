"""Descriptions that route (issue #26): every tool a description, parameter, resource template or
prompt names exists, and each tool says where to go next or instead, read from tools/list as a
client lists it."""

from __future__ import annotations

import asyncio
import re
from typing import Any

import pytest
from fastmcp import Client

from pwc_mcp.server import build_server
from pwc_mcp.tools.prompts import PROMPTS
from tests.helpers.mcp import make_service

TOOL_NAME = re.compile(r"\b(?:get|list|search|read)_[a-z_]*[a-z]")
# Rows that are papers are opened with get_paper_info; an entity list's rows with its get_ tool.
PAPER_LISTS = (
    "search_papers",
    "list_papers",
    "list_recent_papers",
    "list_trending_papers",
    "get_related_papers",
)
# Tools an agent confuses: each says when to use the other instead.
ALTERNATIVES = (("search_papers", "list_papers"), ("get_related_papers", "get_paper_lineage"))


@pytest.fixture(scope="module")
def listed() -> dict[str, Any]:
    """tools/list and resources/templates/list of the real server (no catalog request)."""
    catalog = make_service("http://127.0.0.1:9/api/v1", cached=False)

    async def read() -> dict[str, Any]:
        async with Client(build_server(catalog)) as client:
            return {
                "tools": {t.name: t for t in await client.list_tools()},
                "templates": await client.list_resource_templates(),
            }

    return asyncio.run(read())


def named(text: str | None) -> set[str]:
    return set(TOOL_NAME.findall(text or ""))


def texts_naming_tools(listed: dict[str, Any]) -> dict[str, str]:
    """Every text a client shows that may name a tool, by where it is."""
    found: dict[str, str] = {}
    for name, tool in listed["tools"].items():
        found[name] = tool.description or ""
        for parameter, schema in tool.input_schema.get("properties", {}).items():
            found[f"{name}.{parameter}"] = schema.get("description", "")
    for template in listed["templates"]:
        found[template.uri_template] = template.description or ""
    for prompt in PROMPTS:
        found[f"prompt {prompt.name}"] = f"{prompt.description} {prompt.template}"
    return found


def unknown(texts: dict[str, str], tools: set[str]) -> dict[str, set[str]]:
    return {where: missing for where, text in texts.items() if (missing := named(text) - tools)}


def test_every_tool_named_anywhere_exists(listed: dict[str, Any]) -> None:
    tools = set(listed["tools"])
    texts = texts_naming_tools(listed)
    assert unknown(texts, tools) == {}
    assert len(set().union(*map(named, texts.values()))) >= 15, "the check reads the texts"
    # The check itself catches a misspelt or renamed tool.
    assert unknown({"x": "Next: get_papers_info."}, tools) == {"x": {"get_papers_info"}}


def test_every_description_names_another_tool(listed: dict[str, Any]) -> None:
    lonely = [n for n, tool in listed["tools"].items() if not named(tool.description) - {n}]
    assert lonely == []


def test_list_rows_name_the_tool_that_opens_them(listed: dict[str, Any]) -> None:
    tools = listed["tools"]
    for name in PAPER_LISTS:
        assert "get_paper_info" in named(tools[name].description), name
    pairs = [
        (name, "get_" + name.removeprefix("list_").removesuffix("s"))
        for name in tools
        if name.startswith("list_") and "get_" + name[5:-1] in tools
    ]
    assert len(pairs) == 6  # tasks, methods, conferences, organizations, frameworks, benchmarks
    for listing, getter in pairs:
        assert getter in named(tools[listing].description), listing
        # a get_ tool takes an exact name, and says which list finds it
        assert listing in named(tools[getter].description), getter
        entity = tools[getter].input_schema["properties"][getter.removeprefix("get_")]
        assert "exact" in f"{tools[getter].description} {entity.get('description')}", getter


def test_tools_an_agent_confuses_name_each_other(listed: dict[str, Any]) -> None:
    tools = listed["tools"]
    for one, other in ALTERNATIVES:
        assert other in named(tools[one].description), one
        assert one in named(tools[other].description), other


def test_a_benchmark_is_what_papers_with_code_calls_a_dataset(listed: dict[str, Any]) -> None:
    for name in ("get_benchmark", "list_benchmarks"):
        assert "dataset" in listed["tools"][name].description, name
    assert "list_benchmarks(search=)" in listed["tools"]["get_benchmark"].description
