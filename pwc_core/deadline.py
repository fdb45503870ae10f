"""Deadlines: a time budget carried in a contextvar and enforced on every socket operation.

httpx's timeouts bound each connect, read or write on its own, so an upstream that drips one
byte per read stays under them forever. Here a request (and, on the server, a whole tool call)
runs `within(seconds)`; the budget nests (the earliest deadline wins), crosses into worker
threads with the context (anyio copies it), and `DeadlineBackend` gives every network operation
at most the time left, so the request ends at its deadline however the bytes arrive.
"""

from __future__ import annotations

import contextvars
import ssl
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import httpcore
import httpx

from pwc_core.errors import UpstreamTimeout

Clock = Callable[[], float]


@dataclass(frozen=True)
class Deadline:
    """An instant on `clock` (each deadline keeps its own clock, so tests can inject one)."""

    at: float
    clock: Clock = time.monotonic

    def remaining(self) -> float:
        return self.at - self.clock()

    def check(self) -> None:
        """Raise UpstreamTimeout once the deadline has passed."""
        if self.remaining() <= 0:
            raise UpstreamTimeout()


_CURRENT: contextvars.ContextVar[Deadline | None] = contextvars.ContextVar(
    "pwc_deadline", default=None
)


def current() -> Deadline | None:
    return _CURRENT.get()


def remaining() -> float | None:
    """Seconds left in the innermost budget, or None when nothing bounds this context."""
    deadline = _CURRENT.get()
    return None if deadline is None else deadline.remaining()


@contextmanager
def within(seconds: float, clock: Clock = time.monotonic) -> Iterator[Deadline]:
    """Run the block with `seconds` left at most, or less if an enclosing budget ends sooner."""
    outer = _CURRENT.get()
    deadline = Deadline(clock() + seconds, clock)
    if outer is not None and outer.remaining() <= seconds:
        deadline = outer
    token = _CURRENT.set(deadline)
    try:
        yield deadline
    finally:
        _CURRENT.reset(token)


def _bounded(timeout: float | None, expired: type[Exception]) -> float | None:
    left = remaining()
    if left is None:
        return timeout
    if left <= 0:  # a socket timeout of 0 would mean "non-blocking", not "expired"
        raise expired("deadline reached")
    return left if timeout is None else min(timeout, left)


class DeadlineStream(httpcore.NetworkStream):
    """A network stream whose every operation waits no longer than the current budget."""

    def __init__(self, stream: httpcore.NetworkStream) -> None:
        self._stream = stream

    def read(self, max_bytes: int, timeout: float | None = None) -> bytes:
        return self._stream.read(max_bytes, _bounded(timeout, httpcore.ReadTimeout))

    def write(self, buffer: bytes, timeout: float | None = None) -> None:
        self._stream.write(buffer, _bounded(timeout, httpcore.WriteTimeout))

    def close(self) -> None:
        self._stream.close()

    def start_tls(
        self,
        ssl_context: ssl.SSLContext,
        server_hostname: str | None = None,
        timeout: float | None = None,
    ) -> httpcore.NetworkStream:
        bounded = _bounded(timeout, httpcore.ConnectTimeout)
        return DeadlineStream(self._stream.start_tls(ssl_context, server_hostname, bounded))

    def get_extra_info(self, info: str) -> Any:
        return self._stream.get_extra_info(info)


class DeadlineBackend(httpcore.NetworkBackend):
    """Wraps httpcore's network backend so connections it opens honour the current budget."""

    def __init__(self, backend: httpcore.NetworkBackend) -> None:
        self._backend = backend

    def connect_tcp(
        self,
        host: str,
        port: int,
        timeout: float | None = None,
        local_address: str | None = None,
        socket_options: Iterable[Any] | None = None,
    ) -> httpcore.NetworkStream:
        bounded = _bounded(timeout, httpcore.ConnectTimeout)
        stream = self._backend.connect_tcp(host, port, bounded, local_address, socket_options)
        return DeadlineStream(stream)

    def connect_unix_socket(
        self,
        path: str,
        timeout: float | None = None,
        socket_options: Iterable[Any] | None = None,
    ) -> httpcore.NetworkStream:
        bounded = _bounded(timeout, httpcore.ConnectTimeout)
        return DeadlineStream(self._backend.connect_unix_socket(path, bounded, socket_options))

    def sleep(self, seconds: float) -> None:
        self._backend.sleep(seconds)


def enforce(client: httpx.Client) -> httpx.Client:
    """Make every transport of `client` (its own and any proxy mounts) honour budgets.

    httpx has no public hook for httpcore's network backend, so this wraps the one each
    connection pool holds; a transport of another kind (a test double) is left alone.
    """
    transports = [client._transport, *client._mounts.values()]
    for transport in transports:
        pool = getattr(transport, "_pool", None)
        backend = getattr(pool, "_network_backend", None)
        if isinstance(backend, httpcore.NetworkBackend) and not isinstance(
            backend, DeadlineBackend
        ):
            pool._network_backend = DeadlineBackend(backend)  # type: ignore[union-attr]
    return client
