"""The reference servers: the FastMCP framework floor, the bare ASGI ceiling, and the upstream
floor (the framework floor whose tool first asks the catalog, for cold calls).

Each answers POST /mcp with a fixed page of papers sized to match a real `search_papers` answer
(`--response-bytes`), and each is served by uvicorn with the very options `pwc-mcp` uses, so
the only difference from `pwc-mcp` is the work done per request.

    python -m bench.floor floor          --port P --response-bytes N
    python -m bench.floor ceiling        --port P --response-bytes N
    python -m bench.floor upstream-floor --port P --response-bytes N --api-url URL
"""

from __future__ import annotations

import contextlib
import json
import os
from typing import Any

from bench.args import OneLineParser, port, positive_int

os.environ.setdefault("FASTMCP_SHOW_SERVER_BANNER", "false")
os.environ.setdefault("FASTMCP_CHECK_FOR_UPDATES", "off")
os.environ.setdefault("FASTMCP_ENABLE_RICH_LOGGING", "false")

ABSTRACT = (
    "We propose a new simple network architecture based solely on attention mechanisms, "
    "dispensing with recurrence and convolutions entirely. Experiments on two machine "
    "translation tasks show these models to be superior in quality while being more "
    "parallelizable and requiring significantly less time to train."
)


def paper(i: int) -> dict[str, Any]:
    return {
        "id": str(1000 + i),
        "arxiv_id": f"17{i:02d}.0{3762 + i}",
        "title": f"Attention Variant {i}: Scaling Sequence Models Without Recurrence",
        "published": f"2017-06-{1 + i % 28:02d}",
        "authors": ["Ashish Vaswani", "Noam Shazeer", "Niki Parmar", "Jakob Uszkoreit"],
        "abstract": ABSTRACT,
        "url_abs": f"https://arxiv.org/abs/17{i:02d}.0{3762 + i}",
        "has_official_implementation": i % 2 == 0,
        "stars": 1000 * i,
    }


def page(response_bytes: int) -> dict[str, Any]:
    """A page of papers whose FastMCP answer (structured content + its JSON text) is about
    `response_bytes` long: whole papers, then a `note` to make up the difference."""

    def answer_size(result: dict[str, Any]) -> int:
        text = json.dumps(result, separators=(",", ":"))
        return len(text) + len(json.dumps(text)) + 90  # + the JSON-RPC envelope

    result: dict[str, Any] = {"count": 0, "items": [], "next_page": None, "note": ""}
    while (
        answer_size({**result, "items": [*result["items"], paper(len(result["items"]))]})
        <= response_bytes
    ):
        result["items"].append(paper(len(result["items"])))
    result["count"] = len(result["items"])
    result["note"] = "n" * max(0, (response_bytes - answer_size(result)) // 2)
    return result


def floor_app(response_bytes: int, api_url: str | None = None) -> Any:
    """The framework floor: FastMCP 4, stateless, JSON responses, one sync tool returning a
    fixed page. With `api_url`, the floor of a cold call (the upstream floor): the tool first
    makes the one catalog request a cold `search_papers` makes (a pooled httpx client, the JSON
    parsed), so the two floors differ by that request alone."""
    import httpx
    from fastmcp import FastMCP

    fixed = page(response_bytes)
    http = None if api_url is None else httpx.Client(base_url=api_url, timeout=30.0)
    mcp = FastMCP("floor" if http is None else "upstream-floor")

    @mcp.tool
    def search_papers(query: str) -> dict:
        """Search papers (returns a fixed page)."""
        if http is not None:
            reply = http.get("/papers/search", params={"q": query, "page": 1, "page_size": 25})
            reply.raise_for_status()
            reply.json()
        return fixed

    return mcp.http_app(path="/mcp", stateless_http=True, json_response=True)


def ceiling_body(response_bytes: int) -> bytes:
    """A fixed JSON-RPC tools/call answer of about `response_bytes` (for request id 1)."""
    fixed = page(response_bytes)
    text = json.dumps(fixed, separators=(",", ":"))
    result = {
        "content": [{"type": "text", "text": text}],
        "structuredContent": fixed,
        "isError": False,
    }
    return json.dumps({"jsonrpc": "2.0", "id": 1, "result": result}, separators=(",", ":")).encode()


def ceiling_app(response_bytes: int) -> Any:
    """The bare ASGI ceiling: one Starlette POST route that reads the body, returns fixed bytes."""
    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.responses import Response
    from starlette.routing import Route

    body = ceiling_body(response_bytes)

    async def mcp(request: Request) -> Response:
        await request.body()
        return Response(body, media_type="application/json")

    return Starlette(routes=[Route("/mcp", mcp, methods=["POST"])])


def main(argv: list[str] | None = None) -> None:
    parser = OneLineParser(prog="python -m bench.floor")
    parser.add_argument("kind", choices=("floor", "ceiling", "upstream-floor"))
    parser.add_argument("--port", type=port, required=True)
    parser.add_argument("--response-bytes", type=positive_int, default=8192)
    parser.add_argument("--api-url", help="the catalog an upstream-floor asks")
    args = parser.parse_args(argv)
    import uvicorn

    from pwc_mcp.serving.localserver import config

    if args.kind == "upstream-floor" and not args.api_url:
        parser.error("upstream-floor needs --api-url")
    if args.kind == "ceiling":
        app = ceiling_app(args.response_bytes)
    else:
        app = floor_app(args.response_bytes, args.api_url if args.kind != "floor" else None)
    # The same uvicorn options as `pwc-mcp` (pwc_mcp.cli).
    with contextlib.suppress(KeyboardInterrupt):  # uvicorn re-raises SIGINT after shutting down
        uvicorn.Server(config(app, port=args.port)).run()


if __name__ == "__main__":
    main()
