"""A real uvicorn server in a background thread on a loopback socket: for the sample catalog,
end-to-end tests and benchmarks. The socket is bound before the thread starts, so the port is
known and free of races."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import socket
import threading
import time
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Literal

import uvicorn
from uvicorn.config import HTTP_PROTOCOLS
from uvicorn.importer import import_from_string

from pwc_mcp.serving import runtime
from pwc_mcp.serving.connections import ConnectionLimits, guarded

Lifespan = Literal["auto", "on", "off"]  # uvicorn's choices
FORCED_SHUTDOWN_SECONDS = 5  # the app's own shutdown after a second Ctrl+C


def bind(host: str, port: int, *, listen: bool = True) -> socket.socket:
    """A socket bound to (host, port): a taken port fails here, and port 0 is resolved.

    With ``listen=False`` the port refuses connections until uvicorn starts serving on the socket
    (asyncio's create_server calls listen() itself): nothing waits in a backlog behind imports or
    the app's start-up."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    # proto=IPPROTO_TCP matters: asyncio only sets TCP_NODELAY on accepted sockets whose listener
    # says so, and without it every keep-alive response waits ~40 ms for a delayed ACK.
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        if listen:
            sock.listen(512)
    except OSError:
        sock.close()
        raise
    sock.setblocking(False)
    return sock


def origin(host: str, port: int) -> str:
    return f"http://{f'[{host}]' if ':' in host else host}:{port}"


def config(
    app: Any,
    *,
    host: str = "127.0.0.1",
    port: int = 0,
    http: type[asyncio.Protocol] | None = None,
    lifespan: Lifespan = "on",
    graceful_seconds: int = 2,
    limits: ConnectionLimits | None = None,
    choice: runtime.Runtime | None = None,
) -> uvicorn.Config:
    """The one set of uvicorn options: `pwc-mcp` itself, tests and benchmarks all use it.

    The event loop and HTTP parser are ``choice`` (default: this process's, pwc_mcp.serving.runtime);
    ``http`` replaces the parser with a subclass of uvicorn's h11 or httptools protocol. Every
    server gets socket deadlines and a connection cap (pwc_mcp.serving.connections) on top of it."""
    limits = limits or ConnectionLimits()
    choice = choice or runtime.current()
    protocol = http or _parser(choice.http)
    return uvicorn.Config(
        app,
        host=host,
        port=port,
        loop=choice.loop,
        http=guarded(protocol, limits),
        timeout_keep_alive=limits.keep_alive_seconds,  # type: ignore[arg-type]  # a float works
        h11_max_incomplete_event_size=limits.header_bytes,
        backlog=limits.backlog,
        ws="none",
        lifespan=lifespan,
        access_log=False,
        log_level="warning",
        log_config=None,  # leave the host process's logging configuration alone
        proxy_headers=False,  # the app derives client identity itself (pwc_mcp.edge.identity)
        server_header=False,
        timeout_graceful_shutdown=graceful_seconds,
    )


@functools.cache
def _parser(name: str) -> type[asyncio.Protocol]:
    """uvicorn's protocol class for `name`; httptools with the header values h11 gives."""
    protocol: type[asyncio.Protocol] = import_from_string(HTTP_PROTOCOLS[name])
    if name != "httptools":
        return protocol

    class TrimmedHttpToolsProtocol(protocol):  # type: ignore[valid-type,misc]
        """llhttp keeps the whitespace around a header value; RFC 9110 (section 5.5) and h11
        drop it, so `Mcp-Name:  search_papers ` matches its body's name on either parser."""

        def on_header(self, name: bytes, value: bytes) -> None:
            super().on_header(name, value.strip(b" \t"))

    return TrimmedHttpToolsProtocol


class AnnouncingServer(uvicorn.Server):
    """uvicorn's server that calls ``on_serving`` once its sockets listen and are served, so
    that whatever it announces (an endpoint URL) answers at once; and, asked to stop, awaits
    ``on_stop`` (given whether a second Ctrl+C forces the exit) while its sockets still serve,
    before uvicorn's own shutdown closes them."""

    def __init__(
        self,
        config: uvicorn.Config,
        on_serving: Callable[[], None],
        on_stop: Callable[[Callable[[], bool]], Awaitable[object]] | None = None,
    ) -> None:
        super().__init__(config)
        self._on_serving = on_serving
        self._on_stop = on_stop

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        # The given sockets listen once the app has started, before uvicorn serves them: here,
        # because uvloop's create_server does not raise a listen() that fails (asyncio's does);
        # it serves nothing, while another server that listened first takes the connections.
        started = self.lifespan.startup

        async def then_listen() -> None:
            await started()
            if not self.lifespan.should_exit:
                for sock in sockets or ():
                    sock.listen(self.config.backlog)

        self.lifespan.startup = then_listen
        try:
            await super().startup(sockets)
        except OSError:
            # A given socket that cannot listen (its port taken meanwhile): end the app's
            # lifespan as uvicorn does when its own bind fails, and let the caller say why.
            await self.lifespan.shutdown()
            raise
        if self.started:
            self._on_serving()

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        if self._on_stop is not None and self.started and not self.force_exit:
            await self._on_stop(lambda: self.force_exit)
        await super().shutdown(sockets)
        if self.force_exit:
            # A second Ctrl+C (a terminal's often arrives twice) makes uvicorn skip the app's
            # lifespan shutdown, and the loop's teardown then cancels it mid-wait: a traceback
            # for a deliberate stop, and the app's resources left open. End it anyway, briefly.
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.lifespan.shutdown(), FORCED_SHUTDOWN_SECONDS)


@dataclass
class Running:
    origin: str
    port: int
    server: uvicorn.Server
    thread: threading.Thread
    sock: socket.socket

    def stop(self) -> None:
        """Stop the server and wait for its thread; safe to call twice."""
        self.server.should_exit = True
        if self.thread.is_alive():
            self.thread.join(timeout=10)
        self.sock.close()


@contextmanager
def serve_in_thread(
    app: Any,
    *,
    host: str = "127.0.0.1",
    port: int = 0,
    name: str = "server",
    http: type[asyncio.Protocol] | None = None,
    lifespan: Lifespan = "on",
    limits: ConnectionLimits | None = None,
    choice: runtime.Runtime | None = None,
) -> Iterator[Running]:
    sock = bind(host, port)
    server = uvicorn.Server(config(app, http=http, lifespan=lifespan, limits=limits, choice=choice))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, name=name, daemon=True)
    port = sock.getsockname()[1]
    running = Running(origin(host, port), port, server, thread, sock)
    thread.start()
    deadline = time.monotonic() + 15
    while not server.started:  # the server's own flag: connecting would count as a connection
        if not thread.is_alive() or time.monotonic() > deadline:
            running.stop()
            raise RuntimeError(f"the {name} did not start")
        time.sleep(0.005)
    try:
        yield running
    finally:
        running.stop()
