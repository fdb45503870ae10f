"""Helpers the tests import (fixtures stay in the conftest.py files): one module per domain."""

from __future__ import annotations

import socket
import threading
import time
import tomllib
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# The import packages, as the wheel declares them (pyproject.toml): core first, then its users.
PACKAGES: tuple[str, ...] = tuple(
    tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["tool"]["hatch"]["build"][
        "targets"
    ]["wheel"]["packages"]
)


def wait_until(
    predicate: Callable[[], object], timeout: float = 10.0, interval: float = 0.005
) -> None:
    """Poll ``predicate`` until it is truthy; ``timeout`` only turns a hang into a failure.

    For state another thread or process changes with nothing to wait on (a socket that starts
    listening, a lease released after the bytes went out); where a clock can be injected, inject
    it instead of polling.
    """
    tick = threading.Event()  # never set: its wait() is an interruptible pause
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError(f"condition not reached within {timeout} s")
        tick.wait(interval)


def free_port() -> int:
    """A loopback port nothing listens on (bound, then released)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]
