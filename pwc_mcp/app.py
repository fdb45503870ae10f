"""ASGI app factory (the `pwc-mcp` entry point is the light `pwc_mcp.cli`).

Routes: POST /mcp (stateless Streamable HTTP, JSON responses), GET /health (cached readiness,
never waits on the upstream), GET /.well-known/mcp (connection metadata from the request's own
origin), GET /metrics and /metrics.json (operators only), GET /docs (generated schemas of every tool, resource template and prompt), GET / (the
landing page: set-up per client, every tool with an example) and GET /mcp/server-card (the MCP
Server Card).
"""

from __future__ import annotations

import contextlib
import logging
import os
from collections.abc import AsyncIterator, Callable
from typing import Any

import anyio.to_thread

os.environ.setdefault("FASTMCP_SHOW_SERVER_BANNER", "false")
os.environ.setdefault("FASTMCP_CHECK_FOR_UPDATES", "off")
os.environ.setdefault("FASTMCP_ENABLE_RICH_LOGGING", "false")

from fastmcp import FastMCP  # noqa: E402
from starlette.requests import Request  # noqa: E402
from starlette.responses import JSONResponse, Response  # noqa: E402
from starlette.types import ASGIApp  # noqa: E402

from pwc_mcp import __version__  # noqa: E402
from pwc_mcp.caching.cache import CachedCatalog, ChunkCache  # noqa: E402
from pwc_mcp.caching.leases import SharedFlight  # noqa: E402
from pwc_mcp.caching.shared_cache import SharedCache  # noqa: E402
from pwc_mcp.caching.upstream import Metered, Observe  # noqa: E402
from pwc_mcp.catalog import CatalogService, Readiness  # noqa: E402
from pwc_mcp.config import Settings  # noqa: E402
from pwc_mcp.cursors import CursorCodec  # noqa: E402
from pwc_mcp.edge.admission import BODY_SECONDS  # noqa: E402
from pwc_mcp.edge.drain import Drain  # noqa: E402
from pwc_mcp.edge.guards import protect  # noqa: E402
from pwc_mcp.edge.identity import direct_loopback, from_proxy  # noqa: E402
from pwc_mcp.edge.jsonrpc import SUPPORTED_PROTOCOLS  # noqa: E402
from pwc_mcp.edge.rate_limits import RateLimiter, SemanticSearchLimit, configure_thread_pool  # noqa: E402
from pwc_mcp.fast_path import FastPath  # noqa: E402
from pwc_mcp.first_probe import reporting_first_failure  # noqa: E402
from pwc_mcp.observability.metrics import CONTENT_TYPE as METRICS_TYPE  # noqa: E402
from pwc_mcp.observability.metrics import Metrics  # noqa: E402
from pwc_mcp.observability.tracing import start as start_tracing  # noqa: E402
from pwc_mcp.observability.tracing import upstream_observer  # noqa: E402
from pwc_mcp.params import TOOLS  # noqa: E402
from pwc_mcp.server import build_server, result_memo  # noqa: E402
from pwc_mcp.site import docs_page, server_card
from pwc_mcp.site.landing import HEADERS as PAGE_HEADERS  # noqa: E402
from pwc_mcp.site.landing import LandingPage  # noqa: E402
from pwc_mcp.site.representations import PerOrigin, Representation, respond  # noqa: E402

log = logging.getLogger("pwc_mcp")
PROTOCOL = "2025-11-25"
DOCS_CACHE = "public, max-age=3600"
# Start-up waits at most this long for the first readiness probe, so a healthy server's first
# /health already says ok; a slower catalog leaves /health at "starting" (503) until it answers.
# `pwc-mcp` listens only after this wait (pwc_mcp.cli), so it never stalls a request.
STARTUP_GRACE = 2.0
STARTING_RETRY_AFTER = "1"


def build_catalog(settings: Settings, observe: Observe | None = None) -> CatalogService:
    """One pooled upstream client per process, shared by every tool through the caches; each
    request it makes told to `observe` (the metrics, the traces), if given."""
    client = Metered(  # each request charged to the calling client's catalog budget
        settings.api_url,
        timeout=settings.catalog_timeout,
        max_bytes=settings.max_response_bytes,
        max_connections=32,
    )
    client.observe = observe
    cursors = CursorCodec(settings.cursor_key_current, settings.cursor_key_previous)
    shared = SharedCache.from_settings(settings)  # None without PWC_MCP_CACHE_STORAGE
    flight = None if shared is None else SharedFlight(shared, wait_seconds=settings.catalog_timeout)
    stale, ahead = settings.max_stale_seconds, settings.refresh_ahead
    transport = CachedCatalog(client, shared=flight, max_stale=stale, ahead=ahead)
    return CatalogService(transport, cursors, ChunkCache(shared=shared, max_stale=stale))


async def _docs_document(mcp: FastMCP) -> dict[str, Any]:
    tools = await mcp.list_tools()
    templates = await mcp.list_resource_templates()
    prompts = await mcp.list_prompts()
    return {
        "name": "Papers With Code MCP",
        "version": __version__,
        "protocol_version": PROTOCOL,
        "endpoint": "/mcp",
        "tools": [
            {
                "name": t.name,
                "description": t.description,
                "inputSchema": t.parameters,
                "outputSchema": t.output_schema,
                "annotations": t.annotations.model_dump(exclude_none=True)
                if t.annotations
                else None,
            }
            for t in tools
        ],
        "resourceTemplates": [
            {
                "uriTemplate": r.uri_template,
                "name": r.name,
                "title": r.title,
                "description": r.description,
                "mimeType": r.mime_type,
            }
            for r in templates
        ],
        "prompts": [
            {
                "name": p.name,
                "title": p.title,
                "description": p.description,
                "arguments": [a.model_dump(exclude_none=True) for a in p.arguments or []],
            }
            for p in prompts
        ],
    }


def create_app(
    settings: Settings | None = None,
    catalog: CatalogService | None = None,
    *,
    limiter: RateLimiter | None = None,
    body_seconds: float = BODY_SECONDS,
    startup_grace: float = STARTUP_GRACE,
    drain: Drain | None = None,
) -> ASGIApp:
    """The whole application for `settings` (default: the environment).

    The rest are the safety knobs that are not settings, for tests and embedders: the catalog
    service, the rate limiter (built from the same settings; its `table_size` bounds the
    identities tracked at once), how long a client may take to send a request body, how
    long start-up waits for the first readiness probe, and the drain `pwc-mcp` runs when it
    stops (pwc_mcp.edge.drain: while it runs /health says "draining" and new calls are refused)."""
    settings = settings or Settings.from_env()
    metrics = Metrics(frozenset(TOOLS))
    start_tracing()  # off without an OTLP endpoint
    catalog = catalog or build_catalog(settings, upstream_observer(metrics.observe_upstream))
    limiter = RateLimiter(settings) if limiter is None else limiter
    mcp = build_server(
        catalog,
        checks=[SemanticSearchLimit(limiter).check],
        limiter=limiter,
        call_timeout=settings.call_timeout,
    )
    readiness = Readiness(reporting_first_failure(lambda: _probe(catalog), settings.api_url))
    readiness.poll()  # the first probe starts now, in the background
    docs: dict[bool, Representation] = {}  # by whether the request prefers HTML
    landing = LandingPage(mcp, "/mcp")
    cards = PerOrigin(lambda origin: server_card.representation(origin, "/mcp", mcp.name))
    shared: SharedFlight | None = getattr(catalog.transport, "shared", None)

    @mcp.custom_route("/health", methods=["GET"])
    async def health(request: Request) -> JSONResponse:
        # Never claims what no probe has seen: "starting" (503, retry in a second) until the
        # first probe ends, then the cached result; a load balancer sends traffic on 200 only.
        ready = readiness.poll()
        status = "starting" if ready is None else "ok" if ready else "unavailable"
        if drain is not None and drain.draining:  # stopping: send new calls elsewhere
            status, ready = "draining", False
        body: dict[str, Any] = {
            "status": status,
            "service": "pwc-mcp",
            "version": __version__,
            "protocol": PROTOCOL,
        }
        # The fallbacks are the operator's business (a direct loopback peer, as for /metrics):
        # the public route does not tell the internet when limits hold per process only.
        if direct_loopback(request.scope):
            if limiter.degraded:  # shared limit storage failing or slow: limits per process
                body["limits"] = "degraded"
            if shared is not None and shared.cache.health.degraded:  # answers cached per process
                body["cache"] = "degraded"
            served: Callable[[], dict[str, int]] = getattr(catalog.transport, "stale_served", dict)
            if stale := served():  # last good answers served, per path family
                body["stale"] = stale
        headers = {"Cache-Control": "no-store"}
        if ready is None:
            headers["Retry-After"] = STARTING_RETRY_AFTER
        return JSONResponse(body, status_code=200 if ready else 503, headers=headers)

    @mcp.custom_route("/.well-known/mcp", methods=["GET"])
    async def well_known(request: Request) -> JSONResponse:
        origin, cache = _advertised_origin(request, settings)
        return JSONResponse(
            {
                "name": server_card.TITLE,
                "description": server_card.DESCRIPTION,
                "transport": {"type": "streamable-http", "url": f"{origin}/mcp"},
                "endpoint": "/mcp",
                "protocol_version": PROTOCOL,
                "supported_protocol_versions": SUPPORTED_PROTOCOLS,
                "documentation_url": f"{origin}/docs",
                "server_card_url": f"{origin}/mcp{server_card.PATH}",
            },
            headers={"Cache-Control": cache},
        )

    @mcp.custom_route("/docs", methods=["GET"])
    async def docs_route(request: Request) -> Response:
        # Serialized once: the catalog of tools never changes in a running process, and
        # re-encoding every schema per request made /docs a cheap way to burn CPU. A browser
        # gets the same document as a page (pwc_mcp.site.docs_page); clients keep the JSON.
        if not docs:
            document = await _docs_document(mcp)
            docs.update(docs_page.representations(document, JSONResponse(document).body))
        html = docs_page.prefers_html(request.headers.get("accept"))
        headers = {**(PAGE_HEADERS if html else server_card.HEADERS), "Vary": "Accept"}
        return respond(request, docs[html], DOCS_CACHE, headers)

    @mcp.custom_route("/", methods=["GET"])
    async def landing_route(request: Request) -> Response:
        # The same origin /.well-known/mcp advertises, and the same rule: no-store when the
        # request's Host chose it.
        origin, cache = _advertised_origin(request, settings)
        return respond(request, await landing.page(origin), cache, PAGE_HEADERS)

    @mcp.custom_route(f"/mcp{server_card.PATH}", methods=["GET"])
    async def server_card_route(request: Request) -> Response:
        origin, cache = _advertised_origin(request, settings)
        return respond(request, cards.get(origin), cache, server_card.HEADERS)

    def stats() -> dict[str, Any]:
        """Content-free cache, memo, upstream and limit counters: /metrics.json as it is, and
        /metrics' samples besides its histograms (pwc_mcp.observability.metrics)."""
        cache = getattr(catalog.transport, "stats", None)
        chunks = getattr(catalog.chunks, "stats", None)
        memo = result_memo(mcp)
        return {
            "version": __version__,
            "ready": readiness.ready,
            "cache": cache() if callable(cache) else None,
            "chunks": chunks() if callable(chunks) else None,
            "memo": memo.stats() if memo is not None else None,
            # Level 2 and its leases (None: PWC_MCP_CACHE_STORAGE unset).
            "shared": None
            if shared is None
            else {**shared.cache.stats(), "flight": shared.stats()},
            "limits": {
                "shared": limiter.windows.shared,
                **limiter.windows.health.stats(),
                "memory_keys": len(limiter.windows.memory),
                "memory_evicted": limiter.windows.memory.evicted,
                "refusals": dict(limiter.refusals),
            },
        }

    metrics.read_stats(stats)

    @mcp.custom_route("/metrics", methods=["GET"])
    async def metrics_route(request: Request) -> Response:
        """The Prometheus text format, for operators on the machine itself (and the proxy's
        scraper): only a direct loopback peer sees it; anything that came through the proxy
        (which sets X-Forwarded-For) or from elsewhere gets 404, so the route is never public."""
        if not direct_loopback(request.scope):
            return JSONResponse({"error": "not_found"}, status_code=404)
        return Response(
            metrics.exposition(), media_type=METRICS_TYPE, headers={"Cache-Control": "no-store"}
        )

    @mcp.custom_route("/metrics.json", methods=["GET"])
    async def metrics_json(request: Request) -> JSONResponse:
        """The same counters as JSON, for people; the same access rule."""
        if not direct_loopback(request.scope):
            return JSONResponse({"error": "not_found"}, status_code=404)
        return JSONResponse(stats(), headers={"Cache-Control": "no-store"})

    inner = mcp.http_app(path="/mcp", stateless_http=True, json_response=True)
    lifespan = inner.router.lifespan_context

    @contextlib.asynccontextmanager
    async def with_thread_pool(app: Any) -> AsyncIterator[None]:
        configure_thread_pool(settings)
        await anyio.to_thread.run_sync(readiness.wait_first, startup_grace)
        async with lifespan(app):
            yield

    inner.router.lifespan_context = landing.built_at_startup(with_thread_pool, settings.public_url)
    # Innermost, after every guard: a remembered result in the framework's bytes, without it.
    return protect(
        FastPath(inner, mcp),
        settings,
        limiter=limiter,
        tool_names=frozenset(TOOLS),
        body_seconds=body_seconds,
        drain=drain,
        observe=metrics.observe_operation,
    )


def _advertised_origin(request: Request, settings: Settings) -> tuple[str, str]:
    """(origin, Cache-Control) for /.well-known/mcp.

    The configured PWC_MCP_PUBLIC_URL is the same for everyone, so it may be cached publicly.
    Without it the origin comes from this request (its allowlisted Host and, behind the local TLS
    proxy, the proxy's X-Forwarded-Proto) and must not be stored: a shared cache would hand one
    client's Host (say `127.0.0.1`) to every other client."""
    if settings.public_url is not None:
        return settings.public_url, DOCS_CACHE
    forwarded = request.headers.get("x-forwarded-proto", "").strip().lower()
    trusted = from_proxy(request.scope, settings.trusted_proxy_cidrs)
    scheme = forwarded if trusted and forwarded in ("http", "https") else request.url.scheme
    return f"{scheme}://{request.url.netloc}", "no-store"


def _probe(catalog: CatalogService) -> bool:
    """Readiness: the uncached client answers a one-row task listing with a result list."""
    client = getattr(catalog.transport, "client", catalog.transport)
    payload = client.get_json("tasks/", {"page": 1, "page_size": 1})
    rows = payload.get("results", payload.get("items")) if isinstance(payload, dict) else None
    return isinstance(rows, list)
