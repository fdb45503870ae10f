"""End-to-end harness: the sample catalog and the real app under uvicorn, both on loopback."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest

from pwc_mcp.app import create_app
from pwc_mcp.sample import RunningCatalog, start_sample_catalog
from pwc_mcp.serving.localserver import Running, serve_in_thread
from tests.helpers.e2e import settings_for


@pytest.fixture(scope="session")
def catalog() -> Iterator[RunningCatalog]:
    with start_sample_catalog() as running:
        yield running


@pytest.fixture(scope="session")
def server(catalog: RunningCatalog) -> Iterator[Running]:
    with serve_in_thread(create_app(settings_for(catalog)), name="pwc-mcp") as running:
        yield running


@pytest.fixture
def http(server: Running) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=server.origin, timeout=30) as client:
        yield client
