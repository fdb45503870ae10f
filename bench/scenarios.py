"""Upstream-facing scenarios: cold-call overhead, single-flight, pooling and the memory bound.

Upstream requests and TCP connections are counted by the sample catalog itself (its `stats`),
never by the server under test.
"""

from __future__ import annotations

import asyncio
import statistics
import time
import uuid
from collections.abc import Callable
from typing import Any

import httpx

from bench import load
from bench.servers import Server
from bench.upstream import MARKDOWN_PAPERS, FatCatalog

MiB = 1024 * 1024
CACHE_CEILING = 64 * MiB + 16 * MiB  # CachedCatalog max_bytes + ChunkCache max_bytes (cache.py)


def nonce() -> str:
    return uuid.uuid4().hex[:8]


async def cold_overhead(
    server: Server, floor: Server, catalog: Any, rounds: int = 60, latency: float = 0.05
) -> dict[str, Any]:
    """Cold search_papers calls beside the framework floor's cold call, alternating.

    Each round makes a direct upstream request, a cold call of the upstream floor (FastMCP, one
    sync tool making the same upstream request: bench.floor) and a cold pwc-mcp call (a fresh
    query, so it misses the cache), in alternating order, then a cached pwc-mcp call. What
    pwc-mcp adds is the median of the per-round differences from the floor's cold call: both
    wait on the same upstream and pay what any server pays after ~50 ms idle (waking up, a
    worker thread woken by the upstream's answer), which a round trip measured hot does not
    show. The raw difference from the direct request is kept beside it.
    """
    tag = nonce()
    times: dict[str, list[float]] = {"direct": [], "cold": [], "floor": [], "cached": []}
    upstream_per_call: list[int] = []
    catalog.faults.latency = latency

    async def timed(http: httpx.AsyncClient, url: str, query: str) -> float:
        elapsed, _ = await load.call(http, url, "search_papers", {"query": query})
        return elapsed

    try:
        async with load.client(1) as http, httpx.AsyncClient(timeout=30.0) as raw:
            await raw.get(f"{catalog.url}/papers/search", params={"q": "warm"})
            await timed(http, floor.url, f"warm {tag}")
            await timed(http, server.url, f"warm {tag}")
            for i in range(rounds):
                began = time.perf_counter()
                reply = await raw.get(
                    f"{catalog.url}/papers/search",
                    params={"q": f"direct {tag} {i}", "page": 1, "page_size": 25},
                )
                times["direct"].append(time.perf_counter() - began)
                reply.raise_for_status()
                floor_first = i % 2 == 0
                if floor_first:
                    times["floor"].append(await timed(http, floor.url, f"floor {tag} {i}"))
                before = catalog.stats.total()
                times["cold"].append(await timed(http, server.url, f"cold {tag} {i}"))
                upstream_per_call.append(catalog.stats.total() - before)
                if not floor_first:
                    times["floor"].append(await timed(http, floor.url, f"floor {tag} {i}"))
                times["cached"].append(await timed(http, server.url, f"warm {tag}"))
    finally:
        catalog.faults.latency = 0.0
    p50 = {name: load.quantile(values, 0.5) * 1e3 for name, values in times.items()}

    def by_round(minus: str) -> float:
        pairs = zip(times["cold"], times[minus], strict=True)
        return load.quantile([c - m for c, m in pairs], 0.5) * 1e3

    return {
        "calls": rounds,
        "injected_latency_ms": latency * 1e3,
        "upstream_direct_p50_ms": p50["direct"],
        "tool_call_p50_ms": p50["cold"],
        "tool_call_p99_ms": load.quantile(times["cold"], 0.99) * 1e3,
        "floor_cold_p50_ms": p50["floor"],
        "cached_call_p50_ms": p50["cached"],
        "added_p50_ms": by_round("direct"),
        "beyond_floor_p50_ms": by_round("floor"),
        # A call whose rows' paper records are not cached yet also reads them (their snippets,
        # issue #26): a second upstream round trip by design, so the median call is the measure.
        "upstream_requests_per_call": int(statistics.median(upstream_per_call)),
        "upstream_requests_most": max(upstream_per_call),
    }


async def single_flight(
    server: Server, catalog: Any, callers: int = 64, latency: float = 0.05
) -> dict[str, Any]:
    """`callers` identical concurrent cold calls: how many upstream requests reach the catalog."""
    arguments = {"query": f"single flight {nonce()}"}
    catalog.faults.latency = latency
    try:
        async with load.client(callers) as http:
            before = catalog.stats.requests
            results = await asyncio.gather(
                *(
                    load.call(http, server.url, "search_papers", arguments, rpc_id=i + 1)
                    for i in range(callers)
                ),
                return_exceptions=True,
            )
            after = catalog.stats.requests
    finally:
        catalog.faults.latency = 0.0
    delta = {path: n - before.get(path, 0) for path, n in after.items() if n != before.get(path, 0)}
    return {
        "callers": callers,
        "injected_latency_ms": latency * 1e3,
        "failed_calls": sum(isinstance(r, BaseException) for r in results),
        "upstream_requests": sum(delta.values()),
        "by_path": delta,
    }


async def pooling(start: Callable[[], Server], catalog: Any, calls: int = 200) -> dict[str, Any]:
    """A fresh server, then `calls` sequential cold calls (fresh queries): upstream TCP
    connections opened from process start to the last call."""
    tag = nonce()
    requests_before, connections_before = catalog.stats.total(), catalog.stats.connections
    server = start()
    try:
        async with load.client(1) as http:
            for i in range(calls):
                await load.call(http, server.url, "search_papers", {"query": f"pool {tag} {i}"})
            requests = catalog.stats.total() - requests_before
            connections = catalog.stats.connections - connections_before
    finally:
        server.stop()
    return {
        "calls": calls,
        "upstream_requests": requests,
        "upstream_connections": connections,
        "startup_s": server.startup,
    }


def fill_plan(tag: str) -> list[tuple[str, str, dict[str, Any]]]:
    """(cache family, tool, arguments): about 1.5x every ceiling at 512 KiB per answer."""
    plan = [("search", "search_papers", {"query": f"fill {tag} {i}"}) for i in range(24)]
    plan += [("taxonomy", "list_tasks", {"search": f"fill {tag} {i}"}) for i in range(48)]
    plan += [
        ("public_metadata", "get_paper_info", {"paper": f"Unknown Fill {tag} {i}"})
        for i in range(12)
    ]
    plan += [("general", "list_benchmarks", {"search": f"fill {tag} {i}"}) for i in range(108)]
    return plan


async def _read_all(http: httpx.AsyncClient, url: str, paper: str) -> int:
    """read_paper from the start, following next_cursor to the end: chunks read."""
    cursor, chunks = None, 0
    while True:
        arguments = {"paper": paper, **({"cursor": cursor} if cursor else {})}
        _, result = await load.call(http, url, "read_paper", arguments)
        chunks += 1
        cursor = (result.get("structuredContent") or {}).get("next_cursor")
        if not cursor:
            return chunks


async def memory(
    start: Callable[[str], Server], fat: FatCatalog, clients: int = 1
) -> dict[str, Any]:
    """Peak RSS (VmHWM) of a fresh server after filling every cache with large answers.

    Sequential by default, so the peak measures what the caches keep, not how many large
    answers are in flight at once. JSON answers first (the four `CachedCatalog` families, about
    1.5x each ceiling), then every chunk of six 3 MiB Markdown papers (the chunk cache).
    """
    server = start(fat.url)
    try:
        async with load.client(clients) as http:
            # Baseline: start-up plus one large answer of each kind, so it holds the working
            # set of a single call (parsing and projecting 512 KiB) but not the caches' growth.
            seen: set[str] = set()
            for family, name, arguments in fill_plan("warm-up"):
                if family not in seen:  # the public-metadata fills are misses by design
                    seen.add(family)
                    await http.post(server.url, content=load.tool_call(name, arguments))
            await load.call(http, server.url, "read_paper", {"paper": MARKDOWN_PAPERS[0]})
            baseline = server.memory()
            tag = nonce()
            queue: asyncio.Queue[tuple[str, str, dict[str, Any]]] = asyncio.Queue()
            for item in fill_plan(tag):
                queue.put_nowait(item)
            failures = {"tool_errors": 0}

            async def worker() -> None:
                while not queue.empty():
                    _, name, arguments = queue.get_nowait()
                    response = await http.post(server.url, content=load.tool_call(name, arguments))
                    if response.status_code != 200:
                        raise load.BenchFailure(f"fill call {name}: {load.describe(response)}")
                    failures["tool_errors"] += load.failed(response)  # expected: not_found

            began = time.monotonic()
            served_before = fat.served.bytes
            await asyncio.gather(*(worker() for _ in range(clients)))
            after_json = server.memory()
            chunks = sum(
                await asyncio.gather(
                    *(_read_all(http, server.url, paper) for paper in MARKDOWN_PAPERS)
                )
            )
            peak = server.memory()
            elapsed = time.monotonic() - began
    finally:
        server.stop()
    return {
        "baseline_rss": baseline["VmRSS"],
        "baseline_hwm": baseline["VmHWM"],
        "peak_rss": peak["VmHWM"],
        "final_rss": peak["VmRSS"],
        "after_json_fill_hwm": after_json["VmHWM"],
        "after_json_fill_rss": after_json["VmRSS"],
        "clients": clients,
        "fill_tool_errors": failures["tool_errors"],
        "cache_ceiling": CACHE_CEILING,
        "limit": baseline["VmRSS"] + CACHE_CEILING,
        "json_calls": len(fill_plan(tag)),
        "markdown_chunks": chunks,
        "upstream_json_bytes": fat.served.bytes - served_before,
        "fill_seconds": elapsed,
        "startup_s": server.startup,
    }
