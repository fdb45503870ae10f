"""Starlette app of the offline sample catalog: routing and the app with its fault middleware.

Routing decodes ``raw_path`` segment by segment instead of using Starlette's path matching, so a
percent-encoded slash (legacy arXiv IDs, DOIs, task names) stays inside its segment and trailing
slashes are matched exactly as the v1 contract spells them. The endpoints are ``endpoints.py``.
"""

from __future__ import annotations

from urllib.parse import quote, unquote

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from pwc_mcp.sample.common import ApiError
from pwc_mcp.sample.endpoints import ROUTES, Args
from pwc_mcp.sample.faults import FaultMiddleware, Faults
from pwc_mcp.sample.params import Params
from pwc_mcp.sample.stats import Stats
from pwc_mcp.sample.store import SampleStore

API_PREFIX = "/api/v1"


def match(pattern: str, segments: list[str]) -> Args | None:
    """Match decoded path segments; ``{name+}`` is greedy so an unencoded legacy ID still works."""
    parts = pattern.split("/")
    greedy = next((i for i, part in enumerate(parts) if part.endswith("+}")), None)
    if greedy is not None and len(segments) > len(parts):
        tail = len(segments) - (len(parts) - greedy - 1)
        segments = [*segments[:greedy], "/".join(segments[greedy:tail]), *segments[tail:]]
    if len(segments) != len(parts):
        return None
    args: Args = {}
    for part, segment in zip(parts, segments, strict=True):
        if part.startswith("{") and segment:
            args[part.strip("{+}")] = segment
        elif part != segment:
            return None
    return args


async def _api(request: Request) -> Response:
    if request.method not in ("GET", "HEAD"):
        return JSONResponse({"detail": f'Method "{request.method}" not allowed.'}, status_code=405)
    raw = request.scope.get("raw_path") or quote(request.scope["path"]).encode()
    segments = [unquote(part) for part in raw.decode("latin-1")[len(API_PREFIX) + 1 :].split("/")]
    for pattern, handler in ROUTES:
        args = match(pattern, segments)
        if args is not None:
            try:
                result = handler(request.app.state.store, Params(request), args)
            except ApiError as error:
                return JSONResponse({"detail": error.detail}, status_code=error.status)
            return result if isinstance(result, Response) else JSONResponse(result)
    return JSONResponse({"detail": "Not found."}, status_code=404)


async def _not_found(request: Request) -> Response:
    return JSONResponse({"detail": "Not found."}, status_code=404)


def create_app(store: SampleStore | None = None, faults: Faults | None = None) -> Starlette:
    """The ASGI app; ``app.state`` holds ``store``, ``faults`` and ``stats``."""
    routes = [
        Route(API_PREFIX + "/{rest:path}", _api, methods=None),
        Route("/{rest:path}", _not_found),
    ]
    app = Starlette(routes=routes)
    app.state.store = store or SampleStore()
    app.state.faults = faults or Faults()
    app.state.stats = Stats()
    app.add_middleware(FaultMiddleware, faults=app.state.faults, stats=app.state.stats)
    return app
