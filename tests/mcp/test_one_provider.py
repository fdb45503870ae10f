"""Every component in the server's own provider (pwc_mcp.server._held_by_one): FastMCP looks a
tool up in every provider at once, a task each, on every call, so the domain modules' providers
are folded into one. Nothing may be lost or renamed on the way."""

from __future__ import annotations

from typing import Any

import pytest
from fastmcp import Client
from fastmcp.server.providers import LocalProvider

from pwc_mcp import ui
from pwc_mcp.server import build_server
from pwc_mcp.tools import benchmarks, papers, prompts, skills, taxonomy
from tests.helpers.mcp import make_service

pytestmark = pytest.mark.anyio


def _declared(service: Any) -> dict[str, set[str]]:
    """What the domain modules declare, by kind, read off their own providers."""
    kinds: dict[str, set[str]] = {
        "tool": set(),
        "resource": set(),
        "template": set(),
        "prompt": set(),
    }
    domains = [module.build(service) for module in (papers, taxonomy, benchmarks)]
    for provider in [*domains, prompts.provider, ui.build(), skills.build()]:
        for key in provider._components:
            kind, _, name = key.partition(":")
            kinds[kind].add(name.partition("@")[0])
    return kinds


async def test_one_lookup_per_call_and_every_component_listed(
    sample: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    service = make_service(sample.url)
    server = build_server(service)
    lookups: list[str] = []
    real = LocalProvider._get_tool

    async def counted(self: LocalProvider, name: str, version: Any = None) -> Any:
        lookups.append(name)
        return await real(self, name, version)

    monkeypatch.setattr(LocalProvider, "_get_tool", counted)
    async with Client(server) as client:
        result = await client.call_tool("search_papers", {"query": "resnet"})
        assert not result.is_error
        # one provider asked, once (six before: one task per provider)
        assert lookups == ["search_papers"]
        tools = {tool.name for tool in await client.list_tools()}
        resources = {str(r.uri) for r in await client.list_resources()}
        templates = {t.uri_template for t in await client.list_resource_templates()}
        listed_prompts = {p.name for p in await client.list_prompts()}
    declared = _declared(service)
    assert tools == declared["tool"]
    assert resources == declared["resource"]
    assert templates == declared["template"]
    assert listed_prompts == declared["prompt"]
