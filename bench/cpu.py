"""CPU cost of hostile inputs beside normal ones: the cases run alternately (so drift affects
each alike), and each median is reported as a ratio to the first case's. Used by
`python -m bench.outline` and `python -m bench.merging`; nothing about time is asserted in
tests (those prove the bounds structurally)."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable, Mapping
from typing import Any

from bench.args import OneLineParser, positive_int


def compare(cases: Mapping[str, Any], work: Callable[[Any], object], rounds: int) -> dict[str, Any]:
    """{rounds, median_cpu_s, vs_first} of `work(case)` for every case, `rounds` times each."""
    times: dict[str, list[float]] = {name: [] for name in cases}
    for index in range(rounds):
        for name in list(cases) if index % 2 == 0 else reversed(list(cases)):
            started = time.process_time()
            work(cases[name])
            times[name].append(time.process_time() - started)
    medians = {name: statistics.median(values) for name, values in times.items()}
    first = next(iter(medians.values()))
    return {
        "rounds": rounds,
        "median_cpu_s": medians,
        "vs_first": {name: value / first for name, value in medians.items()},
    }


def table(title: str, what: str, result: Mapping[str, Any]) -> str:
    """A Markdown table of one comparison: a row per case, CPU s and × the first case."""
    first = next(iter(result["median_cpu_s"]))
    lines = [
        f"{title}, median CPU of {result['rounds']} alternating runs:",
        "",
        f"| {what} | CPU s | × {first} |",
        "| --- | ---: | ---: |",
    ]
    for name, value in result["median_cpu_s"].items():
        lines.append(f"| {name} | {value:.3f} | {result['vs_first'][name]:.1f} |")
    return "\n".join(lines)


def main(run: Callable[[int], object], prog: str, doc: str | None, default: int) -> int:
    """`python -m bench.X [--rounds N]`."""
    parser = OneLineParser(prog=prog, description=doc)
    parser.add_argument(
        "--rounds", type=positive_int, default=default, help=f"runs per case (default {default})"
    )
    run(parser.parse_args().rounds)
    return 0
