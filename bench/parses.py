"""JSON parses per cached call, layer by layer: counted, not timed, so the same on any machine.

    python -m bench.parses [--api-url URL]   # the sample catalog's on loopback without a URL

`count` serves the real app (`create_app`, as `pwc-mcp` builds it) under uvicorn in a thread of
this process with a profile hook on that thread alone, repeats a `search_papers` call until it
is a cached one, then counts every JSON parse over `calls` more: the json module's (each passes
through `JSONDecoder.raw_decode`) and pydantic-core's (`from_json`, a validator's
`validate_json`). A parse is *ours* when the code that asked for it is in pwc_mcp, pwc_core or
pwc_cli, the *framework's* otherwise (FastMCP, the MCP SDK, Starlette); ours are charged to the
innermost layer of the app (the names of `bench.layers`' chain) that was running it. Parses
outside a request (a background task) are not counted.
"""

from __future__ import annotations

import contextlib
import json
import threading
from collections import Counter
from pathlib import Path
from types import CodeType, FrameType
from typing import Any

import httpx
import pydantic
import pydantic_core

import pwc_cli
import pwc_core
import pwc_mcp
from bench import load, servers
from bench.args import OneLineParser, guarded

CALLS = 20
OURS = tuple(str(Path(package.__file__ or "").parent) for package in (pwc_core, pwc_cli, pwc_mcp))
# Where a parse runs, between the code that asked for it and the parser itself.
PARSING = tuple(
    str(Path(package.__file__ or "").parent) for package in (json, pydantic, pydantic_core)
)
RAW_DECODE = json.JSONDecoder.raw_decode.__code__


def layer_codes(app: Any) -> dict[CodeType, str]:
    """Each layer's `__call__` code and its name, down the chain `bench.layers.probed` walks."""
    codes = {}
    while hasattr(app, "app") and type(app).__module__.startswith("pwc_mcp."):
        codes[type(app).__call__.__code__] = type(app).__name__
        app = app.app
    return codes


class Parses:
    """The profile hook: counts parses while `on`."""

    def __init__(self, layers: dict[CodeType, str]) -> None:
        self.layers = layers
        self.ours: Counter[str] = Counter()
        self.framework = 0
        self.on = False

    def __call__(self, frame: FrameType, event: str, arg: Any) -> None:
        if not self.on:
            return
        if event == "call" and frame.f_code is RAW_DECODE:
            self._charge(frame.f_back)
        elif event == "c_call" and (
            arg is pydantic_core.from_json or getattr(arg, "__name__", "") == "validate_json"
        ):
            self._charge(frame)

    def _charge(self, frame: FrameType | None) -> None:
        while frame is not None and frame.f_code.co_filename.startswith(PARSING):
            frame = frame.f_back
        asker, layer = frame, None
        while frame is not None and layer is None:
            layer = self.layers.get(frame.f_code)
            frame = frame.f_back
        if asker is None or layer is None:
            return
        if asker.f_code.co_filename.startswith(OURS):
            self.ours[layer] += 1
        else:
            self.framework += 1


def count(api_url: str, calls: int = CALLS) -> dict[str, Any]:
    """Our JSON parses per cached `search_papers` call by layer (only layers with any), and the
    framework's per call, over `calls` cached calls."""
    from pwc_mcp.app import create_app
    from pwc_mcp.config import Settings
    from pwc_mcp.serving.localserver import serve_in_thread

    app = create_app(Settings.from_env(servers.pwc_env(api_url)))
    hook = Parses(layer_codes(app))
    body = load.tool_call("search_papers", {"query": "transformer"})
    with contextlib.ExitStack() as stack:
        threading.setprofile(hook)  # the server's thread, started next, and no other
        try:
            server = stack.enter_context(serve_in_thread(app, name="pwc-mcp-parses"))
        finally:
            threading.setprofile(None)
        http = stack.enter_context(
            httpx.Client(base_url=server.origin, headers=load.HEADERS, timeout=30)
        )
        for _ in range(3):  # computed, remembered (its bytes kept), then cached
            load.check(http.post("/mcp", content=body))
        hook.on = True
        for _ in range(calls):
            load.check(http.post("/mcp", content=body))
        hook.on = False
    return {
        "calls": calls,
        "ours": {layer: n / calls for layer, n in sorted(hook.ours.items())},
        "framework": hook.framework / calls,
    }


def main(argv: list[str] | None = None) -> int:
    parser = OneLineParser(prog="python -m bench.parses")
    parser.add_argument("--api-url", help="the catalog API (default: the sample catalog)")
    args = parser.parse_args(argv)
    return guarded("bench.parses", lambda: show(args.api_url))


def show(api_url: str | None) -> int:
    if api_url:
        counted = count(api_url)
    else:
        from pwc_mcp.sample import start_sample_catalog

        with start_sample_catalog() as catalog:
            counted = count(catalog.url)
    print(f"JSON parses per cached search_papers call ({counted['calls']} calls):")
    for layer, n in counted["ours"].items():
        print(f"  ours, {layer}: {n:g}")
    print(f"  ours in all: {sum(counted['ours'].values()):g}")
    print(f"  the framework's: {counted['framework']:g}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
