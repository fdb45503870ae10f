"""Argument completion (`completion/complete`) end to end: the official SDK client in both eras
against the real app under uvicorn and the sample catalog; cached, bounded, rate limited."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest
from mcp import Client as SDKClient
from mcp_types import PromptReference, ResourceTemplateReference

from pwc_mcp.app import build_catalog, create_app
from pwc_mcp.catalog import CatalogService
from pwc_mcp.sample import RunningCatalog
from pwc_mcp.serving.localserver import Running, serve_in_thread
from pwc_mcp.tools.completion import MAX_PREFIX, MAX_VALUES
from tests.helpers.e2e import RPC_HEADERS, modern, rpc, settings_for

pytestmark = pytest.mark.anyio
MODES = pytest.mark.parametrize("mode", ["legacy", "2026-07-28"])


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


def template(uri: str) -> ResourceTemplateReference:
    return ResourceTemplateReference(type="ref/resource", uri=uri)


def prompt(name: str) -> PromptReference:
    return PromptReference(type="ref/prompt", name=name)


async def complete(server: Running, mode: str, ref, name: str, value: str) -> list[str]:
    async with SDKClient(f"{server.origin}/mcp", mode=mode) as client:
        result = await client.complete(ref, {"name": name, "value": value})
    return result.completion.values


def test_the_capability_is_advertised_in_both_eras(server: Running) -> None:
    hello = {"protocolVersion": "2025-11-25", "capabilities": {}}
    hello["clientInfo"] = {"name": "pytest", "version": "1"}
    body, headers = modern("server/discover")
    with httpx.Client(base_url=server.origin) as http:
        legacy = http.post("/mcp", json=rpc("initialize", hello), headers=RPC_HEADERS).json()
        discovered = http.post("/mcp", json=body, headers=headers).json()
    assert legacy["result"]["capabilities"]["completions"] == {}
    assert discovered["result"]["capabilities"]["completions"] == {}


@MODES
@pytest.mark.parametrize(
    ("ref", "argument", "typed", "expected"),
    [
        (template("pwc://tasks/{task}"), "task", "image", "image-classification"),
        (template("pwc://benchmarks/{benchmark}"), "benchmark", "imag", "imagenet"),
        (template("pwc://papers/{paper}"), "paper", "attention is all", "1706.03762"),
        (template("pwc://papers/{paper}/markdown"), "paper", "attention is all", "1706.03762"),
        (prompt("find_papers"), "topic", "attention is all", "Attention Is All You Need"),
        (prompt("compare_leaderboard"), "benchmark", "imag", "ImageNet"),
        (prompt("survey_task"), "task", "object", "Object Detection"),
    ],
)
async def test_completes_each_template_and_prompt_argument(
    server: Running, mode: str, ref, argument: str, typed: str, expected: str
) -> None:
    values = await complete(server, mode, ref, argument, typed)
    assert expected in values and len(values) <= MAX_VALUES


async def test_values_that_start_with_the_prefix_come_first(server: Running) -> None:
    values = await complete(server, "legacy", template("pwc://tasks/{task}"), "task", "image")
    assert len(values) > 2 and values[0].startswith("image")
    starts = [v.startswith("image") for v in values]
    assert starts == sorted(starts, reverse=True)


@pytest.mark.parametrize(
    ("ref", "argument", "typed"),
    [
        (prompt("test_prompt_with_arguments"), "arg1", "test"),  # the conformance scenario
        (template("pwc://tasks/{task}"), "not-an-argument", "image"),
        (template("pwc://tasks/{task}"), "task", "   "),
        (template("pwc://tasks/{task}"), "task", "i" * (MAX_PREFIX + 1)),
    ],
)
async def test_what_is_not_completed_is_an_empty_list(
    server: Running, ref, argument: str, typed: str
) -> None:
    assert await complete(server, "legacy", ref, argument, typed) == []


@pytest.fixture
def counted(catalog: RunningCatalog) -> Iterator[tuple[Running, CatalogService]]:
    settings = settings_for(catalog, request_limit=4)
    service = build_catalog(settings)
    with serve_in_thread(create_app(settings, service), name="pwc-mcp-completion") as running:
        yield running, service


def completion_request(value: str, rpc_id: int = 1) -> dict:
    params = {"ref": {"type": "ref/resource", "uri": "pwc://tasks/{task}"}}
    return rpc(
        "completion/complete", {**params, "argument": {"name": "task", "value": value}}, rpc_id
    )


def test_completions_are_cached_bounded_and_counted(
    counted: tuple[Running, CatalogService],
) -> None:
    running, service = counted
    with httpx.Client(base_url=running.origin) as http:
        answers = [
            http.post("/mcp", json=completion_request(v, i), headers=RPC_HEADERS)
            for i, v in enumerate(["detect", "detect", "x" * (MAX_PREFIX + 1), "detect", "detect"])
        ]
    assert [a.status_code for a in answers] == [200, 200, 200, 200, 429]  # MCP work: budgeted
    first = answers[0].json()["result"]["completion"]["values"]
    assert (
        "object-detection" in first and answers[1].json()["result"]["completion"]["values"] == first
    )
    assert answers[2].json()["result"]["completion"]["values"] == []  # refused before any request
    tasks = service.transport.stats()["families"]["tasks/"]
    assert tasks["upstream_calls"] == 1 and tasks["hits"] >= 2  # one upstream call, then cache


def test_an_unreachable_catalog_gives_no_values_not_an_error(catalog: RunningCatalog) -> None:
    import socket

    with socket.socket() as closed:
        closed.bind(("127.0.0.1", 0))
        dead = f"http://127.0.0.1:{closed.getsockname()[1]}/api/v1"
    settings = settings_for(catalog, api_url=dead)
    app = create_app(settings, startup_grace=0)
    with serve_in_thread(app, name="pwc-mcp-dead") as running, httpx.Client() as http:
        answer = http.post(
            f"{running.origin}/mcp", json=completion_request("detect"), headers=RPC_HEADERS
        )
    assert answer.status_code == 200 and answer.json()["result"]["completion"]["values"] == []
