"""Admission: who may spend what. ``McpAdmission`` for POST /mcp, ``RouteBudget`` for the rest.

POST /mcp, in order (nothing is held, counted or refreshed until the body has arrived):

1. a declared Content-Length over the cap -> 413 before reading (a modest excess is drained so
   the client reads the answer, not a reset); a malformed one -> 400;
2. the body, with a streaming cap (-> 413) and a deadline for the whole body (-> 408), so a
   stalled upload holds no concurrency lease and no budget: it costs only its socket;
3. the Content-Type (-> 415), the JSON-RPC shape (-> 400 -32700/-32600/-32602) and the
   MCP-Protocol-Version header (-> 400 -32022 listing the supported versions), each answered
   here with a JSON-RPC body before the SDK can answer in its own words, spending one
   housekeeping unit (429 once that budget is spent);
4. the concurrency lease: global -> 503, per identity (and per IPv6 /48) -> 429;
5. the budget of the method: MCP work spends the request budget; ``initialize``, ``ping``,
   ``server/discover`` and notifications spend the housekeeping budget -> 429 with
   ``Retry-After`` from the window.

Every other request (GET /health, /docs, /.well-known/mcp, /mcp with another method, any other
path) spends one housekeeping unit in ``RouteBudget``. Direct loopback peers (no
X-Forwarded-For: the proxy's health checks, operators) never spend housekeeping.
"""

from __future__ import annotations

import asyncio
import re
from typing import Any, NamedTuple

import anyio
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from pwc_mcp.edge.identity import header_values
from pwc_mcp.edge.jsonrpc import (
    INVALID_REQUEST,
    BadMessage,
    check_content_type,
    check_protocol_version,
    parse_message,
    send_error,
)
from pwc_mcp.edge.rate_limits import RATE_LIMITED, STATE_KEY, Client, RateLimiter, Refusal
from pwc_mcp.edge.telemetry import OPS_KEY

PARSED_KEY = "pwc_parsed"  # scope["state"]: the admitted message, `Parsed`
BODY_SECONDS = 10.0  # the whole body must arrive within this (2 MiB at >= 205 KiB/s)
DRAIN_FACTOR = 4  # refused bodies up to 4x the cap are read and discarded, not reset
DRAIN_SECONDS = 5.0
DIGITS = re.compile(r"[0-9]{1,19}")
HOUSEKEEPING = frozenset({"initialize", "ping", "server/discover"})


def is_mcp(scope: Scope, mcp_path: str) -> bool:
    return scope["path"].rstrip("/") == mcp_path


def is_mcp_post(scope: Scope, mcp_path: str) -> bool:
    """Only POST /mcp carries MCP messages."""
    return scope["type"] == "http" and scope["method"] == "POST" and is_mcp(scope, mcp_path)


def counts_against_budget(method: str) -> bool:
    """Protocol housekeeping has its own budget; everything else (unknown methods too) is work."""
    return method not in HOUSEKEEPING and not method.startswith("notifications/")


async def send_refusal(send: Send, refusal: Refusal, rpc_id: str | int | None = None) -> None:
    await send_error(
        send,
        refusal.status,
        RATE_LIMITED,
        refusal.message,
        rpc_id=rpc_id,
        headers=[(b"retry-after", str(refusal.retry_after).encode())],
    )


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


class BodyTooLarge(Exception):
    def __init__(self, more: bool, seen: int) -> None:
        super().__init__("body too large")
        self.more, self.seen = more, seen


async def read_body(receive: Receive, max_bytes: int, seconds: float) -> bytes | None:
    """The whole body, or None if the client went away.

    Raises TimeoutError past ``seconds`` and BodyTooLarge past ``max_bytes`` (chunked uploads
    have no Content-Length to trust).
    """
    chunks: list[bytes] = []
    size = 0
    async with asyncio.timeout(seconds):  # a third of anyio.fail_after's cost, on every request
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return None
            chunk = message.get("body", b"")
            size += len(chunk)
            more = message.get("more_body", False)
            if size > max_bytes:
                raise BodyTooLarge(more, size)
            chunks.append(chunk)
            if not more:
                return b"".join(chunks)


class Parsed(NamedTuple):
    """The message of an admitted POST /mcp, parsed once, here, for the layers inside: the
    body as it reaches them, its message as `parse_message` read it, its method and tool."""

    body: bytes
    message: dict[str, Any]
    method: str
    tool: str | None

    @classmethod
    def read(cls, body: bytes) -> Parsed:
        """`body` parsed and shape-checked by `parse_message` (which raises BadMessage)."""
        return cls(body, *parse_message(body))

    @property
    def rpc_id(self) -> str | int | None:
        """The request's id (for the error bodies of the layers inside); None for a
        notification."""
        rpc_id: str | int | None = self.message.get("id")
        return rpc_id


def parsed(scope: Scope) -> Parsed | None:
    """The admitted message of this request, if admission let it through."""
    found = scope.get("state", {}).get(PARSED_KEY)
    return found if isinstance(found, Parsed) else None


class McpAdmission:
    def __init__(
        self,
        app: ASGIApp,
        limiter: RateLimiter,
        *,
        max_request_bytes: int,
        mcp_path: str,
        body_seconds: float = BODY_SECONDS,
    ) -> None:
        self.app = app
        self.limiter = limiter
        self.max_bytes = max_request_bytes
        self.drain_bytes = DRAIN_FACTOR * max_request_bytes
        self.mcp_path = mcp_path
        self.body_seconds = body_seconds

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if not is_mcp_post(scope, self.mcp_path):
            await self.app(scope, receive, send)
            return
        lengths = header_values(scope, b"content-length")
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
        try:
            body = await read_body(receive, self.max_bytes, self.body_seconds)
        except TimeoutError:
            late = f"request timeout: send the whole body within {self.body_seconds:g} s"
            await _refuse_body(send, 408, late)
            return
        except BodyTooLarge as too_large:
            if too_large.more:
                await drain(receive, self.drain_bytes - too_large.seen)
            await self._too_large(send)
            return
        if body is None:
            return
        state = scope.setdefault("state", {})
        client = state[STATE_KEY] = self.limiter.identify(scope)
        try:
            check_content_type(header_values(scope, b"content-type"))
            admitted = Parsed.read(body)
            check_protocol_version(header_values(scope, b"mcp-protocol-version"), admitted.rpc_id)
        except BadMessage as bad:
            refusal = await self.limiter.hit_housekeeping(client)
            if refusal is not None:
                await send_refusal(send, refusal, bad.rpc_id)
            else:
                await send_error(
                    send, bad.status, bad.code, bad.message, rpc_id=bad.rpc_id, data=bad.data
                )
            return
        state[PARSED_KEY] = admitted
        rpc_id = admitted.rpc_id
        ops = state.get(OPS_KEY)
        if isinstance(ops, dict):
            ops.update(method=admitted.method, tool=admitted.tool)
        lease = self.limiter.acquire(client)
        if isinstance(lease, Refusal):
            await send_refusal(send, lease, rpc_id)
            return
        try:
            refusal = await self._spend(client, admitted.method)
            if refusal is not None:
                await send_refusal(send, refusal, rpc_id)
                return
            request = {"type": "http.request", "body": body, "more_body": False}
            await self.app(scope, replaying(request, receive), send)
        finally:
            self.limiter.release(lease)

    async def _spend(self, client: Client, method: str) -> Refusal | None:
        if counts_against_budget(method):
            return await self.limiter.hit_request(client)
        return await self.limiter.hit_housekeeping(client)

    async def _too_large(self, send: Send) -> None:
        await _refuse_body(send, 413, f"request too large: the limit is {self.max_bytes} bytes")


async def _refuse_body(send: Send, status: int, message: str) -> None:
    """A request body refused at the HTTP level; the connection closes, as the rest of the body
    is not read."""
    await send_error(send, status, INVALID_REQUEST, message, headers=[(b"connection", b"close")])


def replaying(first: Message, receive: Receive) -> Receive:
    """The message already read, then whatever the connection says next (e.g. a disconnect):
    for the app behind a layer that read the request."""
    replayed = False

    async def replay() -> Message:
        nonlocal replayed
        if not replayed:
            replayed = True
            return first
        return await receive()

    return replay


class RouteBudget:
    """Every request other than POST /mcp spends one housekeeping unit (429 once spent)."""

    def __init__(self, app: ASGIApp, limiter: RateLimiter, *, mcp_path: str) -> None:
        self.app = app
        self.limiter = limiter
        self.mcp_path = mcp_path

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and not is_mcp_post(scope, self.mcp_path):
            refusal = await self.limiter.hit_housekeeping(self.limiter.identify(scope))
            if refusal is not None:
                await send_refusal(send, refusal)
                return
        await self.app(scope, receive, send)
