"""Parity: every research flag of every read-only `pwc` command is a tool parameter, and every
tool parameter is either a CLI flag or declared MCP-only in one table (pwc_mcp.params)."""

from __future__ import annotations

import argparse
import asyncio
from typing import Any

import pytest
from fastmcp import Client

from pwc_cli.parser import PRESENTATION_FLAGS, RESEARCH_COMMANDS, research_actions
from pwc_core.values import MetricThreshold
from pwc_mcp.params import MCP_ONLY, RENAMES, TOOLS
from pwc_mcp.server import build_server
from tests.helpers.mcp import make_service

ENTITY = {"task", "method", "conference", "organization", "framework", "benchmark"}


def expected_name(command: str, dest: str) -> str:
    if dest == "name":
        return command
    if dest == "page_size":
        return "limit"
    return RENAMES.get(dest, dest)


@pytest.fixture(scope="module")
def schemas() -> dict[str, dict[str, Any]]:
    """Each listed tool's parameter schemas (`tools/list` once for the module)."""
    catalog = make_service("http://127.0.0.1:9/api/v1", cached=False)

    async def listed() -> dict[str, dict[str, Any]]:
        async with Client(build_server(catalog)) as client:
            return {t.name: t.input_schema["properties"] for t in await client.list_tools()}

    return asyncio.run(listed())


@pytest.fixture(scope="module")
def advertised(schemas: dict[str, dict[str, Any]]) -> dict[str, set[str]]:
    return {tool: set(properties) for tool, properties in schemas.items()}


def test_exactly_one_tool_per_research_command(advertised: dict[str, set[str]]) -> None:
    assert set(advertised) == set(TOOLS)
    assert sorted(TOOLS.values()) == sorted(RESEARCH_COMMANDS)


@pytest.mark.parametrize("tool", sorted(TOOLS))
def test_flags_and_parameters_match(tool: str, advertised: dict[str, set[str]]) -> None:
    command = TOOLS[tool]
    flags = {expected_name(command, a.dest) for a in research_actions(command)}
    params = advertised[tool]
    missing = flags - params
    assert not missing, f"{tool}: CLI research flags without a parameter: {missing}"
    extra = params - flags - set(MCP_ONLY.get(tool, {}))
    assert not extra, f"{tool}: parameters without a CLI flag: {extra}"


def test_presentation_flags_have_no_parameter(advertised: dict[str, set[str]]) -> None:
    for params in advertised.values():
        assert not params & PRESENTATION_FLAGS


def test_entity_tools_expose_the_entity_name(advertised: dict[str, set[str]]) -> None:
    for tool, command in TOOLS.items():
        if command in ENTITY:
            assert command in advertised[tool] and "name" not in advertised[tool]


def declared_bounds(action: argparse.Action) -> dict[str, int]:
    """The bounds the flag's converter declares, as the JSON Schema keywords they become."""
    kind = action.type
    found = {}
    for attribute, keyword in (
        ("max_length", "maxLength"),
        ("max_items", "maxProperties" if isinstance(kind, MetricThreshold) else "maxItems"),
        ("min_items", "minItems"),
        ("item_length", "items.maxLength"),
        ("name_length", "propertyNames.maxLength"),
    ):
        value = getattr(kind, attribute, None)
        if isinstance(value, int):
            found[keyword] = value
    if isinstance(action, argparse._AppendAction) and "maxLength" in found:
        found["items.maxLength"] = found.pop("maxLength")  # the bound of each repeated value
    return found


def advertised_bound(prop: dict[str, Any], keyword: str) -> Any:
    head, _, rest = keyword.partition(".")
    return prop.get(head, {}).get(rest) if rest else prop.get(head)


@pytest.mark.parametrize("tool", sorted(TOOLS))
def test_bounds_come_from_the_parser(tool: str, schemas: dict[str, dict[str, Any]]) -> None:
    """One declaration per bound: the converter's (pwc_core.values) is the one advertised."""
    command = TOOLS[tool]
    for action in research_actions(command):
        if action.choices is not None:
            continue  # an enum is its own bound
        prop = schemas[tool][expected_name(command, action.dest)]
        for keyword, value in declared_bounds(action).items():
            assert advertised_bound(prop, keyword) == value, (tool, action.dest, keyword)
