"""Pure-ASGI safety layers around the whole Starlette app; ``protect`` is the one entry point.

Order, outermost first (each layer only sees what the layers above let through):

1. ``OpsLog`` (telemetry) - one content-free line per request to /mcp, whatever answers it
   (preflights excepted), so refusals below are visible to operators too.
2. ``HostGuard`` - every path: Host must match ``allowed_hosts`` (DNS-rebinding defence) -> 421.
3. ``OriginGuard`` - every path: a present, unlisted Origin -> 403 with no CORS grant; preflights
   from allowed origins are answered here (never limited or logged); allowed responses get
   ``Access-Control-Allow-Origin`` and expose ``Retry-After``.
4. ``RouteBudget`` - every request but POST /mcp spends the housekeeping budget -> 429.
5. ``MethodGuard`` - /mcp accepts POST only -> 405 ``Allow: POST``.
   ``DrainGate`` (when the server has a drain) - POST /mcp while stopping -> 503 with
   ``Retry-After``, before it spends anything; the rest counted in flight (``pwc_mcp.edge.drain``).
6. ``McpAdmission`` - POST /mcp (``pwc_mcp.edge.admission``): size -> 413, the body within a
   deadline -> 408 (before any lease or budget, so stalled uploads hold nothing), JSON-RPC
   shape -> 400, concurrency -> 503/429, the request or housekeeping budget -> 429 with
   ``Retry-After`` from the window.
7. ``ResponseBound`` - buffers the response; over the cap -> 500 "response too large" (never a
   truncated body); an exception in the app -> 500 "internal error" with no traceback; a call
   cancelled by the shutdown -> 503 with ``Retry-After`` (``pwc_mcp.edge.drain``).
8. The app (FastMCP; ``SemanticSearchLimit`` runs inside it, as a ``ToolCalls`` check).

Budgets and identities are in ``pwc_mcp.edge.rate_limits`` and ``pwc_mcp.edge.identity``.
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Iterable

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from pwc_mcp.config import Settings
from pwc_mcp.config.hosts import split_host as _split_host  # shared with config validation
from pwc_mcp.edge.admission import (
    BODY_SECONDS,
    McpAdmission,
    RouteBudget,
    is_mcp,
    is_mcp_post,
    parsed,
)
from pwc_mcp.edge.drain import CUT, STOP_HEADERS, Drain, DrainGate
from pwc_mcp.edge.identity import header_values
from pwc_mcp.edge.jsonrpc import INTERNAL_ERROR, INVALID_REQUEST, send_error
from pwc_mcp.edge.rate_limits import RateLimiter
from pwc_mcp.edge.telemetry import Observe, OpsLog

log = logging.getLogger("pwc_mcp.guards")

CORS_METHODS = "GET, POST, OPTIONS"
CORS_HEADERS = (
    "accept, authorization, content-type, last-event-id, mcp-method, mcp-name, mcp-protocol-version"
)
CORS_EXPOSE = "retry-after"
CORS_MAX_AGE = "600"
LOOPBACK_ORIGIN = re.compile(r"http://(localhost|127\.0\.0\.1|\[::1\])(:[0-9]{1,5})?")


# -- 2. Host ---------------------------------------------------------------------------------


class HostGuard:
    """Host allowlist: ``host:port`` exact, ``host:*`` any port (or none), ``host`` no port."""

    def __init__(self, app: ASGIApp, allowed_hosts: Iterable[str]) -> None:
        self.app = app
        self.allowed: list[tuple[str, str | None]] = []
        for item in allowed_hosts:
            parsed = _split_host(item, entry=True)
            if parsed is None:
                raise ValueError(
                    f"invalid allowed host entry: {item!r} (use host, host:port, host:*)"
                )
            self.allowed.append(parsed)

    def allows(self, value: str) -> bool:
        parsed = _split_host(value, entry=False)
        if parsed is None:
            return False
        host, port = parsed
        return any(h == host and (p == "*" or p == port) for h, p in self.allowed)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            hosts = header_values(scope, b"host")
            if len(hosts) != 1 or not self.allows(hosts[0]):
                await send_error(
                    send, 421, INVALID_REQUEST, "misdirected request: host not allowed"
                )
                return
        await self.app(scope, receive, send)


# -- 3. Origin and CORS ------------------------------------------------------------------------


class OriginGuard:
    """Strict Origin allowlist plus the CORS answers for allowed origins (no wildcard, ever)."""

    def __init__(self, app: ASGIApp, allowed_origins: Iterable[str] | None) -> None:
        self.app = app
        # None = unset: browser tools on this machine only (the Inspector, local UIs).
        self.allowed = None if allowed_origins is None else {o.lower() for o in allowed_origins}

    def allows(self, origin: str) -> bool:
        origin = origin.strip().lower()
        if self.allowed is None:
            return LOOPBACK_ORIGIN.fullmatch(origin) is not None
        return origin in self.allowed

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        origins = header_values(scope, b"origin")
        if not origins:  # native clients send no Origin
            await self.app(scope, receive, send)
            return
        if len(origins) != 1 or not self.allows(origins[0]):
            await send_error(send, 403, INVALID_REQUEST, "forbidden: origin not allowed")
            return
        grant = [
            (b"access-control-allow-origin", origins[0].strip().encode("latin-1")),
            (b"vary", b"Origin"),
        ]
        if scope["method"] == "OPTIONS" and header_values(scope, b"access-control-request-method"):
            await send(
                {
                    "type": "http.response.start",
                    "status": 204,
                    "headers": [
                        *grant,
                        (b"access-control-allow-methods", CORS_METHODS.encode()),
                        (b"access-control-allow-headers", CORS_HEADERS.encode()),
                        (b"access-control-max-age", CORS_MAX_AGE.encode()),
                    ],
                }
            )
            await send({"type": "http.response.body", "body": b""})
            return

        async def with_grant(message: Message) -> None:
            if message["type"] == "http.response.start":
                message = {
                    **message,
                    "headers": [
                        *message.get("headers", ()),
                        *grant,
                        (b"access-control-expose-headers", CORS_EXPOSE.encode()),
                    ],
                }
            await send(message)

        await self.app(scope, receive, with_grant)


# -- 5. Method ---------------------------------------------------------------------------------


class MethodGuard:
    """/mcp is POST only: stateless, so no SSE stream (GET) and no session to end (DELETE)."""

    def __init__(self, app: ASGIApp, mcp_path: str) -> None:
        self.app = app
        self.mcp_path = mcp_path

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and is_mcp(scope, self.mcp_path) and scope["method"] != "POST":
            await send_error(
                send,
                405,
                INVALID_REQUEST,
                "method not allowed: send JSON-RPC with POST",
                headers=[(b"allow", b"POST")],
            )
            return
        await self.app(scope, receive, send)


# -- 7. Response bound -------------------------------------------------------------------------


class ResponseBound:
    """Buffer POST /mcp responses so an oversized one is refused whole, never truncated."""

    def __init__(self, app: ASGIApp, *, max_response_bytes: int, mcp_path: str) -> None:
        self.app = app
        self.max_bytes = max_response_bytes
        self.mcp_path = mcp_path

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if not is_mcp_post(scope, self.mcp_path):
            await self.app(scope, receive, send)
            return
        start: Message | None = None
        chunks: list[bytes] = []
        size, complete, too_large = 0, False, False

        async def buffer(message: Message) -> None:
            nonlocal start, size, complete, too_large
            if message["type"] == "http.response.start":
                start = message
            elif message["type"] == "http.response.body":
                body = message.get("body", b"")
                size += len(body)
                if size > self.max_bytes:
                    too_large = True
                    chunks.clear()  # drop what we hold; keep draining the app
                elif not too_large:
                    chunks.append(body)
                complete = not message.get("more_body", False)

        admitted = parsed(scope)
        rpc_id = None if admitted is None else admitted.rpc_id
        try:
            await self.app(scope, receive, buffer)
        except asyncio.CancelledError:
            # Only a stopping server cancels a request (uvicorn, once its graceful shutdown is
            # over; a client that hangs up is told by `receive`): the request ends here, answered
            # in JSON-RPC, so uvicorn neither logs it nor sends its plain-text 500.
            log.warning("mcp call cut by the shutdown")
            await send_error(send, 503, INTERNAL_ERROR, CUT, rpc_id=rpc_id, headers=STOP_HEADERS)
            return
        except Exception as exc:  # no traceback to the client or the log: content could leak
            log.error("mcp app error type=%s", type(exc).__name__)
            await send_error(send, 500, INTERNAL_ERROR, "internal error", rpc_id=rpc_id)
            return
        if too_large:
            await send_error(
                send,
                500,
                INTERNAL_ERROR,
                f"response too large: the limit is {self.max_bytes} bytes; ask for less",
                rpc_id=rpc_id,
            )
            return
        if start is None or not complete:
            await send_error(send, 500, INTERNAL_ERROR, "internal error", rpc_id=rpc_id)
            return
        await send(start)
        await send({"type": "http.response.body", "body": b"".join(chunks)})


# -- entry point -------------------------------------------------------------------------------


def protect(
    app: ASGIApp,
    settings: Settings,
    *,
    limiter: RateLimiter,
    tool_names: frozenset[str],
    mcp_path: str = "/mcp",
    body_seconds: float = BODY_SECONDS,
    drain: Drain | None = None,
    observe: Observe | None = None,
) -> ASGIApp:
    """Wrap the whole Starlette app (every route) in the safety layers, in the documented order;
    `observe` is told how each request to /mcp ended (the ops line's labels and its seconds)."""
    path = mcp_path.rstrip("/")
    wrapped: ASGIApp = ResponseBound(
        app, max_response_bytes=settings.max_response_bytes, mcp_path=path
    )
    wrapped = McpAdmission(
        wrapped,
        limiter,
        max_request_bytes=settings.max_request_bytes,
        mcp_path=path,
        body_seconds=body_seconds,
    )
    if drain is not None:
        wrapped = DrainGate(wrapped, drain, mcp_path=path)
    wrapped = MethodGuard(wrapped, path)
    wrapped = RouteBudget(wrapped, limiter, mcp_path=path)
    wrapped = OriginGuard(wrapped, settings.allowed_origins)
    wrapped = HostGuard(wrapped, settings.allowed_hosts)
    return OpsLog(wrapped, tool_names=tool_names, mcp_path=path, observe=observe)
