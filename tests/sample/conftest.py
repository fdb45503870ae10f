"""Shared fixtures: one real sample catalog server per session, one fresh client per test."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest

from pwc_mcp.sample import RunningCatalog, start_sample_catalog


@pytest.fixture(scope="session")
def catalog() -> Iterator[RunningCatalog]:
    with start_sample_catalog() as running:
        yield running


@pytest.fixture
def api(catalog: RunningCatalog) -> Iterator[httpx.Client]:
    """A keep-alive client on the catalog base URL; faults are cleared around every test."""
    catalog.faults.reset()
    with httpx.Client(base_url=catalog.url + "/", timeout=10) as client:
        yield client
    catalog.faults.reset()
