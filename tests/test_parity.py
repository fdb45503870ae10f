"""Parity: the tools a client lists are the declarations' (pwc_core.declarations): every research
parameter of every read-only `pwc` command is a tool parameter under its declared name, with the
bounds its kind declares, and nothing else is; presentation flags never are."""

from __future__ import annotations

import asyncio
import re
from typing import Any

import pytest
from fastmcp import Client

from pwc_core.declarations import COMMANDS, PRESENTATION, RESEARCH_COMMANDS
from pwc_core.declare import TOOL, Param
from pwc_core.values import MetricThreshold
from pwc_mcp.params import TOOLS
from pwc_mcp.server import build_server
from tests.helpers.mcp import make_service

ENTITY = {"task", "method", "conference", "organization", "framework", "benchmark"}


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
def test_declared_and_listed_parameters_match(tool: str, advertised: dict[str, set[str]]) -> None:
    declared = {p.name for p in COMMANDS[TOOLS[tool]].research()}
    assert advertised[tool] == declared
    # a parameter is the CLI's too unless declared tool-only
    flagless = {p.name for p in COMMANDS[TOOLS[tool]].research() if not p.flags and p.where != TOOL}
    assert flagless <= {p.name for p in COMMANDS[TOOLS[tool]].params if p.positional}


def test_presentation_flags_have_no_parameter(advertised: dict[str, set[str]]) -> None:
    assert {"json", "flat", "implementation_coverage", "chart"} == PRESENTATION
    for params in advertised.values():
        assert not params & PRESENTATION


def test_entity_tools_expose_the_entity_name(advertised: dict[str, set[str]]) -> None:
    for tool, command in TOOLS.items():
        if command in ENTITY:
            assert command in advertised[tool] and "name" not in advertised[tool]


def declared_bounds(param: Param) -> dict[str, int]:
    """The bounds the parameter's kind declares, as the JSON Schema keywords they become."""
    kind = param.kind
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
    if param.repeat and "maxLength" in found:
        found["items.maxLength"] = found.pop("maxLength")  # the bound of each repeated value
    return found


def advertised_bound(prop: dict[str, Any], keyword: str) -> Any:
    head, _, rest = keyword.partition(".")
    return prop.get(head, {}).get(rest) if rest else prop.get(head)


@pytest.mark.parametrize("tool", sorted(TOOLS))
def test_bounds_come_from_the_declaration(tool: str, schemas: dict[str, dict[str, Any]]) -> None:
    """One declaration per bound: the kind's (pwc_core.values) is the one advertised."""
    for param in COMMANDS[TOOLS[tool]].research():
        if param.choices is not None or param.switch:
            continue  # an enum is its own bound; a switch has none
        prop = schemas[tool][param.name]
        for keyword, value in declared_bounds(param).items():
            assert advertised_bound(prop, keyword) == value, (tool, param.dest, keyword)


def test_no_description_repeats_what_its_schema_states(schemas: dict[str, dict[str, Any]]) -> None:
    """A parameter's description says what its schema cannot: never its range, default or
    repetition again (a CLI help that does gets a declared `tool_help`)."""
    stated = re.compile(r"\(\d+-\d+|default \d|repeatable|at most \d+")
    for tool, properties in schemas.items():
        for name, prop in properties.items():
            assert not stated.search(prop.get("description", "")), (tool, name)
