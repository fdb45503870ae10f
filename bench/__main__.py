"""`python -m bench`: run every benchmark, write bench/results/latest.{md,json}, report every
target met or missed, and exit 1 only on a gross regression against the recorded run
(bench/targets.py)."""

from __future__ import annotations

import argparse
import asyncio
import datetime as dt
import os
import platform
import signal
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from bench import args as arguments
from bench import (
    cost,
    layers,
    load,
    merging,
    outline,
    parses,
    report,
    scenarios,
    servers,
    targets,
    workload,
)
from bench.load import Sample
from pwc_mcp.sample import start_sample_catalog
from pwc_mcp.site.examples import MEASURED

RESULTS = Path(__file__).resolve().parent / "results"
# Measured calls come from the one example table (pwc_mcp/site/examples.py).
WORKLOADS: dict[str, tuple[str, dict[str, Any]]] = {
    tool: (tool, args) for tool, args in MEASURED.items()
}
FLOOR_LABEL = "floor (FastMCP, fixed page)"
CEILING_LABEL = "ceiling (bare Starlette)"


def parse(argv: list[str] | None) -> argparse.Namespace:
    parser = arguments.OneLineParser(prog="python -m bench", description=__doc__)
    parser.add_argument(
        "--seconds",
        type=arguments.positive,
        default=1.2,
        help="measured seconds per server per round (default 1.2)",
    )
    parser.add_argument(
        "--rounds",
        type=arguments.positive_int,
        default=5,
        help="alternating rounds per concurrency level (default 5)",
    )
    parser.add_argument(
        "--clients",
        type=arguments.clients,
        default=[1, 4, 16],
        help="concurrency levels (default 1,4,16)",
    )
    parser.add_argument(
        "--no-profile", action="store_true", help="skip the cProfile and per-layer runs"
    )
    parser.add_argument("--profile-seconds", type=arguments.positive, default=4.0)
    parser.add_argument("--out", type=Path, default=RESULTS, help="results directory")
    parser.add_argument(
        "--record",
        action="store_true",
        help=f"make this run the recorded one ({targets.RECORDED.name}) the gate compares with",
    )
    return parser.parse_args(argv)


def throughput(
    targets: dict[str, tuple[str, bytes]], clients: list[int], seconds: float, rounds: int
) -> list[dict[str, Any]]:
    """Every target at every concurrency, in alternating order round by round."""
    rows: list[dict[str, Any]] = []
    names = list(targets)
    for count in clients:
        merged: dict[str, Sample] = {}
        for index in range(rounds):
            for name in names if index % 2 == 0 else reversed(names):
                url, body = targets[name]
                sample = asyncio.run(load.drive(url, body, count, seconds))
                merged.setdefault(name, Sample(0.0)).merge(sample)
        floor, ceiling = merged["floor"], merged["ceiling"]
        for name in names:
            sample = merged[name]
            label = {"floor": FLOOR_LABEL, "ceiling": CEILING_LABEL}.get(name, name)
            rows.append(
                {
                    "label": label,
                    "server": name if name in ("floor", "ceiling") else "pwc-mcp",
                    "tool": "search_papers" if name in ("floor", "ceiling") else name,
                    "clients": count,
                    "requests": len(sample.latencies),
                    "errors": sample.errors,
                    "rps": sample.rps,
                    "p50_ms": sample.quantile(0.5) * 1e3,
                    "p99_ms": sample.quantile(0.99) * 1e3,
                    "response_bytes": sample.response_bytes,
                    "vs_floor": sample.rps / floor.rps if floor.rps else None,
                    "vs_ceiling": sample.rps / ceiling.rps if ceiling.rps else None,
                    "p50_vs_floor": (
                        sample.quantile(0.5) / floor.quantile(0.5) if floor.latencies else None
                    ),
                }
            )
        print(
            f"  {count:>2} clients: "
            + ", ".join(f"{name} {merged[name].rps:.0f}/s" for name in names),
            flush=True,
        )
    return rows


def profile_one(
    app: str, env: dict[str, str], logs: Path, seconds: float, response_bytes: int
) -> dict[str, Any]:
    from bench.profile import summarise

    out = logs / f"{app}.prof"
    argv = [
        sys.executable,
        "-m",
        "bench.profile",
        app,
        "--port",
        "{port}",
        "--out",
        str(out),
        "--response-bytes",
        str(response_bytes),
    ]
    server = servers.spawn(f"profile-{app}", argv, logs, env)
    try:
        server.wait_ready()
        name, arguments = WORKLOADS["search_papers"]
        body = load.tool_call(name, arguments)
        asyncio.run(load.drive(server.url, body, 1, 0.5, warmup=0.2))  # warm-up, not profiled
        server.proc.send_signal(signal.SIGUSR1)  # forget start-up and warm-up
        time.sleep(0.2)
        sample = asyncio.run(load.drive(server.url, body, 1, seconds, warmup=0.0))
    finally:
        server.stop(timeout=30)
    if not out.exists():
        raise RuntimeError(f"the profiled {app} server wrote no stats:\n{server.tail()}")
    return summarise(str(out), sample.total)


def profile(api_url: str, logs: Path, seconds: float, response_bytes: int) -> dict[str, Any]:
    """cProfile of cached search_papers on pwc-mcp, and of the floor's tool for comparison."""
    pwc = profile_one("pwc", servers.pwc_env(api_url), logs, seconds, response_bytes)
    floor = profile_one("floor", {}, logs, seconds, response_bytes)
    return {"clients": 1, "seconds": seconds, "pwc": pwc, "floor": floor}


def layer_costs(api_url: str, logs: Path, response_bytes: int) -> dict[str, Any]:
    """Server CPU per cached call, layer by layer (bench.layers), in its own server process, and
    our JSON parses per cached call by layer (bench.parses)."""
    size = str(response_bytes)  # the probes answer with as many bytes as the real call
    argv = [sys.executable, "-m", "bench.layers", "--port", "{port}", "--response-bytes", size]
    server = servers.spawn("layers", argv, logs, servers.pwc_env(api_url))
    try:
        server.wait_ready()
        line = next(x for x in server.log.read_text().splitlines() if x.startswith("layers: "))
        chain = line.removeprefix("layers: ").split(",")
        measured = layers.measure(server.url, server.proc.pid, chain, seconds=1.0, rounds=5)
    finally:
        server.stop()
    return {**measured, "parses": parses.count(api_url)}  # counted, in a server of its own


def run(args: argparse.Namespace, logs: Path) -> dict[str, Any]:
    clients: list[int] = args.clients
    started = time.monotonic()
    results: dict[str, Any] = {
        "generated": dt.datetime.now().astimezone().isoformat(timespec="seconds"),
        "machine": {
            "cores": os.cpu_count(),
            "usable_cores": len(os.sched_getaffinity(0)),
            "python": platform.python_version(),
            "platform": platform.platform(),
        },
        "settings": {"seconds": args.seconds, "rounds": args.rounds, "clients": clients},
    }
    running: list[servers.Server] = []
    with start_sample_catalog() as catalog:
        try:
            print("starting pwc-mcp, floor and ceiling ...", flush=True)
            pwc = servers.start_pwc("pwc-mcp", catalog.url, logs)
            running.append(pwc)
            sizes: dict[str, int] = {}
            bodies = {
                name: load.tool_call(tool, arguments)
                for name, (tool, arguments) in WORKLOADS.items()
            }

            async def warm() -> None:  # fill the caches; note each answer's size
                async with load.client(1) as http:
                    for name, body in bodies.items():
                        response = await http.post(pwc.url, content=body)
                        load.check(response)
                        sizes[name] = len(response.content)

            asyncio.run(warm())
            floor = servers.start_reference("floor", sizes["search_papers"], logs)
            running.append(floor)
            ceiling = servers.start_reference("ceiling", sizes["search_papers"], logs)
            running.append(ceiling)
            results["startup"] = {
                "pwc-mcp": [pwc.startup],
                "floor": floor.startup,
                "ceiling": ceiling.startup,
            }
            print("cached throughput (alternating) ...", flush=True)
            cells = {
                "floor": (floor.url, bodies["search_papers"]),
                "ceiling": (ceiling.url, bodies["search_papers"]),
                **{name: (pwc.url, body) for name, body in bodies.items()},
            }
            results["throughput"] = throughput(cells, clients, args.seconds, args.rounds)
            servers.stop_all([floor, ceiling])
            print("cold calls, single-flight, pooling ...", flush=True)
            upstream_floor = servers.start_reference(
                "upstream-floor", sizes["search_papers"], logs, api_url=catalog.url
            )
            running.append(upstream_floor)
            results["cold"] = asyncio.run(scenarios.cold_overhead(pwc, upstream_floor, catalog))
            upstream_floor.stop()
            results["single_flight"] = asyncio.run(scenarios.single_flight(pwc, catalog))
            pwc.stop()
            results["pooling"] = asyncio.run(
                scenarios.pooling(
                    lambda: servers.start_pwc("pwc-mcp-pooling", catalog.url, logs), catalog
                )
            )
            results["startup"]["pwc-mcp"].append(results["pooling"]["startup_s"])
            print("memory: filling every cache with large answers ...", flush=True)
            from bench.upstream import start_fat_catalog

            with start_fat_catalog() as fat:
                results["memory"] = asyncio.run(
                    scenarios.memory(
                        lambda url: servers.start_pwc("pwc-mcp-memory", url, logs), fat
                    )
                )
            results["startup"]["pwc-mcp"].append(results["memory"]["startup_s"])
            results["cost"] = cost.run(logs)  # the worst allowed get_benchmark call
            results["outline"] = outline.run()  # hostile headings beside normal ones
            results["merging"] = merging.run()  # a one-key board beside distinct rows
            results["workload"] = workload.run(catalog)  # refresh ahead, then an outage
            from bench import suggestions

            results["suggestions"] = suggestions.run()  # the worst did-you-mean beside a typo
            if not args.no_profile:
                print("profiling the hot path ...", flush=True)
                results["profile"] = profile(
                    catalog.url, logs, args.profile_seconds, sizes["search_papers"]
                )
                results["layers"] = layer_costs(catalog.url, logs, sizes["search_papers"])
        finally:
            servers.stop_all(running)
    results["elapsed_s"] = time.monotonic() - started
    results["targets"] = targets.targets(results)
    return results


def main(argv: list[str] | None = None) -> int:
    args = parse(argv)
    return arguments.guarded("bench", lambda: measure(args))


def measure(args: argparse.Namespace) -> int:
    recorded = targets.load()  # before the three-minute run: a broken file fails at once
    with tempfile.TemporaryDirectory(prefix="pwc-bench-") as tmp:
        try:
            results = run(args, Path(tmp))
        except (load.BenchFailure, RuntimeError, OSError, KeyboardInterrupt):
            raise  # one line each (bench.args.guarded)
        except Exception:  # a bug: the servers' logs say what they saw, then the traceback
            for log in sorted(Path(tmp).glob("*.log")):
                tail = log.read_text(errors="replace").splitlines()[-15:]
                print(f"--- {log.name} (last lines) ---", *tail, sep="\n", file=sys.stderr)
            raise
    gross = targets.gate(results["targets"], recorded)
    results["recorded"] = recorded["generated"]
    md_path, json_path = report.write(results, args.out)
    print()
    print(md_path.read_text())
    print(f"wrote {md_path}, {json_path} and {md_path.with_name('readme-perf.md')}")
    if args.record:
        targets.record(results)
        print(f"recorded this run in {targets.RECORDED}: update bench/README.md from "
              f"{md_path.with_name('readme-perf.md')} and README.md's Performance section "
              "(tests/ops/test_bench.py says what differs)")  # fmt: skip
    return 1 if gross else 0


if __name__ == "__main__":
    raise SystemExit(main())
