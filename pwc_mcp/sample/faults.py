"""Fault injection for the sample catalog: failures, oversize and invalid bodies, gzip bombs,
dripped bodies and latency, applied by a middleware in front of the ``/api/v1`` routes.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
import zlib
from dataclasses import dataclass

from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from pwc_mcp.sample.stats import Stats

OVERSIZE_BYTES = 2 * 1024 * 1024 + 1  # one byte over the clients' 2 MiB response ceiling


@dataclass
class _Rule:
    kind: str
    remaining: int
    prefix: str
    status: int = 500
    with_length: bool = True
    body: bytes = b""
    encoding: str = ""
    interval: float = 0.0
    pieces: int = 1


class Faults:
    """Mutable, thread-safe fault injection applied to ``/api/v1`` requests.

    ``latency`` (seconds) delays every response; each rule answers the next ``times`` requests
    whose path (relative to /api/v1, e.g. ``papers/search``) starts with ``path_prefix``.
    """

    def __init__(self, latency: float = 0.0) -> None:
        self._lock = threading.Lock()
        self._rules: list[_Rule] = []
        self.latency = latency

    def _add(self, rule: _Rule) -> None:
        if rule.remaining <= 0:
            return
        prefix = rule.prefix.lstrip("/")
        rule.prefix = prefix.removeprefix("api/v1/")
        with self._lock:
            self._rules.append(rule)

    def fail(self, status: int = 500, times: int = 1, path_prefix: str = "") -> None:
        """Answer ``status`` with ``{"detail": "injected failure"}``."""
        self._add(_Rule("fail", times, path_prefix, status=status))

    def oversize(self, times: int = 1, path_prefix: str = "", with_length: bool = True) -> None:
        """Answer with 2 MiB + 1 byte, announced by Content-Length or (``with_length=False``) chunked."""
        self._add(_Rule("oversize", times, path_prefix, with_length=with_length))

    def invalid_json(self, times: int = 1, path_prefix: str = "") -> None:
        """Answer 200 ``application/json`` with a truncated JSON body."""
        self._add(_Rule("invalid_json", times, path_prefix))

    def bomb(
        self, decoded_bytes: int, layers: int = 2, times: int = 1, path_prefix: str = ""
    ) -> None:
        """Answer 200 with ``decoded_bytes`` zeros gzipped ``layers`` times and announced as
        ``Content-Encoding: gzip, gzip, ...`` (256 MiB in two layers is under 1 KB)."""
        body = _gzip_zeros(decoded_bytes)
        for _ in range(layers - 1):
            body = _gzip(body)
        encoding = ", ".join(["gzip"] * layers)
        self._add(_Rule("bomb", times, path_prefix, body=body, encoding=encoding))

    def drip(
        self, interval: float, pieces: int = 20, times: int = 1, path_prefix: str = ""
    ) -> None:
        """Send the real answer's body in ``pieces`` parts, ``interval`` seconds apart (the
        headers go at once), like an upstream that stalls mid-body without ever going quiet."""
        self._add(_Rule("drip", times, path_prefix, interval=interval, pieces=pieces))

    def reset(self) -> None:
        """Drop pending rules and set latency back to 0."""
        with self._lock:
            self._rules.clear()
            self.latency = 0.0

    def take(self, path: str) -> _Rule | None:
        """Consume one use of the first rule matching ``path``, or None."""
        with self._lock:
            for rule in self._rules:
                if path.startswith(rule.prefix):
                    rule.remaining -= 1
                    if rule.remaining <= 0:
                        self._rules.remove(rule)
                    return rule
        return None


def _gzip(data: bytes) -> bytes:
    return zlib.compress(data, 9, wbits=31)


def _gzip_zeros(size: int) -> bytes:
    """gzip of ``size`` zero bytes, compressed a MiB at a time (never ``size`` bytes in memory)."""
    deflate = zlib.compressobj(9, zlib.DEFLATED, 31)
    block = bytes(min(size, 1 << 20))
    parts = [
        deflate.compress(block[: min(len(block), size - done)]) for done in range(0, size, 1 << 20)
    ]
    return b"".join(parts) + deflate.flush()


async def _drip(app: ASGIApp, rule: _Rule, scope: Scope, receive: Receive, send: Send) -> None:
    gone = asyncio.Event()  # the client hung up: stop dripping (no sleeping until shutdown)

    async def watch() -> None:
        while (await receive())["type"] != "http.disconnect":
            pass
        gone.set()

    watcher: asyncio.Task[None] | None = None

    async def slow(message: Message) -> None:
        nonlocal watcher
        if message["type"] != "http.response.body":
            await send(message)
            return
        if watcher is None:  # the app has read its request by now: receive is free to watch
            watcher = asyncio.create_task(watch())
        body = message.get("body", b"")
        size = max(1, -(-len(body) // max(1, rule.pieces)))
        for start in range(0, len(body), size):
            if gone.is_set():
                return
            piece = body[start : start + size]
            await send({"type": message["type"], "body": piece, "more_body": True})
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(gone.wait(), rule.interval)
        more = message.get("more_body", False)
        await send({"type": message["type"], "body": b"", "more_body": more})

    try:
        await app(scope, receive, slow)
    finally:
        if watcher is not None:
            watcher.cancel()


def _fault_response(rule: _Rule) -> Response:
    if rule.kind == "bomb":
        headers = {"content-encoding": rule.encoding}
        return Response(rule.body, media_type="application/json", headers=headers)
    if rule.kind == "fail":
        return JSONResponse({"detail": "injected failure"}, status_code=rule.status)
    if rule.kind == "invalid_json":
        return Response(b'{"count": 1, "results": [{"id": "1",', media_type="application/json")
    head = b'{"count":0,"results":[],"padding":"'
    body = head + b"x" * (OVERSIZE_BYTES - len(head) - 2) + b'"}'
    if rule.with_length:
        return Response(body, media_type="application/json")
    # No Content-Length: the client must enforce its ceiling while reading a chunked body.
    chunks = (body[i : i + 65536] for i in range(0, len(body), 65536))
    return StreamingResponse(chunks, media_type="application/json")


class FaultMiddleware:
    """Counts /api/v1 requests, then applies latency and any pending fault before routing."""

    def __init__(self, app: ASGIApp, faults: Faults, stats: Stats) -> None:
        self.app, self.faults, self.stats = app, faults, stats

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        path = scope.get("path", "")
        if scope["type"] != "http" or not path.startswith("/api/v1/"):
            await self.app(scope, receive, send)
            return
        relative = path.removeprefix("/api/v1/")
        self.stats.record_request(relative)
        if self.faults.latency > 0:
            await asyncio.sleep(self.faults.latency)
        rule = self.faults.take(relative)
        if rule is not None and rule.kind == "drip":
            await _drip(self.app, rule, scope, receive, send)
            return
        await (self.app if rule is None else _fault_response(rule))(scope, receive, send)
