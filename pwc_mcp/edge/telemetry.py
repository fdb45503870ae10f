"""Content-free operations log: one ``pwc_mcp.ops`` line per request to the MCP endpoint.

A line carries only closed-vocabulary labels and numbers::

    mcp_request tool=search_papers method=tools/call status=200 latency_ms=12 bytes=842 protocol=2025-11-25 version=0.3.0

``tool`` is the tool name for ``tools/call`` when it is one of ours, otherwise the method name;
anything outside the known sets becomes ``unknown``, so a client can never write text of its
choosing into the log. Queries, paper identifiers, addresses, identities, authorization values
and bodies are never read here. CORS preflights and other paths are not logged.
"""

from __future__ import annotations

import logging
import sys
import time
from collections.abc import Iterable
from importlib.metadata import PackageNotFoundError, version
from typing import Any

from mcp_types.methods import SPEC_CLIENT_METHODS, SPEC_CLIENT_NOTIFICATION_METHODS
from mcp_types.version import KNOWN_PROTOCOL_VERSIONS
from starlette.types import ASGIApp, Message, Receive, Scope, Send

OPS_LOGGER = "pwc_mcp.ops"
OPS_KEY = "pwc_ops"  # scope["state"] dict where the guards note the request's method and tool
KNOWN_METHODS = frozenset(SPEC_CLIENT_METHODS | SPEC_CLIENT_NOTIFICATION_METHODS)
KNOWN_VERSIONS = frozenset(KNOWN_PROTOCOL_VERSIONS)
UNKNOWN = "unknown"

# Loggers that can print request content (URLs with queries, tool arguments inside validation
# errors, JSON-RPC dumps) at some level: they are kept quiet whatever LOG_LEVEL says.
SILENCED = ("mcp", "fastmcp", "uvicorn.access", "docket", "sse_starlette")
WARNINGS_ONLY = ("httpx", "httpcore", "httpx2", "urllib3")

ops_log = logging.getLogger(OPS_LOGGER)


def server_version() -> str:
    try:
        return version("pwc-mcp")
    except PackageNotFoundError:
        return UNKNOWN


def configure_logging(level: str = "INFO") -> None:
    """Root handler, our level, and muzzles for libraries that could leak content."""
    numeric = logging.getLevelName(level.upper())
    if not isinstance(numeric, int):
        raise ValueError(f"unknown log level: {level}")
    root = logging.getLogger()
    if not root.handlers:
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s %(message)s"))
        root.addHandler(handler)
    root.setLevel(numeric)
    logging.getLogger("pwc_mcp").setLevel(numeric)
    for name in SILENCED:
        logger = logging.getLogger(name)
        logger.setLevel(logging.CRITICAL + 1)
        logger.propagate = False
    for name in WARNINGS_ONLY:
        logging.getLogger(name).setLevel(max(numeric, logging.WARNING))


def labels(info: dict[str, Any], tool_names: frozenset[str]) -> tuple[str, str]:
    """(tool, method) labels from what the guard parsed; only known names pass through."""
    method = info.get("method")
    method_label = method if isinstance(method, str) and method in KNOWN_METHODS else UNKNOWN
    if method_label != "tools/call":
        return method_label, method_label
    tool = info.get("tool")
    return (tool if isinstance(tool, str) and tool in tool_names else UNKNOWN), method_label


def protocol_label(scope: Scope) -> str:
    values = [v for k, v in scope.get("headers") or () if k.lower() == b"mcp-protocol-version"]
    if len(values) != 1:
        return UNKNOWN
    value = values[0].decode("latin-1").strip()
    return value if value in KNOWN_VERSIONS else UNKNOWN


class OpsLog:
    """Pure ASGI: times each request to ``mcp_path`` and logs one content-free line."""

    def __init__(
        self,
        app: ASGIApp,
        *,
        tool_names: Iterable[str],
        mcp_path: str = "/mcp",
        version: str | None = None,
    ) -> None:
        self.app = app
        self.tool_names = frozenset(tool_names)
        self.mcp_path = mcp_path.rstrip("/")
        self.version = version or server_version()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if (
            scope["type"] != "http"
            or scope["path"].rstrip("/") != self.mcp_path
            or _preflight(scope)
        ):
            await self.app(scope, receive, send)
            return
        info: dict[str, Any] = {}
        scope.setdefault("state", {})[OPS_KEY] = info
        started = time.perf_counter()
        status, sent = 0, 0

        async def measure(message: Message) -> None:
            nonlocal status, sent
            if message["type"] == "http.response.start":
                status = message["status"]
            elif message["type"] == "http.response.body":
                sent += len(message.get("body", b""))
            await send(message)

        try:
            await self.app(scope, receive, measure)
        except BaseException:
            status = status or 500
            raise
        finally:
            tool, method = labels(info, self.tool_names)
            ops_log.info(
                "mcp_request tool=%s method=%s status=%d latency_ms=%d bytes=%d protocol=%s version=%s",
                tool,
                method,
                status,
                round((time.perf_counter() - started) * 1000),
                sent,
                protocol_label(scope),
                self.version,
            )


def _preflight(scope: Scope) -> bool:
    if scope["method"] != "OPTIONS":
        return False
    names = {k.lower() for k, _ in scope.get("headers") or ()}
    return b"origin" in names and b"access-control-request-method" in names
