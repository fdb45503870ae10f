"""Content-free operations log: one ``pwc_mcp.ops`` line per request to the MCP endpoint.

A line carries only closed-vocabulary labels and numbers::

    mcp_request tool=search_papers method=tools/call status=200 outcome=ok latency_ms=12 bytes=842 protocol=2025-11-25 version=0.3.0

``outcome`` is one of ``OUTCOMES``: a tool call that failed is ``tool_error`` (logged at ERROR,
though its HTTP status is 200), a refused one ``limited``, a JSON-RPC or HTTP error
``protocol_error``. The same labels feed the operation histogram of /metrics (``observe``).
``tool`` is the tool name for ``tools/call`` when it is one of ours, otherwise the method name;
anything outside the known sets becomes ``unknown``, so a client can never write text of its
choosing into the log. Queries, paper identifiers, addresses, identities, authorization values
and bodies are never read here. CORS preflights and other paths are not logged.
"""

from __future__ import annotations

import logging
import sys
import time
from collections.abc import Callable, Iterable
from importlib.metadata import PackageNotFoundError, version
from typing import Any

from fastmcp.server.dependencies import get_http_request
from mcp_types.methods import SPEC_CLIENT_METHODS, SPEC_CLIENT_NOTIFICATION_METHODS
from mcp_types.version import KNOWN_PROTOCOL_VERSIONS
from starlette.types import ASGIApp, Message, Receive, Scope, Send

OPS_LOGGER = "pwc_mcp.ops"
OPS_KEY = "pwc_ops"  # scope["state"] dict where the guards note the request's method and tool
KNOWN_METHODS = frozenset(SPEC_CLIENT_METHODS | SPEC_CLIENT_NOTIFICATION_METHODS)
KNOWN_VERSIONS = frozenset(KNOWN_PROTOCOL_VERSIONS)
UNKNOWN = "unknown"
OK, TOOL_ERROR, PROTOCOL_ERROR, LIMITED = "ok", "tool_error", "protocol_error", "limited"
OUTCOMES = (OK, TOOL_ERROR, PROTOCOL_ERROR, LIMITED)
REFUSED = frozenset({429, 503})  # a limit's refusal, the global ceiling's or the drain's
ERROR_KEY = b',"error":'  # a JSON-RPC error answer: `{"jsonrpc":"2.0","id":<id>,"error":...`
RESULT_KEY = b',"result":'
HEAD_BYTES = 256  # where a body's first key is looked for (after the id)
# One finished request: (method, tool, outcome, protocol, seconds), every label from a closed set
Observe = Callable[[str, str, str, str, float], None]

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


def note_outcome(outcome: str) -> None:
    """Tell the ops line of the current request (if any) how its call ended, when the HTTP
    status cannot say: a tool call's isError result is a 200."""
    try:
        state = get_http_request().scope.get("state") or {}
    except RuntimeError:  # in memory or over stdio: no HTTP request, no ops line
        return
    info = state.get(OPS_KEY)
    if isinstance(info, dict):
        info["outcome"] = outcome


def outcome_of(info: dict[str, Any], status: int, head: bytes) -> str:
    """The request's outcome: what the call layer noted, else what the status and the start of
    the body (`head`) say."""
    noted = info.get("outcome")
    if isinstance(noted, str):
        return noted
    if status in REFUSED:
        return LIMITED
    if status >= 400 or status == 0:
        return PROTOCOL_ERROR
    error, result = head.find(ERROR_KEY, 0, HEAD_BYTES), head.find(RESULT_KEY, 0, HEAD_BYTES)
    return PROTOCOL_ERROR if error >= 0 and (result < 0 or error < result) else OK


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
        observe: Observe | None = None,
    ) -> None:
        self.app = app
        self.observe = observe
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
        status, sent, head = 0, 0, b""

        async def measure(message: Message) -> None:
            nonlocal status, sent, head
            if message["type"] == "http.response.start":
                status = message["status"]
            elif message["type"] == "http.response.body":
                body = message.get("body", b"")
                if not sent:
                    head = body  # only its first HEAD_BYTES are read
                sent += len(body)
            await send(message)

        try:
            await self.app(scope, receive, measure)
        except BaseException:
            status = status or 500
            raise
        finally:
            seconds = time.perf_counter() - started
            tool, method = labels(info, self.tool_names)
            outcome, protocol = outcome_of(info, status, head), protocol_label(scope)
            ops_log.log(
                logging.ERROR if outcome == TOOL_ERROR else logging.INFO,
                "mcp_request tool=%s method=%s status=%d outcome=%s latency_ms=%d bytes=%d "
                "protocol=%s version=%s",
                tool,
                method,
                status,
                outcome,
                round(seconds * 1000),
                sent,
                protocol,
                self.version,
            )
            if self.observe is not None:
                self.observe(method, tool, outcome, protocol, seconds)


def _preflight(scope: Scope) -> bool:
    if scope["method"] != "OPTIONS":
        return False
    names = {k.lower() for k, _ in scope.get("headers") or ()}
    return b"origin" in names and b"access-control-request-method" in names
