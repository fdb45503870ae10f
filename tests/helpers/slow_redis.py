"""A slow Redis without sleeping: a TCP proxy on loopback in front of a real redis-server that
counts round trips and charges each one `delay` seconds on an injected clock.

Every request that follows a reply (or opens a connection) starts a round trip: the proxy
advances the clock by `delay` before it forwards the request, so the storage's own measure of
the operation (clock before, clock after) sees a reply that took `delay`, while the bytes pass
at once. What a call spent on Redis is then `round_trips x delay`, read from the proxy itself,
independent of what the server under test reports.
"""

from __future__ import annotations

import contextlib
import socket
import threading
from collections.abc import Iterator


class ManualClock:
    """A monotonic clock that moves only when told; thread-safe."""

    def __init__(self) -> None:
        self.now = 1000.0
        self._lock = threading.Lock()

    def __call__(self) -> float:
        with self._lock:
            return self.now

    def advance(self, seconds: float) -> None:
        with self._lock:
            self.now += seconds


class SlowProxy:
    def __init__(self, target_port: int, clock: ManualClock, delay: float) -> None:
        self.target_port, self.clock, self.delay = target_port, clock, delay
        self.round_trips = 0
        self._lock = threading.Lock()
        self._listener = socket.create_server(("127.0.0.1", 0))
        self.port = self._listener.getsockname()[1]
        self._sockets: list[socket.socket] = [self._listener]
        threading.Thread(target=self._accept, name="slow-redis", daemon=True).start()

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def spent(self) -> float:
        """Seconds of Redis time charged so far."""
        with self._lock:
            return self.round_trips * self.delay

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self._listener.accept()
            except OSError:
                return
            server = socket.create_connection(("127.0.0.1", self.target_port))
            with self._lock:
                self._sockets += [client, server]
            waiting = [False]  # a request went out and its reply has not begun
            for source, sink, ask in ((client, server, True), (server, client, False)):
                threading.Thread(
                    target=self._pump, args=(source, sink, ask, waiting), daemon=True
                ).start()

    def _pump(
        self, source: socket.socket, sink: socket.socket, ask: bool, waiting: list[bool]
    ) -> None:
        with contextlib.suppress(OSError):
            while data := source.recv(65536):
                with self._lock:
                    if ask and not waiting[0]:
                        self.round_trips += 1
                        self.clock.advance(self.delay)
                    waiting[0] = ask
                sink.sendall(data)
        for end in (source, sink):
            with contextlib.suppress(OSError):
                end.shutdown(socket.SHUT_RDWR)

    def close(self) -> None:
        with self._lock:
            for sock in self._sockets:
                with contextlib.suppress(OSError):
                    sock.close()


@contextlib.contextmanager
def slow_proxy(target_port: int, clock: ManualClock, delay: float) -> Iterator[SlowProxy]:
    proxy = SlowProxy(target_port, clock, delay)
    try:
        yield proxy
    finally:
        proxy.close()
