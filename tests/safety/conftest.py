"""Fixtures: the real app (create_app) under uvicorn on loopback, over a gated sample upstream."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import ExitStack
from typing import Any

import pytest

import pwc_mcp.edge.windows as pwc_windows
from pwc_mcp.serving.localserver import Running, serve_in_thread
from tests.helpers.safety import API, FakeTime, GatedUpstream, Served, serving


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> FakeTime:
    fake = FakeTime()
    monkeypatch.setattr(pwc_windows, "time", fake)
    return fake


@pytest.fixture(scope="session")
def gated() -> Iterator[tuple[GatedUpstream, Running]]:
    upstream = GatedUpstream()
    with serve_in_thread(upstream, name="pwc-gated-catalog", lifespan="off") as running:
        yield upstream, running


@pytest.fixture
def upstream(gated: tuple[GatedUpstream, Running]) -> Iterator[GatedUpstream]:
    """The gated sample upstream, closed and fault-free for each test."""
    gate = gated[0]
    gate.reset()
    yield gate
    gate.reset()


@pytest.fixture
def serve(
    upstream: GatedUpstream, gated: tuple[GatedUpstream, Running]
) -> Iterator[Callable[..., Served]]:
    """serve(**settings) -> the real app with those Settings, running; stopped after the test.

    ``table_size`` and ``body_seconds`` size the identity table and the body deadline."""
    url = gated[1].origin + API
    with ExitStack() as stack:

        def start(**overrides: Any) -> Served:
            return stack.enter_context(serving(upstream, url, **overrides))

        yield start


@pytest.fixture(scope="module")
def serve_shared(gated: tuple[GatedUpstream, Running]) -> Iterator[Served]:
    """One generously limited app shared by a module's stateless checks."""
    url = gated[1].origin + API
    with serving(gated[0], url, request_limit=10_000, concurrency_limit=100) as served:
        yield served
