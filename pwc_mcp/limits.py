"""All rate-limit and concurrency logic, shared by the ASGI guards and the FastMCP middleware.

* Requests per minute and semantic searches per minute: ``limits`` moving windows (exact, and
  ``Retry-After`` is when the oldest hit leaves the window, never a constant). Storage is
  in-process memory by default; a ``redis://`` URI in ``Settings.rate_limit_storage`` shares these
  two windows between replicas.
* Concurrency per identity and overall: in-process counters. They bound this process's event
  loop and thread pool, so they stay per process even with Redis (N replicas admit N x global).
* The semantic limit is a FastMCP middleware (``SemanticSearchLimit``) so the agent gets an
  ``isError`` result telling it when to retry and that ``mode="keyword"`` is not limited.
"""

from __future__ import annotations

import hashlib
import logging
import math
import time
from dataclasses import dataclass
from typing import Any

import anyio.to_thread
from fastmcp.exceptions import ToolError
from fastmcp.server.dependencies import get_http_request
from limits import RateLimitItem, RateLimitItemPerMinute
from limits.aio.strategies import MovingWindowRateLimiter
from limits.storage import storage_from_string
from limits.strategies import MovingWindowRateLimiter as SyncMovingWindow

from pwc_mcp.config import Settings
from pwc_mcp.identity import IdentityHasher, IdentityTable, Slot, client_identity

log = logging.getLogger("pwc_mcp.limits")

RATE_LIMITED = -32029  # JSON-RPC code of every rate-limit refusal
SEMANTIC_TOOL = "search_papers"
STATE_KEY = "pwc_client"  # scope["state"] key holding the hashed identity
NAMESPACE = "pwc-mcp"


@dataclass(frozen=True)
class Refusal:
    """Why a request is not admitted: HTTP status, seconds to wait, and an agent-facing message."""

    status: int
    retry_after: int
    message: str


def identity_key(settings: Settings) -> bytes | None:
    """The identity-hash key: random per process, unless limits are shared between replicas.

    Shared (Redis) windows need every replica to hash a client alike, so the key is derived from
    the cursor secret the replicas already share; domain separation keeps that secret unexposed.
    None means "random per process".
    """
    if settings.rate_limit_storage.startswith("memory://"):
        return None
    if settings.cursor_key_ephemeral:
        log.warning(
            "shared rate-limit storage without PWC_MCP_CURSOR_KEY_CURRENT: "
            "identities hash differently per replica, so limits are not shared"
        )
        return None
    return hashlib.blake2b(
        settings.cursor_key_current, digest_size=32, person=b"pwc-mcp-identity"
    ).digest()


def is_semantic_search(arguments: Any) -> bool:
    """search_papers arguments that cost a semantic slot: any mode but "keyword" (omitted = hybrid)."""
    mode = arguments.get("mode") if isinstance(arguments, dict) else None
    return mode != "keyword"


class RateLimiter:
    """Per-identity request/semantic windows plus per-identity and global concurrency."""

    def __init__(self, settings: Settings, *, table_size: int = 10_000) -> None:
        self.trusted_proxies = settings.trusted_proxy_cidrs
        self.request_item: RateLimitItem = RateLimitItemPerMinute(settings.request_limit)
        self.semantic_item: RateLimitItem = RateLimitItemPerMinute(settings.semantic_limit)
        self.concurrency_limit = settings.concurrency_limit
        self.global_limit = settings.global_concurrency_limit
        self.storage_uri = settings.rate_limit_storage
        self.hash = IdentityHasher(identity_key(settings))
        self.table = IdentityTable(table_size)
        self.global_active = 0
        self._window: MovingWindowRateLimiter | SyncMovingWindow | None = None

    # -- identity -------------------------------------------------------------------------
    def identify(self, scope: dict[str, Any]) -> str:
        """The hashed identity of an ASGI request (never the raw address)."""
        return self.hash(client_identity(scope, self.trusted_proxies))

    # -- concurrency (synchronous: check-and-increment must not yield to the loop) ------------
    def acquire(self, client: str) -> Slot | Refusal:
        if self.global_active >= self.global_limit:
            return Refusal(503, 1, "server_busy: too many requests in flight; retry in 1 s")
        slot = self.table.get(client)
        if slot is None:
            wait = self.table.seconds_until_room()
            return Refusal(429, wait, f"rate_limited: too many active clients; retry in {wait} s")
        if slot.active >= self.concurrency_limit:
            return Refusal(429, 1, "rate_limited: too many concurrent requests; retry in 1 s")
        slot.active += 1
        self.global_active += 1
        return slot

    def release(self, slot: Slot) -> None:
        slot.active -= 1
        slot.last_seen = self.table.clock()
        self.global_active -= 1

    # -- windows --------------------------------------------------------------------------
    async def hit_request(self, client: str) -> Refusal | None:
        wait = await self._hit(self.request_item, "request", client)
        if wait is None:
            return None
        return Refusal(429, wait, f"rate_limited: request limit reached; retry in {wait} s")

    async def hit_semantic(self, client: str) -> int | None:
        """None if admitted, else the seconds until a semantic slot frees up."""
        return await self._hit(self.semantic_item, "semantic", client)

    async def _hit(self, item: RateLimitItem, kind: str, client: str) -> int | None:
        try:
            window = self._strategy()
            if isinstance(window, SyncMovingWindow):  # in memory: microseconds, no await
                if window.hit(item, NAMESPACE, kind, client):
                    return None
                stats = window.get_window_stats(item, NAMESPACE, kind, client)
            elif await window.hit(item, NAMESPACE, kind, client):
                return None
            else:
                stats = await window.get_window_stats(item, NAMESPACE, kind, client)
        except Exception as exc:  # storage down: fail open; concurrency limits still hold
            log.warning("rate-limit storage error type=%s; request admitted", type(exc).__name__)
            return None
        # A hit frees its slot strictly after reset_time (the window bound is inclusive), so
        # round down and add one: a client that waits exactly Retry-After gets through.
        return max(1, math.floor(stats.reset_time - time.time()) + 1)

    def _strategy(self) -> MovingWindowRateLimiter | SyncMovingWindow:
        # In memory, the synchronous storage: the async one hops to a worker thread on every
        # expiry sweep, which the benchmark's profile showed on every call. Shared storages
        # (Redis) do network I/O and stay async; they are built on first use because async
        # storages bind to the event loop that serves requests.
        if self._window is None:
            if self.storage_uri.startswith("memory://"):
                self._window = SyncMovingWindow(storage_from_string(self.storage_uri))
            else:
                uri = "async+" + self.storage_uri
                self._window = MovingWindowRateLimiter(
                    storage_from_string(uri, implementation="redispy")
                )
        return self._window


class SemanticSearchLimit:
    """Semantic/hybrid ``search_papers`` calls per identity per minute, checked before a tool
    call runs (``pwc_mcp.server.ToolCalls`` calls ``check``).

    A refusal is a ToolError (isError result), so the agent reads how long to wait and that
    keyword mode remains available, instead of a transport error it may not surface.
    """

    def __init__(self, limiter: RateLimiter, tool: str = SEMANTIC_TOOL) -> None:
        self.limiter = limiter
        self.tool = tool

    async def check(self, message: Any) -> None:
        if getattr(message, "name", None) != self.tool or not is_semantic_search(
            getattr(message, "arguments", None)
        ):
            return
        client = self._client()
        if client is None:
            return
        wait = await self.limiter.hit_semantic(client)
        if wait is not None:
            raise ToolError(
                f"rate_limited: semantic search limit reached; retry in {wait} s, "
                'or use mode="keyword", which is not limited'
            )

    def _client(self) -> str | None:
        try:
            request = get_http_request()
        except RuntimeError:  # in-memory or stdio: no network client to limit
            return None
        client = request.scope.get("state", {}).get(STATE_KEY)
        return client if isinstance(client, str) else self.limiter.identify(request.scope)


def configure_thread_pool(settings: Settings) -> None:
    """Size anyio's default thread limiter (it runs sync tools); call inside the app lifespan."""
    limiter = anyio.to_thread.current_default_thread_limiter()
    limiter.total_tokens = max(40, settings.global_concurrency_limit)
