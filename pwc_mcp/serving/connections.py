"""Socket-level deadlines and a connection cap for uvicorn's HTTP protocols (h11 or httptools).

Without them a hostile client exhausts file descriptors with sockets that never finish a header
block (or never send a byte), and /health dies with everything else. Per server:

* the next request's header block must be complete within ``header_seconds`` of the connection
  opening or of the previous response ending, else the socket is closed (half-sent headers,
  silent sockets, a body trickled after an early answer), and within ``header_bytes``, else it
  gets a 400 and is closed (h11 has this bound built in; httptools would take any size);
* an idle keep-alive socket closes after ``keep_alive_seconds`` (uvicorn's own timer);
* the kernel's accept queue (and asyncio's accept batch) is ``backlog``: sockets accepted in one
  loop tick reach the cap check only afterwards, so descriptors in use stay under about
  ``max_connections + 2 * backlog + max_lingering`` (freed sockets close a tick later);
* at most ``max_connections`` sockets are served. A new one beyond the cap first reclaims the
  oldest idle socket (no request in flight); when every socket is busy it gets a short 503 and a
  half-close, and is closed once the client hangs up or after ``linger_seconds``. Lingering
  refusals are bounded too; past that bound a refusal is closed at once.

Body-read deadlines belong to the ASGI admission layer (pwc_mcp.edge.admission), not here.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

from uvicorn.protocols.http.h11_impl import H11Protocol

if TYPE_CHECKING:
    # What the guard uses of its protocol (attributes and hooks) is the same in both parsers.
    _Protocol = H11Protocol
else:
    _Protocol = object

try:
    import resource
except ImportError:  # not on Windows
    resource = None  # type: ignore[assignment]

FALLBACK_NOFILE = 1024
MAX_CONNECTIONS_CEILING = 4096
BACKLOG_CEILING = 1024
REFUSAL_BODY = b"too many connections; retry shortly\n"
REFUSAL = (
    b"HTTP/1.1 503 Service Unavailable\r\n"
    b"content-type: text/plain; charset=utf-8\r\n"
    b"content-length: " + str(len(REFUSAL_BODY)).encode() + b"\r\n"
    b"retry-after: 1\r\n"
    b"cache-control: no-store\r\n"
    b"connection: close\r\n\r\n" + REFUSAL_BODY
)


def _soft_nofile() -> int:
    if resource is None:
        return FALLBACK_NOFILE
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    return 1 << 30 if soft == resource.RLIM_INFINITY else soft


def default_max_connections() -> int:
    """Half the soft RLIMIT_NOFILE, between 16 and 4,096: the rest is for accept batches,
    lingering refusals, upstream sockets and the process itself."""
    return max(16, min(MAX_CONNECTIONS_CEILING, _soft_nofile() // 2))


def default_backlog() -> int:
    """An eighth of the soft RLIMIT_NOFILE, between 8 and 1,024."""
    return max(8, min(BACKLOG_CEILING, _soft_nofile() // 8))


@dataclass(frozen=True)
class ConnectionLimits:
    header_seconds: float = 10.0
    header_bytes: int = 16 * 1024  # h11's own default bound, given to both parsers
    keep_alive_seconds: float = 5.0
    max_connections: int = field(default_factory=default_max_connections)
    backlog: int = field(default_factory=default_backlog)
    linger_seconds: float = 1.0

    @property
    def max_lingering(self) -> int:
        return max(8, self.max_connections // 8)


class Registry:
    """The served sockets of one server, least recently active first."""

    def __init__(self, limits: ConnectionLimits) -> None:
        self.limits = limits
        self.served: dict[ConnectionGuard, None] = {}
        self.lingering = 0

    def admit(self, conn: ConnectionGuard) -> bool:
        if len(self.served) >= self.limits.max_connections:
            self.reclaim_one()
        if len(self.served) >= self.limits.max_connections:
            return False
        self.served[conn] = None
        return True

    def reclaim_one(self) -> None:
        for conn in self.served:
            if conn.idle():
                del self.served[conn]
                conn.transport.close()
                return

    def touch(self, conn: ConnectionGuard) -> None:
        if conn in self.served:  # move to the end: reclaimed last
            del self.served[conn]
            self.served[conn] = None

    def forget(self, conn: ConnectionGuard) -> None:
        self.served.pop(conn, None)


class ConnectionGuard(_Protocol):
    """Mixed in before uvicorn's protocol class (`guarded`)."""

    registry: ClassVar[Registry]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._deadline: asyncio.TimerHandle | None = None
        self._pending = 0  # bytes received since the awaited header block began
        self._awaiting: object = None  # the cycle current when the header deadline was armed
        self._refused = False

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        if self.registry.admit(self):
            self._arm(self.registry.limits.header_seconds)
        else:
            self._refuse()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        if self._refused:
            self._refused = False
            self.registry.lingering -= 1
        self.registry.forget(self)
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        if self._refused:
            return  # read and dropped, so closing later sends a FIN, not a reset
        super().data_received(data)
        self._headers_check()
        if self._deadline is not None and not self.transport.is_closing():  # headers awaited
            self._pending += len(data)
            if self._pending > self.registry.limits.header_bytes:
                self.send_400_response("Invalid HTTP request received.")  # h11's words

    def on_response_complete(self) -> None:
        self.registry.touch(self)
        if self.idle():  # httptools may have parsed a pipelined request's headers already
            self._arm(self.registry.limits.header_seconds)
        super().on_response_complete()
        self._headers_check()  # a pipelined request may have started already

    def idle(self) -> bool:
        """No request in flight: waiting for (the rest of) a header block, or kept alive."""
        return not self.transport.is_closing() and (
            self.cycle is None or self.cycle.response_complete
        )

    def _arm(self, seconds: float) -> None:
        self._disarm()
        self._pending = 0
        self._awaiting = self.cycle
        self._deadline = self.loop.call_later(seconds, self._expire)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _headers_check(self) -> None:
        if self._deadline is not None and not self._refused and self.cycle is not self._awaiting:
            self._disarm()  # a new request's headers are in: the app's deadlines take over

    def _expire(self) -> None:
        self._deadline = None
        if not self.transport.is_closing():
            self.transport.close()

    def _refuse(self) -> None:
        registry = self.registry
        self.transport.write(REFUSAL)
        if (
            registry.lingering >= registry.limits.max_lingering
            or not self.transport.can_write_eof()
        ):
            self.transport.close()
            return
        self._refused = True
        registry.lingering += 1
        self.transport.write_eof()  # the client reads the 503, then hangs up (eof_received)
        self._arm(registry.limits.linger_seconds)


def guarded(base: type[asyncio.Protocol], limits: ConnectionLimits) -> type[asyncio.Protocol]:
    """A protocol class for one server: ``base`` (uvicorn's h11 or httptools protocol, or a
    subclass of either) with its own registry."""
    if not issubclass(base, _parsers()):
        raise TypeError(f"{base.__name__} is not uvicorn's h11 or httptools protocol")
    return type(f"Guarded{base.__name__}", (ConnectionGuard, base), {"registry": Registry(limits)})


def _parsers() -> tuple[type[asyncio.Protocol], ...]:
    try:
        from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
    except ImportError:  # httptools not installed: h11 only (pwc_mcp.serving.runtime)
        return (H11Protocol,)
    return (H11Protocol, HttpToolsProtocol)
