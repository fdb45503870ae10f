"""`make bench` never measures refusals: its servers run with per-minute limits that cannot trip,
and any answer other than a successful tool call stops the run with one line. It reports every
target met or missed and fails only on a gross regression against the recorded run, the run that
bench/README.md shows and README.md quotes (both checked here against bench/recorded.json)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from limits import RateLimitItemPerMinute
from limits.storage import storage_from_string
from limits.strategies import MovingWindowRateLimiter
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from bench import floor, load, parses, report, servers, targets
from pwc_mcp.config import ConfigError, Settings
from pwc_mcp.sample import RunningCatalog, start_sample_catalog
from pwc_mcp.serving.localserver import serve_in_thread
from pwc_mcp.tools import abstracts
from tests.helpers import ROOT

# A 2-core machine completes more than this many cached calls in one minute (issue #17).
OLD_CEILING = 10_000


def test_bench_limits_are_accepted_and_cannot_trip() -> None:
    settings = Settings.from_env(servers.pwc_env("http://127.0.0.1:1/api/v1"))
    window = MovingWindowRateLimiter(storage_from_string("memory://"))
    for limit in (settings.request_limit, settings.semantic_limit):
        item = RateLimitItemPerMinute(limit)
        admitted = sum(window.hit(item, "pwc-mcp", "bench", str(limit)) for _ in range(OLD_CEILING))
        assert admitted == OLD_CEILING and window.hit(item, "pwc-mcp", "bench", str(limit)), (
            f"a limit of {limit}/minute would answer 429 inside one benchmark minute"
        )


def test_unlimited_is_only_for_the_per_minute_windows() -> None:
    with pytest.raises(ConfigError) as info:
        Settings.from_env({"PWC_MCP_CONCURRENCY_LIMIT": "unlimited"})
    assert info.value.problems == [
        "PWC_MCP_CONCURRENCY_LIMIT must be an integer between 1 and 10000"
    ]
    production = Settings.from_env({})
    assert (production.request_limit, production.semantic_limit) == (60, 10)


def refusing_after(allowed: int) -> Starlette:
    """An MCP-shaped endpoint that answers `allowed` tool calls, then 429 like a tripped limit."""
    served = {"calls": 0}

    async def mcp(request: Request) -> JSONResponse:
        await request.body()
        served["calls"] += 1
        if served["calls"] > allowed:
            error = {"code": -32029, "message": "rate_limited: request limit reached"}
            return JSONResponse({"jsonrpc": "2.0", "id": 1, "error": error}, status_code=429)
        result = {"content": [], "isError": False}
        return JSONResponse({"jsonrpc": "2.0", "id": 1, "result": result})

    return Starlette(routes=[Route("/mcp", mcp, methods=["POST"])])


def test_the_upstream_floor_asks_the_catalog_on_every_call() -> None:
    """The cold-call reference is honest only if it waits on the upstream as a cold pwc-mcp call
    does: one catalog request per call, counted by the catalog itself."""
    with (
        start_sample_catalog() as catalog,
        serve_in_thread(floor.floor_app(6000, catalog.url), name="upstream-floor") as ref,
    ):

        async def twice() -> list[tuple[int, dict]]:
            answers = []
            async with load.client(1) as http:
                for query in ("transformer", "transformer"):
                    before = catalog.stats.total()
                    _, result = await load.call(
                        http, f"{ref.origin}/mcp", "search_papers", {"query": query}
                    )
                    answers.append((catalog.stats.total() - before, result))
            return answers

        for asked, result in asyncio.run(twice()):
            assert asked == 1 and result["structuredContent"]["count"] > 0


def test_a_cached_call_is_parsed_once_by_us(catalog: RunningCatalog) -> None:
    """Issue #35: admission parses the body and the fast path reads that parse (it parsed the
    body again before); FastMCP, which parses on its own, does not run for a cached call."""
    counted = parses.count(catalog.url, calls=5)
    assert counted["ours"] == {"McpAdmission": 1} and counted["framework"] == 0


def test_the_per_layer_table_counts_each_rows_parses() -> None:
    measured = {
        "seconds": 1.0,
        "rounds": 1,
        "stop_us": {"full call": 10.0},
        "layer_us": {"uvicorn": 4.0, "OpsLog, HostGuard": 1.0, "McpAdmission": 2, "FastPath": 3},
        "parses": {"calls": 5, "ours": {"HostGuard": 0.4, "McpAdmission": 1.0}, "framework": 2},
    }
    section = report.layers_section(measured)
    last = [line.rsplit("|", 2)[1].strip() for line in section.splitlines() if line[:2] == "| "]
    assert last == ["our JSON parses", "0", "0.4", "1", "0", "1.4"]
    assert "the framework's: 2." in section


def test_a_refusal_during_a_measurement_fails_the_run_with_one_line() -> None:
    body = load.tool_call("search_papers", {"query": "transformer"})
    with (
        serve_in_thread(refusing_after(5), name="refusing") as server,
        pytest.raises(load.BenchFailure) as info,
    ):
        asyncio.run(load.drive(f"{server.origin}/mcp", body, 2, seconds=30.0, warmup=0.0))
    message = str(info.value)
    assert "\n" not in message
    assert message.startswith("during a measurement: HTTP 429 from http://127.0.0.1:")
    assert "request limit reached" in message


MiB = 1024 * 1024
TOOLS = ("search_papers", "get_paper_info", "get_benchmark")


def a_run(
    ratio: float = 1.0,
    added_ms: float = 2.0,
    upstream_requests: int = 1,
    connections: int = 1,
    peak_mib: float = 180,
    floor_ms: float = 2.0,
    ceiling_ratio: float = 0.8,
) -> dict:
    """The results of a run, as `python -m bench` gathers them, with the gated figures chosen."""
    framework_ms = floor_ms - 1.0  # floor p50 - bare ASGI p50 at one client

    def row(server: str, tool: str, clients: int, p50_ms: float, vs_floor: float) -> dict:
        return {"label": tool, "server": server, "tool": tool, "clients": clients,
                "requests": 500, "errors": 0, "rps": 400.0 * vs_floor, "p50_ms": p50_ms,
                "p99_ms": 3 * p50_ms, "response_bytes": 10_000, "vs_floor": vs_floor,
                "vs_ceiling": ceiling_ratio if server == "pwc-mcp" else vs_floor / 2,
                "p50_vs_floor": 1 / vs_floor}  # fmt: skip

    rows = [
        row("floor", "search_papers", 1, floor_ms, 1.0),
        row("ceiling", "search_papers", 1, 1.0, 2.0),
    ]
    rows += [row("pwc-mcp", tool, 16, 30.0, ratio) for tool in TOOLS]
    return {
        "generated": "2027-01-02T03:04:05+00:00",
        "machine": {"cores": 2, "usable_cores": 2, "python": "3.11", "platform": "Linux"},
        "settings": {"seconds": 1.2, "rounds": 5, "clients": [1, 16]},
        "elapsed_s": 170.4,
        "throughput": rows,
        "cold": {"injected_latency_ms": 50.0, "tool_call_p50_ms": 60.0,
                 "upstream_direct_p50_ms": 55.0, "added_p50_ms": added_ms + framework_ms,
                 "floor_cold_p50_ms": 60.0 - added_ms, "beyond_floor_p50_ms": added_ms,
                 "upstream_requests_per_call": 1},
        "single_flight": {"callers": 64, "injected_latency_ms": 50.0, "failed_calls": 0,
                          "upstream_requests": upstream_requests + 3,
                          "by_path": {"papers/search": upstream_requests,
                                      **{f"papers/{n}": 1 for n in range(3)}}},
        "pooling": {"calls": 200, "upstream_connections": connections, "upstream_requests": 202},
        "memory": {"baseline_rss": 107 * MiB, "after_json_fill_hwm": 170 * MiB,
                   "peak_rss": peak_mib * MiB, "json_calls": 192, "markdown_chunks": 297,
                   "cache_ceiling": 80 * MiB, "limit": 187 * MiB},
        "startup": {"pwc-mcp": [1.5, 1.6], "floor": 1.1, "ceiling": 0.1},
    }  # fmt: skip


def recorded(ratio: float = 0.55, added_ms: float = 4.6, peak_mib: float = 183) -> dict:
    figures = {f"vs_floor:{t}": {"value": ratio} for t in TOOLS}
    figures |= {"cold_added_ms": {"value": added_ms}, "peak_rss_mib": {"value": peak_mib}}
    figures |= {"peak_rss_vs_before": {"value": peak_mib}, "vs_ceiling:16": {"value": 0.8}}
    return {"generated": "2026-12-01T13:55:15+00:00", "targets": figures}


def gated(results: dict, baseline: dict) -> list[str]:
    results["targets"] = targets.targets(results)
    return targets.gate(results["targets"], baseline)


def test_a_near_miss_on_a_noisy_machine_is_reported_and_does_not_fail_the_run() -> None:
    """Issue #27: 0.49x against the 0.50x target and 5.1 ms against 5 ms exited 1."""
    results = a_run(ratio=0.49, added_ms=5.1)
    assert gated(results, recorded(ratio=0.55, added_ms=4.6)) == []
    missed = [t["key"] for t in results["targets"] if t["pass"] is False]
    assert missed == [*(f"vs_floor:{t}" for t in TOOLS), "cold_added_ms"]
    page = report.table(results)
    assert page.count("| **FAIL** | ok: needs ≥ 0.440× (recorded 0.55×) |") == 3
    assert "| **FAIL** | ok: needs ≤ 5.75 ms (recorded 4.6 ms) |" in page
    assert "Result: missed, within noise of the recorded run (exit 0): cached search_papers" in page


def test_below_the_tolerance_of_the_recorded_ratio_is_a_gross_regression() -> None:
    results = a_run(ratio=0.43, added_ms=5.9, peak_mib=230, ceiling_ratio=0.63)
    gross = gated(results, recorded(ratio=0.55, added_ms=4.6, peak_mib=183))
    # three floor ratios below 0.44, the ceiling's 0.63 below 0.64, 5.9 ms above 5.75, and
    # 230 MiB above 228.75 in both memory rows
    assert len(gross) == 7
    assert "Result: GROSS REGRESSION (exit 1): cached search_papers" in report.table(results)
    # Worse than the recorded run by more than the tolerance fails even within the target.
    assert len(gated(a_run(ratio=0.7), recorded(ratio=1.0))) == 3


@pytest.mark.parametrize(
    ("recorded_ms", "scale", "run", "met", "gate", "gross"),
    [
        # A loaded machine slows every round trip: 19.8 ms added beside a 9.9 ms floor (this
        # machine under five engineers' test runs) is the recorded 4.6 ms beside 2.7 ms.
        (4.6, 2.7, (19.8, 9.9), False, "2.00× the floor's p50, needs ≤ 2.130× (recorded "
         "4.6 ms at a 2.7 ms floor; that = 1.70×)", (19.8, 2.7)),
        # 0.4 ms recorded moves by its own size between runs: the gate starts from the 3 ms
        # target, so 1.2 ms (or a miss within noise) beside the same floor is no regression.
        (0.4, 1.8, (1.2, 1.8), True, "0.67× the floor's p50, needs ≤ 2.083× (recorded 0.4 ms "
         "at a 1.8 ms floor; the target's 3.0 ms = 1.67×)", (3.8, 1.8)),
    ],
)  # fmt: skip
def test_cold_milliseconds_are_gated_per_ms_of_the_floor_from_at_least_the_target(
    recorded_ms: float,
    scale: float,
    run: tuple[float, float],
    met: bool,
    gate: str,
    gross: tuple[float, float],
) -> None:
    baseline = {"targets": {"cold_added_ms": {"value": recorded_ms, "scale": scale}}}
    results = a_run(added_ms=run[0], floor_ms=run[1])
    assert gated(results, baseline) == []
    cold = next(t for t in results["targets"] if t["key"] == "cold_added_ms")
    assert (cold["pass"], cold["gate"]) == (met, f"ok: {gate}")
    assert gated(a_run(added_ms=3.6, floor_ms=1.8), baseline) == []  # a miss within noise
    assert gated(a_run(added_ms=gross[0], floor_ms=gross[1]), baseline) == [cold["name"]]


def test_an_unscaled_recording_below_the_target_says_the_gate_starts_from_the_target() -> None:
    results = a_run(added_ms=1.2)
    assert gated(results, {"targets": {"cold_added_ms": {"value": 0.4}}}) == []
    cold = next(t for t in results["targets"] if t["key"] == "cold_added_ms")
    assert cold["gate"] == "ok: needs ≤ 3.75 ms (recorded 0.4 ms; the target's 3.0 ms)"


def test_deterministic_behaviours_fail_on_any_miss() -> None:
    """Noise cannot add an upstream request or a connection: those targets decide alone. The
    64 calls read the search once and each row's paper record once (its snippet, issue #26)."""
    flight = next(t for t in targets.targets(a_run()) if t["key"] == "single_flight_requests")
    assert flight["pass"] and flight["measured"].startswith("1 per path (4 over 4 paths")
    assert gated(a_run(upstream_requests=2), recorded()) == [
        "64 identical concurrent cold calls (50 ms upstream): upstream requests"
    ]
    # one connection for the calls, and one for each paper record read at once
    assert targets.MAX_CONNECTIONS == 1 + abstracts.READERS
    assert gated(a_run(connections=targets.MAX_CONNECTIONS), recorded()) == []
    assert gated(a_run(connections=targets.MAX_CONNECTIONS + 1), recorded()) == [
        "200 sequential cold calls: upstream TCP connections"
    ]


def test_a_figure_with_nothing_recorded_is_held_to_its_target() -> None:
    assert gated(a_run(ratio=0.6), {"targets": {}}) == []
    assert len(gated(a_run(ratio=0.45), {"targets": {}})) == 3


def test_record_makes_a_run_the_recorded_one(tmp_path: Path) -> None:
    results = a_run(ratio=0.987, added_ms=2.04)
    gated(results, recorded())
    path = tmp_path / "recorded.json"
    targets.record(results, path)
    again = targets.load(path)
    assert again["targets"]["vs_floor:get_benchmark"]["value"] == 0.99  # as the table shows it
    assert again["targets"]["cold_added_ms"] == {
        "name": "cold search_papers, 50 ms upstream: latency pwc-mcp adds beyond the framework "
        "floor's cold call (p50)",
        "unit": " ms",
        "target": "≤ 3 ms",
        "scale": 2.0,  # the floor's p50 at one client in that run
        "value": 2.0,
        "met": True,
    }
    assert targets.readme_summary(again).startswith(
        "The recorded run (2027-01-02, 2 cores) met every target: cached tool calls with 16 "
        "clients at 0.99–0.99× the floor's throughput (target ≥ 0.50×); 0.80× the bare "
        "ceiling's at 16 clients (target ≥ 0.75×); 2.0 ms added"
    )
    assert gated(a_run(ratio=0.8), again) == [] and len(gated(a_run(ratio=0.78), again)) == 3


RECORDED = targets.load()
README = " ".join((ROOT / "README.md").read_text("utf-8").split())
BENCH_README = (ROOT / "bench" / "README.md").read_text("utf-8")


def test_the_readme_quotes_the_recorded_run() -> None:
    assert targets.readme_summary(RECORDED) in README
    minutes = round(RECORDED["elapsed_s"] / 60)
    about = f"about {minutes} minutes on {RECORDED['cores']} cores"
    assert f"`make bench` ({about})" in README
    assert about in " ".join(report.HOW_TO_RUN.lower().split())
    assert f"worse than {targets.TOLERANCE}× the recorded one" in README


def test_bench_readme_shows_the_recorded_run() -> None:
    """bench/README.md is the generated page of the recorded run: its opening, its date and
    each gated figure with its verdict."""
    assert BENCH_README.startswith(f"# Benchmarks\n\n{report.HOW_TO_RUN}\n\n")
    assert f"## pwc-mcp benchmarks ({RECORDED['generated']})" in BENCH_README
    rows = {
        cells[0]: cells
        for line in BENCH_README.splitlines()
        if line.startswith("| ") and len(cells := [c.strip() for c in line[1:].split("|")]) > 4
    }
    floor = next(
        line
        for line in BENCH_README.splitlines()
        if line.startswith("| floor (") and "| 1 |" in line
    )
    assert floor.split("|")[4].strip() == str(RECORDED["targets"]["cold_added_ms"]["scale"])
    for figure in RECORDED["targets"].values():
        cells = rows[figure["name"]]
        shown = f"{figure['value']:.{targets.DIGITS[figure['unit']]}f}{figure['unit']}"
        assert cells[1].startswith(shown), (figure["name"], cells[1], shown)
        assert cells[2] == figure["target"]
        assert cells[3] == report.verdict(figure["met"])


def workload_run(answered: int, seen: int, hot: float, cached: float) -> dict[str, float]:
    return {
        "hot_p99_ms": hot,
        "cached_p99_ms": cached,
        "waited": 0,
        "answered_in_outage": answered,
        "seen": seen,
    }


def test_the_workload_targets_are_gated_and_a_forgotten_search_is_a_gross_regression() -> None:
    """Issue #38's two rows pass the gate (a deterministic row once failed it for lack of its
    fields), and an outage that loses a search seen that day fails `make bench`."""
    off = workload_run(64, 233, hot=54.0, cached=0.1)
    kept = {"calls": 2000, "distinct": 300, "runs": [off, workload_run(233, 233, 0.5, 0.4)]}
    assert targets.gate(targets._workload(kept), {}) == []
    lost = {**kept, "runs": [off, workload_run(232, 233, 0.5, 0.4)]}
    gross = targets.gate(targets._workload(lost), {})
    assert gross == ["the same searches during an outage: share answered (stale, labelled)"]
