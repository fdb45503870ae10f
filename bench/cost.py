"""`python -m bench.cost`: what the most expensive allowed get_benchmark call costs.

Against a 1,000-row leaderboard (`bench.upstream.start_large_catalog`) and a pwc-mcp in its own
process, with warm caches, it times get_benchmark side by side, call by call in alternation:

* default arguments (one page of the leaderboard);
* a typical selection (one threshold: every row is scanned, merged and filtered);
* the worst arguments the schema allows: every list at its maxItems, every metric name at its
  maxLength (padded with spaces, so it still matches), thresholds that keep every row, a sort,
  and Pareto objectives chosen to keep the most rows (top-1 up and top-5 down: the two follow
  each other, so almost no row dominates another).

It prints the median latency of each and the ratios to the default call, and returns the numbers
(`make bench` keeps them under "cost" in latest.json). Nothing about time is asserted in tests.
"""

from __future__ import annotations

import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from bench import args as arguments
from bench import load, servers
from bench.upstream import LARGE_METRICS, start_large_catalog
from pwc_core.values import metric_list, metric_sort, metric_threshold, pareto_objectives

# The pair whose opposite directions keep almost every row on the Pareto frontier first.
WORST_ORDER = ("Top 1 Accuracy", "Top 5 Accuracy")
WORST_DIRECTIONS = {"Top 1 Accuracy": "higher", "Top 5 Accuracy": "lower"}


def padded(name: str, length: int) -> str:
    """The longest spelling of `name` that still matches it (names are stripped)."""
    return name.rjust(length)


def worst_arguments(benchmark: str) -> dict[str, Any]:
    """Every argument at the bound its converter declares (pwc_core.values), so the benchmark
    follows the bounds when they change."""
    names = [*WORST_ORDER, *(n for n in LARGE_METRICS if n not in WORST_ORDER)]
    objectives = names[: pareto_objectives.max_items]
    pareto_names = [n + ":" + WORST_DIRECTIONS.get(n, LARGE_METRICS[n]) for n in objectives]
    item = pareto_objectives.item_length
    return {
        "benchmark": benchmark,
        "limit": 25,
        "require_metrics": [padded(n, metric_list.item_length) for n in names][
            : metric_list.max_items
        ],
        "minimum_metrics": {
            padded(n, metric_threshold.name_length): -1e9
            for n in names[: metric_threshold.max_items]
        },
        "maximum_metrics": {
            padded(n, metric_threshold.name_length): 1e9
            for n in names[: metric_threshold.max_items]
        },
        "sort_metric": padded(names[0] + ":desc", metric_sort.max_length),
        "pareto": [padded(o, item) for o in pareto_names],
    }


def cases(benchmark: str) -> dict[str, dict[str, Any]]:
    return {
        "default": {"benchmark": benchmark},
        "typical selection": {"benchmark": benchmark, "minimum_metrics": {"Top 1 Accuracy": 80}},
        "worst allowed": worst_arguments(benchmark),
    }


async def measure(url: str, bodies: dict[str, bytes], rounds: int) -> dict[str, list[float]]:
    """Seconds per call, the cases alternating so that drift affects each alike."""
    times: dict[str, list[float]] = {name: [] for name in bodies}
    async with load.client(1) as http:
        for body in bodies.values():  # warm the caches; every case must succeed
            load.check(await http.post(url, content=body))
        for index in range(rounds):
            order = list(bodies) if index % 2 == 0 else list(reversed(bodies))
            for name in order:
                started = time.perf_counter()
                response = await http.post(url, content=bodies[name])
                times[name].append(time.perf_counter() - started)
                if load.failed(response):
                    raise load.BenchFailure(f"{name}: {load.describe(response)}")
    return times


def run(logs: Path, rounds: int = 15, rows: int = 1000) -> dict[str, Any]:
    print(f"cost: get_benchmark on a {rows:,}-row leaderboard ...", flush=True)
    with start_large_catalog(rows) as (api_url, benchmark):
        server = servers.start_pwc("pwc-mcp-cost", api_url, logs)
        try:
            arguments = cases(benchmark)
            bodies = {name: load.tool_call("get_benchmark", a) for name, a in arguments.items()}
            times = asyncio.run(measure(server.url, bodies, rounds))
        finally:
            server.stop()
    medians = {name: statistics.median(values) * 1e3 for name, values in times.items()}
    base = medians["default"]
    result = {
        "rows": rows,
        "rounds": rounds,
        "median_ms": medians,
        "vs_default": {name: value / base for name, value in medians.items()},
        "worst_arguments": arguments["worst allowed"],
        "worst_request_bytes": len(bodies["worst allowed"]),
    }
    print(table(result), flush=True)
    return result


def table(result: dict[str, Any]) -> str:
    lines = [
        f"get_benchmark on a {result['rows']:,}-row leaderboard, warm caches, "
        f"median of {result['rounds']} alternating calls:",
        "",
        "| Call | p50 ms | × default |",
        "| --- | ---: | ---: |",
    ]
    for name, value in result["median_ms"].items():
        lines.append(f"| {name} | {value:.1f} | {result['vs_default'][name]:.1f} |")
    lines.append("")
    lines.append(f"The worst allowed request is {result['worst_request_bytes']:,} bytes.")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = arguments.OneLineParser(prog="python -m bench.cost", description=__doc__)
    parser.add_argument(
        "--rounds", type=arguments.positive_int, default=15, help="calls per case (default 15)"
    )
    args = parser.parse_args(argv)
    return arguments.guarded("bench.cost", lambda: run_logged(args.rounds))


def run_logged(rounds: int) -> int:
    with tempfile.TemporaryDirectory(prefix="pwc-bench-cost-") as tmp:
        try:
            run(Path(tmp), rounds)
        except (load.BenchFailure, RuntimeError, OSError, KeyboardInterrupt):
            raise  # one line each (bench.args.guarded)
        except Exception:  # a bug: the server's log says what it saw, then the traceback
            for log in sorted(Path(tmp).glob("*.log")):
                print(log.read_text(errors="replace")[-2000:], file=sys.stderr)
            raise
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
