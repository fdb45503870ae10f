"""Shared fixtures: the sample catalog on loopback (session-wide) and the anyio backend."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, settings

from pwc_mcp.sample import RunningCatalog, start_sample_catalog

# Property tests must not fail because a 2-core machine is loaded: no health check that load can
# trip, no per-example deadline, and the same examples on every run (a failure reproduces).
settings.register_profile(
    "suite",
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.load_profile("suite")


@pytest.fixture(scope="session")
def sample() -> Iterator[RunningCatalog]:
    with start_sample_catalog() as running:
        yield running


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"
