"""MCP test harness: the real server against the sample catalog, or against a catalog on
loopback that answers whatever the test says (``upstream``/``hostile``)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator

import pytest
import respx
from fastmcp import Client, FastMCP
from starlette.applications import Starlette
from starlette.routing import Route

from pwc_mcp.sample import RunningCatalog
from pwc_mcp.server import build_server
from pwc_mcp.serving.localserver import serve_in_thread
from tests.helpers.mcp import CATALOG_BASE, Answers, make_service


@pytest.fixture(autouse=True)
def _clean_faults(request: pytest.FixtureRequest) -> Iterator[None]:
    yield
    if "sample" in request.fixturenames:
        request.getfixturevalue("sample").faults.reset()


@pytest.fixture
def mock() -> Iterator[respx.MockRouter]:
    """The catalog at CATALOG_BASE, answering what the test routes (unit tests of the caches)."""
    with respx.mock(base_url=CATALOG_BASE, assert_all_called=False) as router:
        yield router


@pytest.fixture(scope="module")
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture(scope="module")
async def cached_client(sample: RunningCatalog) -> AsyncIterator[Client]:
    """One cached server per module, for tests that only read answers (no faults, no counts)."""
    async with Client(build_server(make_service(sample.url))) as connected:
        yield connected


@pytest.fixture
def server(sample: RunningCatalog) -> FastMCP:
    # Uncached, so fault injection and upstream counts are visible test by test.
    return build_server(make_service(sample.url, cached=False))


@pytest.fixture
async def client(server: FastMCP) -> AsyncIterator[Client]:
    async with Client(server) as connected:
        yield connected


@pytest.fixture(scope="module")
def upstream() -> Iterator[tuple[str, Answers]]:
    answers = Answers()
    app = Starlette(routes=[Route("/{rest:path}", answers.respond)])
    with serve_in_thread(app, name="hostile-catalog", lifespan="off") as running:
        yield running.origin + "/api/v1", answers


@pytest.fixture
async def hostile(upstream: tuple[str, Answers]) -> AsyncIterator[tuple[Client, Answers]]:
    url, answers = upstream
    answers.by_path.clear()
    async with Client(build_server(make_service(url))) as client:
        yield client, answers
