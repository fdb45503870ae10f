"""Shared fixtures: the sample catalog on loopback (session-wide) and the anyio backend."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from pwc_mcp.sample import RunningCatalog, start_sample_catalog


@pytest.fixture(scope="session")
def sample() -> Iterator[RunningCatalog]:
    with start_sample_catalog() as running:
        yield running


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"
