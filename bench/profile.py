"""cProfile of the hot path, in its own process, every thread included.

    PWC_API_URL=... python -m bench.profile pwc --port P --out FILE.prof
    python -m bench.profile floor --port P --out FILE.prof --response-bytes N
    python -m bench.profile ceiling --port P --out FILE.prof --response-bytes N

Serves the real app (`create_app`, or the framework floor or bare ceiling for comparison) with uvicorn like
`pwc-mcp` does. Every thread gets its own `cProfile.Profile` (default wall-clock timer: the
cheapest, so the least distorting). Drive it with one client at a time, so threads hand off
instead of competing for the GIL; time spent blocked (epoll, lock and queue waits) is idle and
left out. SIGUSR1 clears what was gathered so far (start-up, warm-up); SIGINT stops the server
and writes the merged stats. `summarise()` turns them into a short report.
"""

from __future__ import annotations

import contextlib
import cProfile
import os
import pstats
import signal
import sys
import threading
from typing import Any

from bench.args import OneLineParser, port, positive_int

# key: (file, line, function); categories by the file's package, builtins by their caller's.
CATEGORIES = [
    (
        "pwc_mcp/edge/guards.py pwc_mcp/edge/admission.py pwc_mcp/edge/jsonrpc.py pwc_mcp/edge/windows.py "
        "pwc_mcp/serving/connections.py pwc_mcp/config/hosts.py pwc_mcp/edge/rate_limits.py pwc_mcp/edge/identity.py "
        "pwc_mcp/edge/telemetry.py",
        "pwc-mcp safety layer (guards, admission, limits, identity, connections, ops log)",
    ),
    ("pwc_mcp/", "pwc-mcp tool code (params, catalog, cache, output models)"),
    ("pwc_cli/", "pwc_cli handler (the CLI's pure function)"),
    ("/fastmcp/", "FastMCP (middleware, tool manager, results)"),
    ("/mcp/ /mcp_types/", "MCP SDK (JSON-RPC, streamable HTTP transport)"),
    ("/pydantic/ /pydantic_core/", "pydantic (validation, serialisation)"),
    (
        "/uvicorn/ /h11/ /httptools/ /starlette/ /sse_starlette/",
        "HTTP stack (uvicorn, its HTTP parser, Starlette)",
    ),
    (
        "/anyio/ /asyncio/ threading.py selectors.py /concurrent/ queue.py contextvars /sniffio/",
        "async runtime and thread hand-off (asyncio, anyio, threads)",
    ),
    ("/json/", "json encode/decode"),
    ("/logging/", "logging"),
]
OTHER = "other (stdlib, typing, misc.)"
IDLE = frozenset(
    {
        "<method 'poll' of 'select.epoll' objects>",
        "<method 'select' of 'select.epoll' objects>",
        "<method 'acquire' of '_thread.lock' objects>",
        "<method 'acquire' of '_thread.RLock' objects>",
        "<method 'get' of '_queue.SimpleQueue' objects>",  # idle executor threads
        "<built-in method time.sleep>",
    }
)


def category(filename: str) -> str:
    for needles, name in CATEGORIES:
        if any(needle in filename for needle in needles.split()):
            return name
    return OTHER


def summarise(path: str, requests: int, top: int = 12) -> dict[str, Any]:
    """Where CPU time goes: shares by category, top functions by self time, per-request cost."""
    stats = pstats.Stats(path)
    entries: dict[Any, Any] = {
        key: value
        for key, value in stats.stats.items()  # type: ignore[attr-defined]
        if not (key[0] == "~" and key[2] in IDLE)
    }
    total = sum(tt for (_, _, tt, _, _) in entries.values()) or 1e-9
    by_category: dict[str, float] = {}
    for key, (_, _, tt, _, callers) in entries.items():
        if key[0] == "~" and callers:  # a builtin: charge its callers, pro rata
            for caller, (_, _, caller_tt, _) in callers.items():
                name = category(caller[0])
                by_category[name] = by_category.get(name, 0.0) + caller_tt
        else:
            by_category[category(key[0])] = by_category.get(category(key[0]), 0.0) + tt
    functions = sorted(entries.items(), key=lambda item: -item[1][2])[:top]
    ours = sorted(
        ((k, v) for k, v in entries.items() if "pwc_mcp/" in k[0] or "pwc_cli/" in k[0]),
        key=lambda item: -item[1][3],
    )[:top]

    def label(key: Any) -> str:
        file, line, name = key
        if file == "~":
            return name
        parts = file.replace("\\", "/").split("/")
        short = "/".join(parts[-2:])
        for marker in ("site-packages/", "/work/main/"):
            if marker in file:
                short = file.split(marker, 1)[1]
        return f"{short}:{line}({name})"

    per_request = 1e3 / max(requests, 1)
    return {
        "requests": requests,
        "busy_ms_per_request": total * per_request,
        "categories": {
            name: {"share": seconds / total, "ms_per_request": seconds * per_request}
            for name, seconds in sorted(by_category.items(), key=lambda item: -item[1])
        },
        "top_self": [
            {"function": label(k), "share": v[2] / total, "calls": v[1]} for k, v in functions
        ],
        "top_pwc_cumulative": [
            {"function": label(k), "ms_per_request": v[3] * per_request, "calls": v[1]}
            for k, v in ours
        ],
    }


def main(argv: list[str] | None = None) -> None:
    parser = OneLineParser(prog="python -m bench.profile")
    parser.add_argument("app", choices=("pwc", "floor", "ceiling"))
    parser.add_argument("--port", type=port, required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument(
        "--response-bytes", type=positive_int, default=8192, help="floor or ceiling answer size"
    )
    args = parser.parse_args(argv)

    import uvicorn

    from pwc_mcp.serving.localserver import config

    if args.app == "pwc":
        from pwc_mcp.app import create_app
        from pwc_mcp.config import Settings

        app = create_app(Settings.from_env())
    else:
        from bench.floor import ceiling_app, floor_app

        app = (floor_app if args.app == "floor" else ceiling_app)(args.response_bytes)

    profiles: list[cProfile.Profile] = []
    lock = threading.Lock()

    def new_profile() -> cProfile.Profile:
        profile = cProfile.Profile()
        with lock:
            profiles.append(profile)
        return profile

    def per_thread(frame: Any, event: str, arg: Any) -> None:
        new_profile().enable()  # replaces this hook for the thread that called it

    def clear(signum: int, frame: Any) -> None:
        with lock:
            for profile in profiles:
                profile.clear()

    server_config = config(app, port=args.port)
    signal.signal(signal.SIGUSR1, clear)
    threading.setprofile(per_thread)
    main_profile = new_profile()
    main_profile.enable()
    with contextlib.suppress(KeyboardInterrupt):  # uvicorn re-raises SIGINT after shutting down
        uvicorn.Server(server_config).run()
    main_profile.disable()
    threading.setprofile(None)  # type: ignore[arg-type]
    merged: pstats.Stats | None = None
    with lock:
        for profile in profiles:
            try:
                if merged is None:
                    merged = pstats.Stats(profile)
                else:
                    merged.add(profile)
            except TypeError:  # a thread that never made a call
                pass
    assert merged is not None
    merged.dump_stats(args.out)
    sys.stdout.flush()
    os._exit(0)  # worker threads still hold enabled profilers: do not run their teardown


if __name__ == "__main__":
    main()
