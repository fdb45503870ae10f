"""All rate-limit and concurrency logic, shared by the ASGI guards and the FastMCP middleware.

* Budgets per identity per minute (``limits`` moving windows, in ``pwc_mcp.edge.windows``; exact, and
  ``Retry-After`` is when the oldest hit leaves the window, never a constant): requests (MCP
  work), semantic searches, and housekeeping (pings, notifications, ``initialize``, malformed
  bodies and every non-MCP route: a separate, generous ``HOUSEKEEPING_FACTOR`` x the request
  budget; direct loopback peers, such as the proxy's health checks, are exempt).
* An IPv6 /64 also spends its /48's aggregate budgets, ``GROUP_FACTOR`` x each per-client one,
  concurrency included, so a site cannot multiply the limits (or fill the server) by rotating
  through its 65,536 /64s.
* Concurrency per identity and overall: in-process counters (``pwc_mcp.edge.identity.InFlight``).
  They bound this process's event loop and thread pool, so they stay per process even with
  Redis (N replicas admit N x global).
* Catalog requests per identity per minute (``pwc_mcp.edge.catalog_budget``): what its calls
  may cost the catalog; MCP work from an identity whose budget is spent is refused up front.
* The semantic limit is a FastMCP middleware (``SemanticSearchLimit``) so the agent gets an
  ``isError`` result telling it when to retry and that ``mode="keyword"`` is not limited.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import anyio.to_thread
from fastmcp.server.dependencies import get_http_request
from limits import RateLimitItem, RateLimitItemPerMinute

from pwc_mcp.config import Settings
from pwc_mcp.cursors import derived_key
from pwc_mcp.edge.catalog_budget import CatalogBudget
from pwc_mcp.edge.identity import (
    Client,
    IdentityHasher,
    InFlight,
    KnownClients,
    client_identity,
    direct_loopback,
    identity_group,
)
from pwc_mcp.edge.windows import Windows
from pwc_mcp.failures import Failure, Kind

log = logging.getLogger("pwc_mcp.limits")  # the channel keeps its name: log filters match it

RATE_LIMITED = -32029  # JSON-RPC code of every rate-limit refusal
SEMANTIC_TOOL = "search_papers"
STATE_KEY = "pwc_client"  # scope["state"] key holding the request's ``Client``
HOUSEKEEPING_FACTOR = 5  # housekeeping per minute = 5 x the request limit (300 by default)
GROUP_FACTOR = 16  # an IPv6 /48 gets 16 x each per-client budget and concurrency
Lease = tuple[str, ...]  # the in-flight keys a request holds
# What a refusal is counted as (/metrics): a budget's kind, the concurrency lease, the global
# ceiling, a spent catalog budget refused up front.
REFUSAL_KINDS = ("request", "semantic", "housekeeping", "concurrency", "busy", "catalog")


@dataclass(frozen=True)
class Refusal:
    """Why a request is not admitted: HTTP status, seconds to wait, and an agent-facing message."""

    status: int
    retry_after: int
    message: str


BUSY = Refusal(503, 1, "server_busy: too many requests in flight; retry in 1 s")


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
    return derived_key(settings.cursor_key_current, b"pwc-mcp-identity")


def upstream_refusal(wait: int) -> str:
    """The words of a refusal for a spent catalog budget, up front (429) or in a call (its kind,
    rate_limited, is said by whoever raises it)."""
    return f"catalog request budget reached; retry in {wait} s"


def is_semantic_search(arguments: Any) -> bool:
    """search_papers arguments that cost a semantic slot: any mode but "keyword" (omitted = hybrid)."""
    mode = arguments.get("mode") if isinstance(arguments, dict) else None
    return mode != "keyword"


class RateLimiter:
    """Per-identity (and per-/48) budgets plus per-identity and global concurrency."""

    def __init__(
        self,
        settings: Settings,
        *,
        table_size: int = 10_000,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.trusted_proxies = settings.trusted_proxy_cidrs
        self.budgets: dict[str, tuple[RateLimitItem, RateLimitItem]] = {
            kind: (RateLimitItemPerMinute(limit), RateLimitItemPerMinute(limit * GROUP_FACTOR))
            for kind, limit in (
                ("request", settings.request_limit),
                ("semantic", settings.semantic_limit),
                ("housekeeping", settings.request_limit * HOUSEKEEPING_FACTOR),
            )
        }
        self.concurrency_limit = settings.concurrency_limit
        self.global_limit = settings.global_concurrency_limit
        self.hash = IdentityHasher(identity_key(settings))
        self.table = InFlight(table_size)
        self.known = KnownClients(self._identify)
        self.windows = Windows(settings.rate_limit_storage, clock=clock)
        # on the in-process windows' own clock (tests move it through pwc_mcp.edge.windows)
        self.upstream = CatalogBudget(
            settings.upstream_limit, GROUP_FACTOR, self.windows.memory.now
        )
        self.global_active = 0
        self.refusals = dict.fromkeys(REFUSAL_KINDS, 0)  # by kind, since start

    @property
    def degraded(self) -> bool:
        """True while the shared storage is failing and limits are kept in this process."""
        return self.windows.degraded

    # -- identity -------------------------------------------------------------------------
    def identify(self, scope: Mapping[str, Any]) -> Client:
        """Whom an ASGI request counts against (hashes only, never the raw address)."""
        return self.known(scope)

    def _identify(self, scope: Mapping[str, Any]) -> Client:
        identity = client_identity(scope, self.trusted_proxies)
        group = identity_group(identity)
        return Client(
            self.hash(identity),
            None if group is None else self.hash(group),
            direct_loopback(scope),
        )

    # -- concurrency (synchronous: check-and-increment must not yield to the loop) ------------
    def acquire(self, client: Client) -> Lease | Refusal:
        if self.global_active >= self.global_limit:
            self.refusals["busy"] += 1
            return BUSY
        limits = [(client.key, self.concurrency_limit)]
        if client.group is not None:
            limits.append((client.group, self.concurrency_limit * GROUP_FACTOR))
        refused = self.table.acquire(limits)
        if refused == "full":  # the table's backstop: only that many requests in flight
            self.refusals["busy"] += 1
            return BUSY
        if refused is not None:
            self.refusals["concurrency"] += 1
            return Refusal(
                429, 1, f"{Kind.RATE_LIMITED}: too many concurrent requests; retry in 1 s"
            )
        self.global_active += 1
        return tuple(key for key, _ in limits)

    def release(self, lease: Lease) -> None:
        self.table.release(lease)
        self.global_active -= 1

    # -- budgets --------------------------------------------------------------------------
    async def hit_request(self, client: Client) -> Refusal | None:
        """MCP work: refused while the client's catalog budget is spent (spending nothing),
        else one hit of its request budget."""
        spent = self.upstream.spent(client)
        if spent is not None:
            self.refusals["catalog"] += 1
            return Refusal(429, spent, f"{Kind.RATE_LIMITED}: {upstream_refusal(spent)}")
        wait = await self.hit("request", client)
        if wait is None:
            return None
        return Refusal(429, wait, f"{Kind.RATE_LIMITED}: request limit reached; retry in {wait} s")

    async def hit_housekeeping(self, client: Client) -> Refusal | None:
        """Pings, notifications, malformed bodies and non-MCP routes; free for direct loopback."""
        wait = None if client.exempt else await self.hit("housekeeping", client)
        if wait is None:
            return None
        return Refusal(429, wait, f"{Kind.RATE_LIMITED}: too many requests; retry in {wait} s")

    async def hit_semantic(self, client: Client) -> int | None:
        """None if admitted, else the seconds until a semantic slot frees up."""
        return await self.hit("semantic", client)

    async def hit(self, kind: str, client: Client) -> int | None:
        """One hit of ``kind``: None if admitted, else the seconds to wait.

        The /48 is tested first, so an exhausted site creates no per-/64 windows (memory stays
        bounded by the site budgets); the per-client window is hit before the site's, so a
        client over its own budget never spends its neighbours'.
        """
        wait = await self._hit(kind, client)
        if wait is not None:
            self.refusals[kind] += 1
        return wait

    async def _hit(self, kind: str, client: Client) -> int | None:
        item, group_item = self.budgets[kind]
        if client.group is not None:
            wait = await self.windows.test(group_item, f"{kind}-site", client.group)
            if wait is not None:
                return wait
        wait = await self.windows.hit(item, kind, client.key)
        if wait is None and client.group is not None:
            wait = await self.windows.hit(group_item, f"{kind}-site", client.group)
        return wait


class SemanticSearchLimit:
    """Semantic/hybrid ``search_papers`` calls per identity per minute, checked before a tool
    call runs (``pwc_mcp.server.ToolCalls`` calls ``check``).

    A refusal is a `rate_limited` Failure (isError result), so the agent reads how long to wait
    and that keyword mode remains available, instead of a transport error it may not surface.
    """

    def __init__(self, limiter: RateLimiter, tool: str = SEMANTIC_TOOL) -> None:
        self.limiter = limiter
        self.tool = tool

    async def check(self, message: Any) -> None:
        if getattr(message, "name", None) != self.tool or not is_semantic_search(
            getattr(message, "arguments", None)
        ):
            return
        client = request_client(self.limiter)
        if client is None:
            return
        wait = await self.limiter.hit_semantic(client)
        if wait is not None:
            raise Failure(
                Kind.RATE_LIMITED,
                f"semantic search limit reached; retry in {wait} s, "
                'or use mode="keyword", which is not limited',
            )


def request_client(limiter: RateLimiter) -> Client | None:
    """Whom the current MCP request is counted against; None in memory or over stdio."""
    try:
        request = get_http_request()
    except RuntimeError:  # in-memory or stdio: no network client to limit
        return None
    client = request.scope.get("state", {}).get(STATE_KEY)
    return client if isinstance(client, Client) else limiter.identify(request.scope)


def configure_thread_pool(settings: Settings) -> None:
    """Size anyio's default thread limiter (it runs sync tools); call inside the app lifespan."""
    limiter = anyio.to_thread.current_default_thread_limiter()
    limiter.total_tokens = max(40, settings.global_concurrency_limit)
