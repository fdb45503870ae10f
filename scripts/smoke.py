#!/usr/bin/env python3
"""Deployment smoke test for a pwc-mcp server: ``python scripts/smoke.py URL [--paper ID]``.

Checks, one output line each (``ok`` or ``FAIL`` with the reason):

1. ``health``       GET /health answers 200 with ``"status": "ok"`` (a server still
                    ``"starting"`` is asked again every second for up to ``--health-wait`` s);
2. ``initialize``   a real MCP ``initialize`` on the single /mcp endpoint (then the
                    ``notifications/initialized`` a client sends);
3. ``tools/list``   the server lists the expected number of tools (``--expect-tools``),
                    ``read_paper`` among them;
4. ``read_paper``   the first chunk of a long paper is truncated and carries a ``next_cursor``;
5. ``continuation`` passing that cursor returns the next chunk of the same content version,
                    starting where the first one ended.

URL is the server's base (``https://paperswithcode.co``, ``http://127.0.0.1:7861``); a trailing
``/mcp`` is accepted. ``--host-header`` sends another Host, to test a loopback-bound staging
server under its public name. Exit 0 when every check passed, 1 otherwise, 2 on usage errors.
Needs only the standard library and httpx.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from typing import Any

import httpx

PROTOCOL = "2025-11-25"
# A standalone copy of read_paper's example (pwc_mcp/site/examples.py), kept equal by
# tests/test_examples.py: deployments may run this file with only httpx.
DEFAULT_PAPER = "1706.03762"
try:  # beside the package (make smoke, the image) the expected count is the server's own table
    from pwc_mcp.params import TOOLS

    EXPECTED_TOOLS: int | None = len(TOOLS)
except ImportError:  # with only httpx, say it: --expect-tools N
    EXPECTED_TOOLS = None
HEALTH_WAIT = 30.0  # the first readiness probe ends within the 25 s catalog timeout
MCP_HEADERS = {
    "Accept": "application/json, text/event-stream",
    "Content-Type": "application/json",
}


class CheckFailed(Exception):
    """A check's one-line reason."""


def _one_line(text: str, limit: int = 200) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _json_body(response: httpx.Response) -> Any:
    """The JSON-RPC message of a response: plain JSON, or the last ``data:`` event of SSE."""
    kind = response.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind == "text/event-stream":
        events = [
            line[5:].strip() for line in response.text.splitlines() if line.startswith("data:")
        ]
        if not events:
            raise CheckFailed("event stream without a data event")
        text = events[-1]
    else:
        text = response.text
    try:
        return json.loads(text)
    except ValueError:
        raise CheckFailed(
            f"HTTP {response.status_code} {kind or 'no content-type'}, not JSON: "
            f"{_one_line(text, 80)!r}"
        ) from None


class Smoke:
    def __init__(
        self,
        base: str,
        *,
        paper: str = DEFAULT_PAPER,
        expect_tools: int | None = EXPECTED_TOOLS,
        timeout: float = 30.0,
        host_header: str | None = None,
        transport: httpx.BaseTransport | None = None,
        health_wait: float = HEALTH_WAIT,
    ) -> None:
        if expect_tools is None:
            raise ValueError("the expected number of tools is unknown: pass expect_tools")
        self.health_wait = health_wait
        headers = {"User-Agent": "pwc-mcp-smoke/1"}
        if host_header:
            headers["Host"] = host_header
        self.client = httpx.Client(
            base_url=base,
            timeout=timeout,
            headers=headers,
            follow_redirects=False,
            transport=transport,
        )
        self.paper = paper
        self.expect_tools = expect_tools
        self.protocol = PROTOCOL
        self.ids = iter(range(1, 1_000_000))
        self.first: dict[str, Any] | None = None

    # -- plumbing ---------------------------------------------------------------------------

    def post(self, message: dict[str, Any]) -> httpx.Response:
        headers = {**MCP_HEADERS, "MCP-Protocol-Version": self.protocol}
        return self.client.post("/mcp", json=message, headers=headers)

    def rpc(self, method: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
        rpc_id = next(self.ids)
        response = self.post(
            {"jsonrpc": "2.0", "id": rpc_id, "method": method, "params": params or {}}
        )
        body = _json_body(response)
        if not isinstance(body, dict):
            raise CheckFailed(f"HTTP {response.status_code}: not a JSON-RPC object")
        if "error" in body:
            error = body["error"] if isinstance(body["error"], dict) else {}
            raise CheckFailed(
                f"HTTP {response.status_code}: JSON-RPC error "
                f"{error.get('code')}: {_one_line(error.get('message', ''))}"
            )
        if response.status_code != 200:
            raise CheckFailed(f"HTTP {response.status_code} for {method}")
        if body.get("id") != rpc_id or not isinstance(body.get("result"), dict):
            raise CheckFailed(f"{method}: the response is not the result of this request")
        return body["result"]

    def read(self, cursor: str | None) -> dict[str, Any]:
        arguments = {"paper": self.paper}
        if cursor is not None:
            arguments["cursor"] = cursor
        result = self.rpc("tools/call", {"name": "read_paper", "arguments": arguments})
        if result.get("isError"):
            texts = [c.get("text", "") for c in result.get("content", []) if isinstance(c, dict)]
            raise CheckFailed(f"tool error: {_one_line(' '.join(texts)) or 'no message'}")
        chunk = result.get("structuredContent")
        if not isinstance(chunk, dict):
            raise CheckFailed("read_paper returned no structuredContent")
        markdown = (chunk.get("data") or {}).get("markdown")
        if not isinstance(markdown, str) or not markdown:
            raise CheckFailed("read_paper returned no Markdown")
        for key, kind in (("offset", int), ("content_version", str)):
            if not isinstance(chunk.get(key), kind):
                raise CheckFailed(f"read_paper result lacks {key}")
        truncated = chunk.setdefault("truncated", False)  # said only when true (no empty fields)
        if not isinstance(truncated, bool):
            raise CheckFailed("read_paper result has a non-boolean truncated")
        return chunk

    # -- checks -----------------------------------------------------------------------------

    def health(self) -> str:
        until = time.monotonic() + self.health_wait
        while True:
            response = self.client.get("/health")
            try:
                body = response.json()
            except ValueError:
                body = None
            status = body.get("status") if isinstance(body, dict) else None
            if status != "starting" or time.monotonic() >= until:
                break
            time.sleep(1.0)  # the server's Retry-After while its first probe runs
        if response.status_code != 200 or status != "ok":
            raise CheckFailed(f"HTTP {response.status_code}, status={status!r}")
        return f"status=ok version={body.get('version')}"

    def initialize(self) -> str:
        result = self.rpc(
            "initialize",
            {
                "protocolVersion": PROTOCOL,
                "capabilities": {},
                "clientInfo": {"name": "pwc-mcp-smoke", "version": "1"},
            },
        )
        version = result.get("protocolVersion")
        info = result.get("serverInfo") or {}
        if not isinstance(version, str) or not isinstance(result.get("capabilities"), dict):
            raise CheckFailed("initialize result lacks protocolVersion or capabilities")
        if "tools" not in result["capabilities"]:
            raise CheckFailed("the server does not offer tools")
        self.protocol = version
        note = self.post({"jsonrpc": "2.0", "method": "notifications/initialized"})
        if note.status_code not in (200, 202, 204):
            raise CheckFailed(f"notifications/initialized answered HTTP {note.status_code}")
        return f"protocol={version} server={info.get('name')} {info.get('version')}"

    def tools(self) -> str:
        result = self.rpc("tools/list")
        tools = result.get("tools")
        if not isinstance(tools, list):
            raise CheckFailed("tools/list result has no tools list")
        names = {t.get("name") for t in tools if isinstance(t, dict)}
        if len(tools) != self.expect_tools:
            raise CheckFailed(f"{len(tools)} tools, expected {self.expect_tools}")
        if "read_paper" not in names:
            raise CheckFailed("read_paper is not listed")
        if result.get("nextCursor"):
            raise CheckFailed("tools/list is paginated; expected every tool in one page")
        return f"{len(tools)} tools"

    def read_first(self) -> str:
        chunk = self.read(None)
        if chunk["truncated"] is not True or not isinstance(chunk.get("next_cursor"), str):
            raise CheckFailed(
                f"{self.paper}: not truncated or no next_cursor; pick a longer paper with --paper"
            )
        if chunk["offset"] != 0:
            raise CheckFailed(f"the first chunk starts at offset {chunk['offset']}, not 0")
        self.first = chunk
        size = len(chunk["data"]["markdown"].encode())
        return f"{self.paper}: {size} bytes, truncated, next_cursor"

    def continuation(self) -> str:
        first = self.first
        if first is None:
            raise CheckFailed("not run: the first chunk failed")
        chunk = self.read(first["next_cursor"])
        expected = first["offset"] + len(first["data"]["markdown"].encode())
        if chunk["content_version"] != first["content_version"]:
            raise CheckFailed("the continuation has another content_version")
        if chunk["offset"] != expected:
            raise CheckFailed(f"the continuation starts at {chunk['offset']}, expected {expected}")
        if chunk["data"]["markdown"] == first["data"]["markdown"]:
            raise CheckFailed("the continuation repeats the first chunk")
        if chunk["truncated"] and not isinstance(chunk.get("next_cursor"), str):
            raise CheckFailed("a truncated continuation without next_cursor")
        size = len(chunk["data"]["markdown"].encode())
        return f"offset {chunk['offset']}: {size} bytes, truncated={chunk['truncated']}"

    def checks(self) -> list[tuple[str, Callable[[], str]]]:
        return [
            ("health", self.health),
            ("initialize", self.initialize),
            ("tools/list", self.tools),
            ("read_paper", self.read_first),
            ("continuation", self.continuation),
        ]


def base_url(url: str) -> str:
    parsed = httpx.URL(url)
    if parsed.scheme not in ("http", "https") or not parsed.host:
        raise ValueError(f"not an http(s) URL: {url!r}")
    path = parsed.path.rstrip("/").removesuffix("/mcp")
    return str(parsed.copy_with(path=path or "/", query=None, fragment=None)).rstrip("/")


def run(url: str, *, out: Any = None, **options: Any) -> int:
    """Run every check (`options` are Smoke's); print one line per check; 0 if all passed,
    else 1."""
    out = out or sys.stdout
    smoke = Smoke(base_url(url), **options)
    failed = 0
    with smoke.client:
        for name, check in smoke.checks():
            try:
                detail = check()
            except CheckFailed as failure:
                failed += 1
                print(f"FAIL {name}: {_one_line(str(failure))}", file=out, flush=True)
            except httpx.HTTPError as error:
                failed += 1
                reason = _one_line(str(error)) or type(error).__name__
                print(f"FAIL {name}: {type(error).__name__}: {reason}", file=out, flush=True)
            else:
                print(f"ok   {name}: {detail}", file=out, flush=True)
    total = len(smoke.checks())
    verdict = f"all {total} checks passed" if not failed else f"{failed} of {total} checks failed"
    print(f"smoke: {verdict}", file=out, flush=True)
    return 1 if failed else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="smoke.py", description="Smoke-test a pwc-mcp deployment (see the module docstring)."
    )
    parser.add_argument("url", help="server base URL, e.g. https://paperswithcode.co")
    parser.add_argument(
        "--paper",
        default=DEFAULT_PAPER,
        help=f"a paper longer than one 64 KiB chunk (default {DEFAULT_PAPER})",
    )
    parser.add_argument(
        "--expect-tools",
        type=int,
        default=EXPECTED_TOOLS,
        required=EXPECTED_TOOLS is None,
        help="number of tools the server must list (default: pwc_mcp's own count"
        + (f", {EXPECTED_TOOLS})" if EXPECTED_TOOLS is not None else "; required without it)"),
    )
    parser.add_argument(
        "--timeout",
        type=float,
        default=30.0,
        help="seconds per request (default 30: above the 25 s catalog timeout)",
    )
    parser.add_argument("--host-header", help="send this Host header instead of the URL's")
    parser.add_argument(
        "--health-wait",
        type=float,
        default=HEALTH_WAIT,
        help=f"seconds to wait for a starting server's first probe (default {HEALTH_WAIT:g})",
    )
    options = vars(parser.parse_args(argv))  # every flag's dest is one of Smoke's options
    url = options.pop("url")
    try:
        base_url(url)
    except ValueError as error:
        parser.error(str(error))
    return run(url, **options)


if __name__ == "__main__":
    sys.exit(main())
