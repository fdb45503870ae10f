"""`python -m bench.workload`: an agent workload through the server's answer caches, with and
without refresh ahead, then the same calls during an outage (issue #38).

A Zipf mix (s = 1.1) over DISTINCT searches, CALLS calls in all, each a `papers/search` request
through `CachedCatalog` to the sample catalog over loopback, which answers after LATENCY_S. The
caches run on an injected clock that moves STEP_S per call, so the one-minute search TTL runs
out about fifteen times in a run without waiting for it; a refresh ahead started by a call ends
before the next call's clock step (a real catalog answers within the TTL's last fifth, 12 s).
Each call's wait is measured on the real clock around the read alone.

Figures: p50/p99 of every call and of the hot calls (the DISTINCT // 10 most popular searches),
the p99 of cache hits (the cached p99), the calls that waited for the catalog (level-1 misses),
upstream requests; then, the catalog answering 503 to everything and the clock ten minutes on,
the share of the searches seen in the last 24 hours that are answered (stale, labelled).
Targets: hot calls never wait (their p99 within 1.5x the cached p99, with refresh ahead), and
every search seen in the last 24 hours answered during the outage. Nothing about time is
asserted in tests; tests/e2e/test_outage.py proves the behaviours by counting.
"""

from __future__ import annotations

import contextlib
import random
import statistics
import time
from typing import Any

from bench.args import OneLineParser, positive_int
from pwc_core.transport import CatalogClient
from pwc_mcp.caching.cache import CachedCatalog
from pwc_mcp.sample import RunningCatalog, start_sample_catalog

DISTINCT = 300
CALLS = 2000
ZIPF_S = 1.1
LATENCY_S = 0.05
STEP_S = 0.45  # simulated seconds between calls: 15 minutes in all
DAY = 86_400
SEED = 38
HOT_RATIO_TARGET = 1.5


class _Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def mix(calls: int = CALLS, distinct: int = DISTINCT, seed: int = SEED) -> list[int]:
    """The ranks (0 = most popular) of `calls` calls drawn from a Zipf law over `distinct`."""
    weights = [1 / (rank + 1) ** ZIPF_S for rank in range(distinct)]
    return random.Random(seed).choices(range(distinct), weights, k=calls)


def _p(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def replay(catalog: RunningCatalog, ranks: list[int], ahead: int) -> dict[str, Any]:
    """One run of the mix, then the outage; its figures in milliseconds and counts."""
    clock = _Clock()
    cache = CachedCatalog(
        CatalogClient(catalog.url, timeout=25.0), clock=clock, max_stale=DAY, ahead=ahead
    )
    tag = f"workload {ahead} "  # each run its own searches: nothing cached from another
    hot = DISTINCT // 10
    waits, hot_waits, hit_waits = [], [], []
    catalog.stats.reset()
    for rank in ranks:
        clock.now += STEP_S
        misses = cache.stats()["misses"]
        started = time.perf_counter()
        cache.get_json("papers/search", {"q": f"{tag}{rank}"})
        waited = (time.perf_counter() - started) * 1e3
        for thread in list(cache.ahead.threads):
            thread.join(30)
        waits.append(waited)
        if rank < hot:
            hot_waits.append(waited)
        if cache.stats()["misses"] == misses:
            hit_waits.append(waited)
    upstream = catalog.stats.requests.get("papers/search", 0)
    stats = cache.stats()
    catalog.faults.fail(503, times=10 * DISTINCT)
    try:
        clock.now += 600
        seen = sorted(set(ranks))
        answered = sum(_answers(cache, f"{tag}{rank}") for rank in seen)
    finally:
        catalog.faults.reset()
    return {
        "refresh_ahead": ahead,
        "p50_ms": statistics.median(waits),
        "p99_ms": _p(waits, 0.99),
        "hot_p50_ms": statistics.median(hot_waits),
        "hot_p99_ms": _p(hot_waits, 0.99),
        "cached_p99_ms": _p(hit_waits, 0.99),
        "waited": stats["misses"],
        "upstream_requests": upstream,
        "refreshes": stats["ahead"]["refreshes"],
        "seen": len(seen),
        "answered_in_outage": answered,
    }


def _answers(cache: CachedCatalog, query: str) -> bool:
    try:
        cache.get_json("papers/search", {"q": query})
    except Exception:
        return False
    return True


def run(catalog: RunningCatalog | None = None, calls: int = CALLS) -> dict[str, Any]:
    print("workload: a Zipf mix with and without refresh ahead, then an outage ...", flush=True)
    given = contextlib.nullcontext(catalog) if catalog is not None else None
    with given or start_sample_catalog() as running:
        latency, running.faults.latency = running.faults.latency, LATENCY_S
        try:
            ranks = mix(calls)
            runs = [replay(running, ranks, ahead) for ahead in (0, 4)]
        finally:
            running.faults.latency = latency
    result = {
        "calls": calls,
        "distinct": DISTINCT,
        "latency_ms": LATENCY_S * 1e3,
        "simulated_s": calls * STEP_S,
        "runs": runs,
    }
    print(table(result), flush=True)
    return result


def table(result: dict[str, Any]) -> str:
    lines = [
        f"{result['calls']} calls over {result['distinct']} searches (Zipf {ZIPF_S}), catalog "
        f"{result['latency_ms']:.0f} ms, {result['simulated_s'] / 60:.0f} simulated minutes:",
        "",
        "| Refresh ahead | p50 ms | p99 ms | hot p99 ms | cached p99 ms | waited | upstream "
        "| answered in outage |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for r in result["runs"]:
        lines.append(
            f"| {'on' if r['refresh_ahead'] else 'off'} | {r['p50_ms']:.2f} | {r['p99_ms']:.2f} "
            f"| {r['hot_p99_ms']:.2f} | {r['cached_p99_ms']:.2f} | {r['waited']} "
            f"| {r['upstream_requests']} | {r['answered_in_outage']}/{r['seen']} |"
        )
    return "\n".join(lines)


def main() -> int:
    """`python -m bench.workload [--calls N]`."""
    parser = OneLineParser(prog="python -m bench.workload", description=__doc__)
    parser.add_argument(
        "--calls", type=positive_int, default=CALLS, help=f"calls per run (default {CALLS})"
    )
    run(calls=parser.parse_args().calls)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
