"""Where a cached call's server CPU goes, layer by layer.

    python -m bench.layers --port P      # serve: the real app with a stop below every layer

`serve` runs `create_app` under uvicorn as `pwc-mcp` does, with a probe above the whole stack
and one below each layer named in STOPS (OpsLog, MethodGuard, McpAdmission, ResponseBound): a request
carrying `x-bench-stop: <layer>` is answered just below that layer with fixed bytes the size of
a real answer (the ceiling's), so everything above ran and nothing below. A request without the
header is a real cached call, answered by the fast path. `measure` drives one client at each
stop in turn, alternating rounds, and reads the server process's CPU time (every thread, user
and system, from /proc) per request; the layers between two stops cost the difference, in one
process with the same caches and windows. Each probe costs a header
scan, paid alike by every stop below it.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import statistics
from pathlib import Path
from typing import Any

from bench import load
from bench.args import OneLineParser, port, positive_int
from bench.floor import ceiling_body

HEADER = b"x-bench-stop"
TOP = "uvicorn"  # above every layer: uvicorn, the HTTP parser and the connection guard only
FULL = "full call"
# The layers a probe goes below (the guards between OpsLog and McpAdmission cost a few µs each,
# below what one round can tell apart, so they are measured together).
STOPS = frozenset({"OpsLog", "MethodGuard", "McpAdmission", "ResponseBound"})


class Probe:
    """Answers requests that ask to stop below `name`; passes every other request on."""

    def __init__(self, app: Any, name: str, body: bytes) -> None:
        self.app, self.name, self.body = app, name.encode(), body

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http" or (HEADER, self.name) not in scope["headers"]:
            await self.app(scope, receive, send)
            return
        while (await receive()).get("more_body"):
            pass
        headers = [
            (b"content-type", b"application/json"),
            (b"content-length", b"%d" % len(self.body)),
        ]
        await send({"type": "http.response.start", "status": 200, "headers": headers})
        await send({"type": "http.response.body", "body": self.body})


def probed(app: Any, body: bytes) -> tuple[Any, list[str]]:
    """`app` with a probe on top and below each layer named in STOPS; the layers top first,
    each followed by "|" when a probe sits below it (the stops `measure` drives)."""
    chain = [TOP + "|"]
    layer = app
    while hasattr(layer, "app") and type(layer).__module__.startswith("pwc_mcp."):
        name = type(layer).__name__
        if name in STOPS:
            layer.app = Probe(layer.app, name, body)
            chain.append(name + "|")
            layer = layer.app.app
        else:
            chain.append(name)
            layer = layer.app
    return Probe(app, TOP, body), chain


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def _drive(url: str, body: bytes, stop: str | None, seconds: float) -> load.Sample:
    headers = {"x-bench-stop": stop} if stop else {}
    async with load.client(1) as http:
        http.headers.update(headers)
        loop = asyncio.get_running_loop()
        sample = load.Sample(seconds)
        end = loop.time() + seconds
        while loop.time() < end:
            response = await http.post(url, content=body)
            if load.failed(response):
                raise load.BenchFailure(f"layer {stop or FULL}: {load.describe(response)}")
            sample.total += 1
    return sample


def measure(url: str, pid: int, chain: list[str], seconds: float, rounds: int) -> dict[str, Any]:
    """Server CPU µs per cached search_papers call at each stop and for the full call (median
    of the rounds), and per segment of layers between two stops. `chain` is `probed`'s."""
    body = load.tool_call("search_papers", {"query": "transformer"})
    stops = [name.rstrip("|") for name in chain if name.endswith("|")]
    segments, current = [], []  # the layers below each stop, down to the next one
    for name in chain[1:]:
        current.append(name.rstrip("|"))
        if name.endswith("|"):
            segments.append(", ".join(current))
            current = []
    segments.append(", ".join(current))  # below the last stop: the rest of the full call
    order: list[str | None] = [*stops, None]
    runs: dict[str, list[float]] = {stop or FULL: [] for stop in order}
    for stop in order:  # warm-up: the full call fills the memo and the kept answer
        asyncio.run(_drive(url, body, stop, 0.3))
    for index in range(rounds):
        for stop in order if index % 2 == 0 else list(reversed(order)):
            before = cpu_seconds(pid)
            sample = asyncio.run(_drive(url, body, stop, seconds))
            runs[stop or FULL].append((cpu_seconds(pid) - before) / sample.total * 1e6)
    medians = {stop: statistics.median(values) for stop, values in runs.items()}
    points = list(medians.values())
    layers = {TOP: points[0]}
    for name, above, below in zip(segments, points[:-1], points[1:], strict=True):
        layers[name] = below - above
    return {"seconds": seconds, "rounds": rounds, "stop_us": medians, "layer_us": layers}


def main(argv: list[str] | None = None) -> None:
    parser = OneLineParser(prog="python -m bench.layers")
    parser.add_argument("--port", type=port, required=True)
    parser.add_argument("--response-bytes", type=positive_int, default=8192)
    args = parser.parse_args(argv)
    import uvicorn

    from pwc_mcp.app import create_app
    from pwc_mcp.config import Settings
    from pwc_mcp.serving.localserver import config

    app, chain = probed(create_app(Settings.from_env()), ceiling_body(args.response_bytes))
    print("layers:", ",".join(chain), flush=True)
    with contextlib.suppress(KeyboardInterrupt):  # uvicorn re-raises SIGINT after shutting down
        uvicorn.Server(config(app, port=args.port)).run()


if __name__ == "__main__":
    main()
