"""Pure-ASGI safety layers around the whole Starlette app; ``protect`` is the one entry point.

Order, outermost first (each layer only sees what the layers above let through):

1. ``OpsLog`` (telemetry) - one content-free line per request to /mcp, whatever answers it
   (preflights excepted), so refusals below are visible to operators too.
2. ``HostGuard`` - every path: Host must match ``allowed_hosts`` (DNS-rebinding defence) -> 421.
3. ``OriginGuard`` - every path: a present, unlisted Origin -> 403 with no CORS grant; preflights
   from allowed origins are answered here (never limited or logged); allowed responses get
   ``Access-Control-Allow-Origin`` and expose ``Retry-After``.
4. ``MethodGuard`` - /mcp accepts POST only -> 405 ``Allow: POST``.
5. ``McpAdmission`` - POST /mcp: declared Content-Length over the cap -> 413 before parsing
   (a modest excess is drained first so the client reads the answer, not a reset); identity
   (hashed, stored in ``scope["state"]["pwc_client"]``); global -> 503 and per-identity
   concurrency -> 429 (held while the body is read, so slow uploads count); the body read with a
   streaming cap -> 413; JSON-RPC shape -> 400 (-32700/-32600/-32602); the per-minute request
   budget -> 429 with ``Retry-After`` from the window. Refusals by the layers above, and
   malformed or oversized bodies, never consume budget.
6. ``ResponseBound`` - buffers the response; over the cap -> 500 "response too large" (never a
   truncated body); an exception in the app -> 500 "internal error" with no traceback.
7. The app (FastMCP; ``SemanticSearchLimit`` runs inside it, as a ``ToolCalls`` check).

The request budget counts real MCP work: every method except ``initialize``, ``ping``,
``server/discover`` and ``notifications/*`` (so unknown methods are counted, not free).
Concurrency limits apply to every POST.
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Iterable
from typing import Any

import anyio
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from pwc_mcp.config import Settings
from pwc_mcp.limits import RATE_LIMITED, SEMANTIC_TOOL, STATE_KEY, RateLimiter, Refusal
from pwc_mcp.telemetry import OPS_KEY, OpsLog

log = logging.getLogger("pwc_mcp.guards")

PARSE_ERROR, INVALID_REQUEST, INVALID_PARAMS, INTERNAL_ERROR = -32700, -32600, -32602, -32603
RPC_ID_KEY = "pwc_rpc_id"  # scope["state"]: the request id, for error bodies of inner layers
MAX_JSON_DEPTH = 64
DRAIN_FACTOR = 4  # refused bodies up to 4x the cap are read and discarded, not reset
DRAIN_SECONDS = 5.0
HOUSEKEEPING = frozenset({"initialize", "ping", "server/discover"})
CORS_METHODS = "GET, POST, OPTIONS"
CORS_HEADERS = (
    "accept, authorization, content-type, last-event-id, mcp-method, mcp-name, mcp-protocol-version"
)
CORS_EXPOSE = "retry-after"
CORS_MAX_AGE = "600"
LOOPBACK_ORIGIN = re.compile(r"http://(localhost|127\.0\.0\.1|\[::1\])(:[0-9]{1,5})?")
DIGITS = re.compile(r"[0-9]{1,19}")
HOST_ENTRY = re.compile(r"(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(?::([0-9]{1,5}|\*))?")


# -- helpers --------------------------------------------------------------------------------


def _headers(scope: Scope, name: bytes) -> list[str]:
    return [v.decode("latin-1") for k, v in scope.get("headers") or () if k.lower() == name]


def _is_mcp_post(scope: Scope, mcp_path: str) -> bool:
    """Only POST /mcp carries MCP messages; everything else passes these layers untouched."""
    return scope["type"] == "http" and scope["method"] == "POST" and _is_mcp(scope, mcp_path)


def _is_mcp(scope: Scope, mcp_path: str) -> bool:
    return scope["path"].rstrip("/") == mcp_path


async def send_error(
    send: Send,
    status: int,
    code: int,
    message: str,
    *,
    rpc_id: str | int | None = None,
    headers: Iterable[tuple[bytes, bytes]] = (),
) -> None:
    """A short JSON-RPC error body (the MCP spec allows one on transport refusals too)."""
    body = json.dumps(
        {"jsonrpc": "2.0", "id": rpc_id, "error": {"code": code, "message": message}},
        separators=(",", ":"),
    ).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                (b"cache-control", b"no-store"),
                *headers,
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


async def send_refusal(send: Send, refusal: Refusal, rpc_id: str | int | None = None) -> None:
    await send_error(
        send,
        refusal.status,
        RATE_LIMITED,
        refusal.message,
        rpc_id=rpc_id,
        headers=[(b"retry-after", str(refusal.retry_after).encode())],
    )


# -- 2. Host ---------------------------------------------------------------------------------


def _split_host(value: str, *, entry: bool) -> tuple[str, str | None] | None:
    """("host", "port" | "*" | None) from a Host header or an allowlist entry; None if malformed."""
    match = HOST_ENTRY.fullmatch(value.strip().lower())
    if match is None or (match.group(2) == "*" and not entry):
        return None
    return match.group(1), match.group(2)


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
            hosts = _headers(scope, b"host")
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
        origins = _headers(scope, b"origin")
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
        if scope["method"] == "OPTIONS" and _headers(scope, b"access-control-request-method"):
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


# -- 4. Method ---------------------------------------------------------------------------------


class MethodGuard:
    """/mcp is POST only: stateless, so no SSE stream (GET) and no session to end (DELETE)."""

    def __init__(self, app: ASGIApp, mcp_path: str) -> None:
        self.app = app
        self.mcp_path = mcp_path

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and _is_mcp(scope, self.mcp_path) and scope["method"] != "POST":
            await send_error(
                send,
                405,
                INVALID_REQUEST,
                "method not allowed: send JSON-RPC with POST",
                headers=[(b"allow", b"POST")],
            )
            return
        await self.app(scope, receive, send)


# -- 5. Size, identity, limits, JSON-RPC shape -------------------------------------------------


class BadMessage(Exception):
    def __init__(self, code: int, message: str, rpc_id: str | int | None = None) -> None:
        super().__init__(message)
        self.code, self.message, self.rpc_id = code, message, rpc_id


def _valid_id(value: Any) -> bool:
    return (isinstance(value, int) and not isinstance(value, bool)) or (
        isinstance(value, str) and len(value) <= 256
    )


def _too_deep(value: Any, limit: int = MAX_JSON_DEPTH) -> bool:
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        children = (
            item.values() if isinstance(item, dict) else item if isinstance(item, list) else ()
        )
        if children and depth >= limit:
            return True
        stack.extend((child, depth + 1) for child in children)
    return False


def _reject_constant(name: str) -> Any:
    raise ValueError(f"non-standard JSON constant {name}")


def parse_message(body: bytes) -> tuple[dict[str, Any], str, str | None]:
    """Parse and shape-check one JSON-RPC message: (message, method, tool name or None).

    Only what this layer relies on is checked (the rate limiter and telemetry read ``method``,
    ``params.name`` and ``arguments.mode``); the SDK validates the rest.
    """
    try:
        message = json.loads(body, parse_constant=_reject_constant)
    except RecursionError:
        raise BadMessage(INVALID_REQUEST, "invalid request: JSON nested too deeply") from None
    except ValueError:
        raise BadMessage(PARSE_ERROR, "parse error: body is not valid JSON") from None
    if isinstance(message, list):
        raise BadMessage(INVALID_REQUEST, "invalid request: batches are not supported")
    if not isinstance(message, dict):
        raise BadMessage(INVALID_REQUEST, "invalid request: expected a JSON-RPC object")
    if _too_deep(message):
        raise BadMessage(INVALID_REQUEST, "invalid request: JSON nested too deeply")
    has_id = "id" in message
    if has_id and not _valid_id(message["id"]):
        raise BadMessage(INVALID_REQUEST, "invalid request: id must be a string or an integer")
    rpc_id = message["id"] if has_id else None
    if message.get("jsonrpc") != "2.0":
        raise BadMessage(INVALID_REQUEST, 'invalid request: jsonrpc must be "2.0"', rpc_id)
    method = message.get("method")
    if not isinstance(method, str) or not 0 < len(method) <= 128:
        raise BadMessage(INVALID_REQUEST, "invalid request: method must be a string", rpc_id)
    if not has_id and not method.startswith("notifications/"):
        raise BadMessage(INVALID_REQUEST, "invalid request: id is required", rpc_id)
    params = message.get("params")
    if params is not None and not isinstance(params, dict):
        raise BadMessage(INVALID_PARAMS, "invalid params: params must be an object", rpc_id)
    params = params or {}
    if params.get("_meta") is not None and not isinstance(params["_meta"], dict):
        raise BadMessage(INVALID_PARAMS, "invalid params: _meta must be an object", rpc_id)
    tool = None
    if method in ("tools/call", "prompts/get"):
        name, arguments = params.get("name"), params.get("arguments")
        if not isinstance(name, str):
            raise BadMessage(INVALID_PARAMS, "invalid params: name must be a string", rpc_id)
        if arguments is not None and not isinstance(arguments, dict):
            raise BadMessage(INVALID_PARAMS, "invalid params: arguments must be an object", rpc_id)
        if method == "tools/call":
            tool = name
            mode = (arguments or {}).get("mode")
            if name == SEMANTIC_TOOL and mode is not None and not isinstance(mode, str):
                raise BadMessage(INVALID_PARAMS, "invalid params: mode must be a string", rpc_id)
    elif method == "resources/read" and not isinstance(params.get("uri"), str):
        raise BadMessage(INVALID_PARAMS, "invalid params: uri must be a string", rpc_id)
    return message, method, tool


async def drain(receive: Receive, limit: int, timeout: float = DRAIN_SECONDS) -> None:
    """Read and discard the rest of a refused body, bounded in bytes and time.

    Closing a socket with unread data makes the kernel send a reset, and the client then never
    sees our answer; uvicorn stops delivering the body once a response is complete, so this
    runs before the refusal is sent.
    """
    seen = 0
    with anyio.move_on_after(timeout):
        while seen <= limit:
            message = await receive()
            if message["type"] != "http.request":
                return
            seen += len(message.get("body", b""))
            if not message.get("more_body", False):
                return


def counts_against_budget(method: str) -> bool:
    """Protocol housekeeping is free; everything else (including unknown methods) is counted."""
    return method not in HOUSEKEEPING and not method.startswith("notifications/")


class McpAdmission:
    def __init__(
        self, app: ASGIApp, limiter: RateLimiter, *, max_request_bytes: int, mcp_path: str
    ) -> None:
        self.app = app
        self.limiter = limiter
        self.max_bytes = max_request_bytes
        self.drain_bytes = DRAIN_FACTOR * max_request_bytes
        self.mcp_path = mcp_path

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if not _is_mcp_post(scope, self.mcp_path):
            await self.app(scope, receive, send)
            return
        lengths = _headers(scope, b"content-length")
        if len(lengths) > 1 or (lengths and not DIGITS.fullmatch(lengths[0].strip())):
            await send_error(send, 400, INVALID_REQUEST, "invalid request: bad Content-Length")
            return
        if lengths and int(lengths[0]) > self.max_bytes:
            # Refused on the declared size alone, before any parsing; a modest excess is
            # drained so the client reads the 413 instead of a connection reset.
            if int(lengths[0]) <= self.drain_bytes:
                await drain(receive, self.drain_bytes)
            await self._too_large(send)
            return
        state = scope.setdefault("state", {})
        client = state[STATE_KEY] = self.limiter.identify(scope)
        lease = self.limiter.acquire(client)
        if isinstance(lease, Refusal):
            await drain(receive, self.max_bytes)
            await send_refusal(send, lease)
            return
        try:
            await self._admitted(scope, receive, send, client, state)
        finally:
            self.limiter.release(lease)

    async def _admitted(
        self, scope: Scope, receive: Receive, send: Send, client: str, state: dict[str, Any]
    ) -> None:
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.max_bytes:  # chunked uploads have no Content-Length to trust
                if message.get("more_body", False):
                    await drain(receive, self.drain_bytes - size)
                await self._too_large(send)
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        try:
            message, method, tool = parse_message(body)
        except BadMessage as bad:
            await send_error(send, 400, bad.code, bad.message, rpc_id=bad.rpc_id)
            return
        rpc_id = message.get("id")
        state[RPC_ID_KEY] = rpc_id
        ops = state.get(OPS_KEY)
        if isinstance(ops, dict):
            ops.update(method=method, tool=tool)
        if counts_against_budget(method):
            refusal = await self.limiter.hit_request(client)
            if refusal is not None:
                await send_refusal(send, refusal, rpc_id)
                return
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)

    async def _too_large(self, send: Send) -> None:
        await send_error(
            send,
            413,
            INVALID_REQUEST,
            f"request too large: the limit is {self.max_bytes} bytes",
            headers=[(b"connection", b"close")],
        )


# -- 6. Response bound -------------------------------------------------------------------------


class ResponseBound:
    """Buffer POST /mcp responses so an oversized one is refused whole, never truncated."""

    def __init__(self, app: ASGIApp, *, max_response_bytes: int, mcp_path: str) -> None:
        self.app = app
        self.max_bytes = max_response_bytes
        self.mcp_path = mcp_path

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if not _is_mcp_post(scope, self.mcp_path):
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

        rpc_id = scope.get("state", {}).get(RPC_ID_KEY)
        try:
            await self.app(scope, receive, buffer)
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
) -> ASGIApp:
    """Wrap the whole Starlette app (every route) in the safety layers, in the documented order."""
    path = mcp_path.rstrip("/")
    wrapped: ASGIApp = ResponseBound(
        app, max_response_bytes=settings.max_response_bytes, mcp_path=path
    )
    wrapped = McpAdmission(
        wrapped, limiter, max_request_bytes=settings.max_request_bytes, mcp_path=path
    )
    wrapped = MethodGuard(wrapped, path)
    wrapped = OriginGuard(wrapped, settings.allowed_origins)
    wrapped = HostGuard(wrapped, settings.allowed_hosts)
    return OpsLog(wrapped, tool_names=tool_names, mcp_path=path)
