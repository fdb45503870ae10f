"""A hostile or broken internet, end to end: a real MCP client, the server on loopback, the
sample catalog misbehaving on purpose.

- a catalog answer that drips ends as `upstream_timeout:` at the request deadline, and frees
  the client's concurrency lease;
- a tool call whose catalog requests are each slow but within their own timeout ends at the
  call deadline;
- `.`, `..` and their encodings as a name never reach the catalog as path dot segments.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any
from urllib.parse import unquote

import pytest
from mcp import Client as SDKClient
from mcp.shared.exceptions import MCPError

from pwc_core.transport import CatalogClient
from pwc_mcp.app import build_catalog, create_app
from pwc_mcp.caching.cache import CachedCatalog, ChunkCache
from pwc_mcp.catalog import CatalogService
from pwc_mcp.cursors import CursorCodec
from pwc_mcp.sample import RunningCatalog, start_sample_catalog
from pwc_mcp.server import build_server
from pwc_mcp.serving.localserver import Running, serve_in_thread
from tests.helpers.e2e import settings_for

pytestmark = pytest.mark.anyio
ROOTS = {
    "papers",
    "research",
    "evaluations",
    "datasets",
    "tasks",
    "methods",
    "areas",
    "conferences",
    "organizations",
    "frameworks",
}


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
def catalog() -> Iterator[RunningCatalog]:  # its own: faults and stats stay in this test
    with start_sample_catalog() as running:
        yield running


async def call(server: Running, tool: str, arguments: dict[str, Any]) -> tuple[bool, str]:
    async with SDKClient(f"{server.origin}/mcp", mode="legacy") as client:
        result = await client.call_tool(tool, arguments)
    text = result.content[0].text if result.content else ""
    return bool(result.is_error), text


async def test_a_dripping_answer_ends_as_upstream_timeout_and_frees_the_lease(
    catalog: RunningCatalog,
) -> None:
    # One concurrent call per client: if the timed-out call kept its lease, the next is refused.
    settings = settings_for(catalog, catalog_timeout=0.4, concurrency_limit=1)
    with serve_in_thread(create_app(settings), name="pwc-mcp-drip") as server:
        catalog.faults.drip(0.05, pieces=40, path_prefix="tasks/")  # 2 s in all, 50 ms a read
        failed, text = await call(server, "list_tasks", {"search": "classification"})
        assert failed and text.startswith("upstream_timeout:")
        failed, text = await call(server, "list_tasks", {"search": "classification"})
        assert not failed, text


async def test_slow_catalog_calls_end_at_the_call_deadline(catalog: RunningCatalog) -> None:
    # get_task makes about five catalog requests; each takes 0.3 s, well inside the 5 s
    # request timeout, but together they outlast the 0.8 s call deadline.
    client = CatalogClient(catalog.url, timeout=5)
    service = CatalogService(CachedCatalog(client), CursorCodec(b"k" * 32), ChunkCache())
    mcp = build_server(service, call_timeout=0.8)
    app = mcp.http_app(path="/mcp", stateless_http=True, json_response=True)
    with serve_in_thread(app, name="pwc-mcp-deadline") as server:
        catalog.faults.latency = 0.3
        failed, text = await call(server, "get_task", {"task": "image-classification"})
        assert failed and text.startswith("upstream_timeout:")
        catalog.faults.latency = 0.5  # the first requests are cached now: the rest still outlast
        async with SDKClient(f"{server.origin}/mcp", mode="legacy") as client:
            with pytest.raises(MCPError, match="^upstream_timeout:"):  # resource reads too
                await client.read_resource("pwc://tasks/image-classification")
        catalog.faults.latency = 0.0
        failed, text = await call(server, "get_task", {"task": "image-classification"})
        assert not failed, text  # the worker was freed: the same call now completes


DOT_NAMES = ["..", ".", "%2e%2e", "%2E", "../tasks"]
NAMED = [
    ("list_benchmarks", "task"),  # tasks/{task}/trending-benchmarks: the name is the segment
    ("get_task", "task"),
    ("get_method", "method"),
    ("get_conference", "conference"),
    ("get_organization", "organization"),
    ("get_paper_info", "paper"),
    ("get_benchmark", "benchmark"),
]


def _escapes(path: str) -> bool:
    """Whether a request path (as the catalog decoded it) left the API's own routes."""
    decoded = path
    while (once := unquote(decoded)) != decoded:
        decoded = once
    parts = decoded.split("/")
    return parts[0] not in ROOTS or any(part in (".", "..") for part in parts)


@pytest.mark.parametrize("name", DOT_NAMES)
async def test_dot_segments_never_reach_the_catalog(catalog: RunningCatalog, name: str) -> None:
    with serve_in_thread(create_app(settings_for(catalog)), name="pwc-mcp-dots") as server:
        for tool, argument in NAMED:
            before = catalog.stats.requests
            failed, text = await call(server, tool, {argument: name})
            after = catalog.stats.requests
            sent = [path for path, count in after.items() if count > before.get(path, 0)]
            assert not [path for path in sent if _escapes(path)], (tool, sent)
            assert failed, (tool, text)
            if tool == "list_benchmarks":
                assert text.startswith("invalid_argument:"), text


def test_the_default_catalog_enforces_deadlines(catalog: RunningCatalog) -> None:
    # The production wiring (build_catalog) is what the tests above rely on.
    service = build_catalog(settings_for(catalog, catalog_timeout=0.3))
    catalog.faults.drip(0.05, pieces=40, path_prefix="tasks/")
    with pytest.raises(Exception, match="timed out"):
        service.transport.get_json("tasks/", {"page": 1})
