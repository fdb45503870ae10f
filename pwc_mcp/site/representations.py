"""Documents built once and served as bytes with a strong ETag, answering If-None-Match with 304.

The landing page and the server card depend only on the advertised origin (pwc_mcp.app): one
configured public URL in production, so each is rendered once; per request only when the origin
comes from the request's Host, and then at most `size` origins are kept, so a client cycling
through allowed Host values (`host:*` admits any port) costs rendering time, never memory.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache

from starlette.requests import Request
from starlette.responses import Response

ORIGINS_KEPT = 16


@dataclass(frozen=True)
class Representation:
    body: bytes
    media_type: str
    etag: str = field(init=False)

    def __post_init__(self) -> None:
        # Strong: the bytes are the whole identity (same bytes, same tag, on every replica).
        digest = hashlib.sha256(self.body).hexdigest()[:32]
        object.__setattr__(self, "etag", f'"{digest}"')


def not_modified(if_none_match: str | None, etag: str) -> bool:
    """RFC 9110 13.1.2: `*` or any listed tag equal to ours under the weak comparison."""
    if if_none_match is None:
        return False
    if if_none_match.strip() == "*":
        return True
    return any(tag.strip().removeprefix("W/") == etag for tag in if_none_match.split(","))


def respond(
    request: Request,
    representation: Representation,
    cache_control: str,
    headers: Mapping[str, str] | None = None,
) -> Response:
    """200 with the bytes, or 304 with the same validators and cache headers and no body."""
    common = {"ETag": representation.etag, "Cache-Control": cache_control, **(headers or {})}
    if not_modified(request.headers.get("if-none-match"), representation.etag):
        return Response(status_code=304, headers=common)
    return Response(representation.body, media_type=representation.media_type, headers=common)


class PerOrigin:
    """`render(origin)` once per origin, the `size` most recently used kept."""

    def __init__(self, render: Callable[[str], Representation], size: int = ORIGINS_KEPT) -> None:
        self._render = lru_cache(maxsize=size)(render)

    def get(self, origin: str) -> Representation:
        return self._render(origin)

    def kept(self) -> int:
        return self._render.cache_info().currsize
