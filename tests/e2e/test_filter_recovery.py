"""Recovery everywhere (issue #36 item 8): a listing filter's value the catalog does not hold
answers with up to three closest catalog names, in the CLI and through a real MCP client
against the sample catalog on loopback; a 500-character made-up value costs no lookup and no
comparison (the work is counted, never timed)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest
from fastmcp import Client

import pwc_core.suggest
from pwc_mcp.sample import RunningCatalog
from pwc_mcp.server import build_server
from tests.helpers.cli import run_cli
from tests.helpers.mcp import make_service

# (filter, a value the catalog does not hold, the catalog's name it stands for)
MISSES = [
    ("organization", "Meta", "Meta AI"),
    ("task", "image-clasification", "Image Classification"),
    ("method", "transfomer", "Transformer"),
    ("conference", "neurps-2017", "NeurIPS 2017"),
    ("framework", "pytorh", "PyTorch"),
]
LONG = "Meta " + "x" * 495  # 500 characters, nothing like a catalog name
ROUTES = ("tasks/", "methods/", "conferences/", "organizations/", "frameworks/")


def closest_said(message: str) -> list[str]:
    assert "; closest names: " in message, message
    return message.rsplit("; closest names: ", 1)[1].strip().split(", ")


@pytest.fixture
def comparisons(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """Every text compared with another (difflib) as pwc_core.suggest ranks names."""
    compared: list[str] = []
    ratio = pwc_core.suggest._ratio

    def counted(typed: str, name: str) -> float:
        compared.append(name)
        return ratio(typed, name)

    monkeypatch.setattr(pwc_core.suggest, "_ratio", counted)
    yield compared


@pytest.mark.parametrize(("flag", "typed", "meant"), MISSES)
def test_the_cli_names_the_closest(sample: RunningCatalog, flag: str, typed: str, meant: str):
    result = run_cli(sample.url, ["paper", "list", f"--{flag}", typed])
    assert result.code == 4 and result.err.startswith(
        f"pwc: No catalog record matches --{flag} {typed}; closest names: "
    )
    names = closest_said(result.err)
    assert names[0] == meant and len(names) <= 3, result.err
    assert run_cli(sample.url, ["paper", "list", f"--{flag}", meant]).code == 0  # it exists


def test_a_500_character_value_costs_no_lookup_and_no_comparison(
    sample: RunningCatalog, comparisons: list[str]
) -> None:
    run_cli(sample.url, ["paper", "list", "--organization", "Meta"])
    assert comparisons  # the counter counts what a short value costs
    comparisons.clear()
    sample.stats.reset()
    result = run_cli(sample.url, ["paper", "list", "--organization", LONG])
    assert result.code == 4 and "closest names" not in result.err
    assert comparisons == []
    assert not [route for route in sample.stats.requests if route.startswith(ROUTES)]


@pytest.fixture
async def client(sample: RunningCatalog) -> AsyncIterator[Client]:
    async with Client(build_server(make_service(sample.url, cached=False))) as connected:
        yield connected


async def not_found(client: Client, arguments: dict[str, Any]) -> str:
    result = await client.call_tool_mcp("list_papers", arguments)
    assert result.is_error, result.structured_content
    return result.content[0].text


@pytest.mark.anyio
@pytest.mark.parametrize(("flag", "typed", "meant"), MISSES)
async def test_the_tools_name_the_closest(client: Client, flag: str, typed: str, meant: str):
    text = await not_found(client, {flag: typed})
    assert text.startswith(f"not_found: {flag} {typed!r} is not in the catalog; closest names: ")
    assert closest_said(text)[0] == meant and len(closest_said(text)) <= 3, text


@pytest.mark.anyio
async def test_a_500_character_value_costs_the_tools_nothing_more(
    client: Client, sample: RunningCatalog, comparisons: list[str]
) -> None:
    sample.stats.reset()
    text = await not_found(client, {"organization": LONG})
    assert text.startswith("not_found: organization ") and "closest names" not in text
    assert comparisons == []
    assert not [route for route in sample.stats.requests if route.startswith(ROUTES)]
