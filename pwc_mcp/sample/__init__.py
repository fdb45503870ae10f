"""Offline sample of the Papers With Code catalog API v1.

A small, read-only, v1-compatible HTTP API over bundled data (``data/catalog.json``) for demos
and end-to-end tests: ``start_sample_catalog()`` runs a real uvicorn server on a free loopback
port in a background thread, with fault injection (``Faults``) and counters (``Stats``).
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol

from pwc_mcp.sample.app import API_PREFIX, create_app
from pwc_mcp.sample.faults import Faults
from pwc_mcp.sample.stats import Stats
from pwc_mcp.sample.store import SampleStore
from pwc_mcp.serving.localserver import Running, bind, config, origin, serve_in_thread

__all__ = [
    "Faults",
    "RunningCatalog",
    "SampleStore",
    "Stats",
    "create_app",
    "serve",
    "start_sample_catalog",
]


def _counting_protocol(stats: Stats) -> type[asyncio.Protocol]:
    """uvicorn's h11 protocol, counting each accepted TCP connection (not each request)."""

    class CountingH11Protocol(H11Protocol):
        def connection_made(self, transport: asyncio.BaseTransport) -> None:
            stats.record_connection()
            super().connection_made(transport)  # type: ignore[arg-type]  # uvicorn narrows it

    return CountingH11Protocol


def _url(host: str, port: int) -> str:
    return origin(host, port) + API_PREFIX


@dataclass
class RunningCatalog:
    """A sample catalog served in a background thread (see ``start_sample_catalog``)."""

    url: str
    faults: Faults
    stats: Stats
    store: SampleStore
    _running: Running = field(repr=False)

    def stop(self) -> None:
        """Stop the server and wait for its thread; safe to call twice."""
        self._running.stop()


@contextmanager
def start_sample_catalog(
    host: str = "127.0.0.1", port: int = 0, latency: float = 0.0
) -> Iterator[RunningCatalog]:
    """Run a real uvicorn server on ``host:port`` (0 = a free port) until the block exits."""
    store, faults = SampleStore(), Faults(latency)
    app = create_app(store, faults)
    protocol = _counting_protocol(app.state.stats)
    with serve_in_thread(
        app, host=host, port=port, name="pwc-sample-catalog", http=protocol, lifespan="off"
    ) as running:
        yield RunningCatalog(running.origin + API_PREFIX, faults, app.state.stats, store, running)


def serve(host: str = "127.0.0.1", port: int = 8765, latency: float = 0.0) -> None:
    """Serve the sample catalog in the foreground until interrupted; prints ``PWC_API_URL=…``."""
    app = create_app(SampleStore(), Faults(latency))
    sock = bind(host, port)
    print(f"PWC_API_URL={_url(host, sock.getsockname()[1])}", flush=True)
    try:
        uvicorn.Server(config(app, http=_counting_protocol(app.state.stats), lifespan="off")).run(
            sockets=[sock]
        )
    finally:
        sock.close()
