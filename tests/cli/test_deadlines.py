"""Deadlines: one catalog request ends at its deadline however slowly the bytes arrive, and an
enclosing budget (a tool call's) shortens every request made inside it.

The upstreams here drip on purpose, so old clients (per-read timeouts) finish them successfully
after a few seconds; the assertions are on the outcome, never on elapsed time.
"""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from pwc_core import deadline
from pwc_core.errors import UpstreamTimeout
from pwc_core.transport import CatalogClient
from pwc_mcp.sample import RunningCatalog


class Ticking:
    """A clock that advances `step` seconds every time it is read."""

    def __init__(self, step: float) -> None:
        self.now, self.step = 0.0, step

    def __call__(self) -> float:
        self.now += self.step
        return self.now


def test_a_dripping_body_ends_at_the_request_deadline(sample: RunningCatalog) -> None:
    # 40 pieces 50 ms apart: each read is quick, the whole body takes 2 s.
    sample.faults.drip(0.05, pieces=40, path_prefix="tasks/")
    client = CatalogClient(sample.url, timeout=0.3)
    with pytest.raises(UpstreamTimeout):
        client.get("tasks/")
    assert client.get("tasks/").json()["results"]  # the connection was dropped, not wedged


@contextmanager
def dripping_headers(interval: float) -> Iterator[str]:
    """A raw loopback server sending a whole small response one byte every `interval` s."""
    reply = b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}"
    listener = socket.create_server(("127.0.0.1", 0))
    done = threading.Event()

    def serve() -> None:
        conn, _ = listener.accept()
        with conn:
            conn.recv(65536)
            for byte in reply:
                if done.is_set():
                    return
                try:
                    conn.sendall(bytes([byte]))
                except OSError:  # the client gave up
                    return
                time.sleep(interval)

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{listener.getsockname()[1]}/api/v1"
    finally:
        done.set()
        listener.close()
        thread.join(timeout=5)


def test_dripping_headers_end_at_the_request_deadline() -> None:
    # ~80 bytes: 2.4 s in all, 30 ms per read.
    with dripping_headers(0.03) as url, pytest.raises(UpstreamTimeout):
        CatalogClient(url, timeout=0.3).get("tasks/")


def test_the_request_deadline_follows_the_injected_clock(sample: RunningCatalog) -> None:
    # Every reading of the clock costs a simulated second: a 5 s budget runs out after a few
    # socket operations, whatever the real time.
    sample.faults.drip(0.01, pieces=50, path_prefix="tasks/")
    with pytest.raises(UpstreamTimeout):
        CatalogClient(sample.url, timeout=5, clock=Ticking(1.0)).get("tasks/")


def test_an_enclosing_budget_shortens_the_request(sample: RunningCatalog) -> None:
    sample.faults.drip(0.05, pieces=40, path_prefix="tasks/")
    client = CatalogClient(sample.url, timeout=30)
    with deadline.within(0.3), pytest.raises(UpstreamTimeout):
        client.get("tasks/")


def test_an_expired_budget_sends_nothing(sample: RunningCatalog) -> None:
    client = CatalogClient(sample.url)
    before = sample.stats.total()
    with deadline.within(0.0), pytest.raises(UpstreamTimeout):
        client.get("tasks/")
    assert sample.stats.total() == before


def test_budgets_nest_and_the_earliest_wins() -> None:
    clock = Ticking(0.0)
    assert deadline.remaining() is None
    with deadline.within(10, clock):
        with deadline.within(100, clock) as inner:
            assert inner.remaining() == 10
        with deadline.within(1, clock) as inner:
            assert inner.remaining() == 1
        assert deadline.remaining() == 10
    assert deadline.current() is None
