"""The one load generator used for every server: N asyncio workers on an httpx.AsyncClient.

Each worker sends the same raw MCP `tools/call` POST back to back over its own keep-alive
connection. After a short warm-up the measurement window opens; a request counts when it
completes inside the window, and its latency is recorded.
"""

from __future__ import annotations

import asyncio
import json
import time
from dataclasses import dataclass, field
from typing import Any

import httpx

PROTOCOL = "2025-11-25"
HEADERS = {
    "Accept": "application/json, text/event-stream",
    "Content-Type": "application/json",
    "MCP-Protocol-Version": PROTOCOL,
}
ERROR_MARKERS = (b'"isError":true', b'"isError": true')


def tool_call(name: str, arguments: dict[str, Any], rpc_id: int = 1) -> bytes:
    return json.dumps(
        {
            "jsonrpc": "2.0",
            "id": rpc_id,
            "method": "tools/call",
            "params": {"name": name, "arguments": arguments},
        }
    ).encode()


class BenchFailure(RuntimeError):
    """An answer that invalidates the run (a non-200, a tool or JSON-RPC error): the benchmark
    stops and prints this one line instead of measuring refusals."""


def describe(response: httpx.Response) -> str:
    """One line: status, URL and the start of the body (newlines folded)."""
    body = " ".join(response.text[:200].split())
    return f"HTTP {response.status_code} from {response.request.url}: {body}"


def failed(response: httpx.Response) -> bool:
    """Cheap per-request check: HTTP 200 and no tool error or JSON-RPC error."""
    body = response.content
    return (
        response.status_code != 200
        or any(m in body for m in ERROR_MARKERS)
        or b'"result"' not in body
    )


def check(response: httpx.Response) -> dict[str, Any]:
    """Full check of one answer: a successful tools/call result. Raises on anything else."""
    if response.status_code != 200:
        raise BenchFailure(describe(response))
    document = response.json()
    result = document.get("result")
    if not isinstance(result, dict) or result.get("isError"):
        raise BenchFailure(f"tool call failed: {describe(response)}")
    return result


def client(connections: int) -> httpx.AsyncClient:
    limits = httpx.Limits(max_connections=connections, max_keepalive_connections=connections)
    return httpx.AsyncClient(limits=limits, timeout=30.0, headers=HEADERS)


@dataclass
class Sample:
    """One measured cell: completions and latencies (seconds) inside the window."""

    seconds: float
    latencies: list[float] = field(default_factory=list)
    errors: int = 0
    response_bytes: int = 0
    total: int = 0  # every completed request, warm-up included

    def merge(self, other: Sample) -> None:
        self.seconds += other.seconds
        self.latencies += other.latencies
        self.errors += other.errors
        self.total += other.total
        self.response_bytes = self.response_bytes or other.response_bytes

    @property
    def rps(self) -> float:
        return len(self.latencies) / self.seconds if self.seconds else 0.0

    def quantile(self, q: float) -> float:
        return quantile(self.latencies, q)


def quantile(values: list[float], q: float) -> float:
    """Nearest-rank quantile (0 for no values)."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * len(ordered) + 0.5) - 1))]


async def drive(url: str, body: bytes, clients: int, seconds: float, warmup: float = 0.4) -> Sample:
    """`clients` concurrent workers posting `body` to `url` for `warmup` + `seconds`."""
    loop = asyncio.get_running_loop()
    start = loop.time() + warmup
    end = start + seconds
    sample = Sample(seconds)
    async with client(clients) as http:
        first = await http.post(url, content=body)
        check(first)
        sample.response_bytes = len(first.content)
        sample.total = 1

        async def worker() -> None:
            while True:
                began = time.perf_counter()
                response = await http.post(url, content=body)
                now = loop.time()
                sample.total += 1
                if failed(response):  # a refusal measured as a fast answer would flatter the run
                    raise BenchFailure(f"during a measurement: {describe(response)}")
                if now > end:
                    return
                if now >= start:
                    sample.latencies.append(time.perf_counter() - began)

        await asyncio.gather(*(worker() for _ in range(clients)))
    return sample


async def call(
    http: httpx.AsyncClient, url: str, name: str, arguments: dict[str, Any], rpc_id: int = 1
) -> tuple[float, dict[str, Any]]:
    """One checked tool call: (latency seconds, result)."""
    began = time.perf_counter()
    response = await http.post(url, content=tool_call(name, arguments, rpc_id))
    elapsed = time.perf_counter() - began
    return elapsed, check(response)
