"""The figures of README.md's Interoperability and Performance sections are the files and constants
they describe: expected-failure counts, pinned tool versions, required scenarios and timeouts
(scripts/interop.sh and its lists), cache lifetimes and bounds, the tool catalog's budgets. The
benchmark paragraph is checked against bench/recorded.json in test_bench.py."""

from __future__ import annotations

import inspect
import re

import pytest

from pwc_mcp.caching.cache import CALL_SHARE, CHUNK_CALL_SHARE, FAMILIES, ChunkCache
from pwc_mcp.caching.memo import ResultMemo
from tests.helpers.mcp import TOOL_BYTES
from tests.helpers.ops import ROOT, load_script

README = (ROOT / "README.md").read_text("utf-8")
SCRIPT = (ROOT / "scripts" / "interop.sh").read_text("utf-8")
PINS = dict(re.findall(r"^([A-Z_]+)=(\S+)", SCRIPT, re.M))
EXPECTED = {
    path.name: load_script("interop_probe").read_expected(str(path))
    for path in sorted((ROOT / "scripts").glob("interop-expected-failures*.txt"))
}
MiB = 1024 * 1024


def section(title: str) -> str:
    """A `## title` section's text, its lines joined with single spaces."""
    match = re.search(rf"^## {title}\n(.*?)(?=^## )", README, re.M | re.S)
    assert match, title
    return " ".join(match.group(1).split())


INTEROP = section("Interoperability")
PERFORMANCE = section("Performance")


def test_the_expected_failure_counts_are_the_lists() -> None:
    said = dict(
        re.findall(r"`scripts/(interop-expected-failures[\w.-]*\.txt)` lists (\d+)", INTEROP)
    )
    assert {name: int(count) for name, count in said.items()} == {
        name: len(entries) for name, entries in EXPECTED.items()
    }
    total = re.search(r"(\d+) across the two suites", INTEROP)
    assert total and int(total.group(1)) == sum(map(len, EXPECTED.values())) == 56
    # The first list's split: fixture scenarios and the suite's own quirks.
    first = EXPECTED["interop-expected-failures.txt"]
    quirks = [name for name, why in first.items() if why.startswith("tool quirk")]
    split = re.search(
        r"lists \d+: (\d+) scenarios that need .*? and (\d+) tool quirk: `([\w-]+)`", INTEROP
    )
    assert split and (int(split.group(1)), int(split.group(2))) == (
        len(first) - len(quirks),
        len(quirks),
    )
    assert [split.group(3)] == quirks


def test_the_pinned_versions_are_the_scripts() -> None:
    pins = {
        f"node@{PINS['NODE_VERSION']}",
        f"@modelcontextprotocol/conformance@{PINS['CONFORMANCE_VERSION']}",
        f"@modelcontextprotocol/conformance@{PINS['CONFORMANCE_NEXT_VERSION']}",
        f"@modelcontextprotocol/inspector@{PINS['INSPECTOR_VERSION']}",
    }
    shown = set(re.findall(r"`((?:@[\w-]+/)?[\w-]+@[\w.-]+)`", INTEROP))
    assert shown == pins
    eras = re.search(
        r"in both protocol eras: `([\w.-]+)` runs .*?, `([\w.-]+)` every scenario", INTEROP
    )
    assert eras and eras.groups() == (PINS["CONFORMANCE_VERSION"], PINS["CONFORMANCE_NEXT_VERSION"])
    assert f"Every call has a {PINS['INSPECTOR_TIMEOUT']}-second timeout" in INTEROP


def test_the_required_scenarios_are_the_scripts() -> None:
    required = re.search(
        r"\*\*Required\*\* \(must run and pass\) in 2025-11-25: (.*?); in 2026-07-28: (.*?)\. ",
        INTEROP,
    )
    assert required
    for shown, variable in zip(
        required.groups(), ("REQUIRED_SCENARIOS", "REQUIRED_NEXT_SCENARIOS"), strict=True
    ):
        assert re.findall(r"`([\w-]+)`", shown) == PINS[variable].split(","), variable


LIFETIMES = {"1 minute": 60.0, "5 minutes": 300.0, "10 minutes": 600.0, "1 hour": 3600.0}


@pytest.mark.parametrize(
    ("row", "family"),
    [
        ("search and paper lists", "search"),
        ("taxonomy", "taxonomy"),
        ("paper and benchmark data", "general"),
        ("public metadata, misses included", "public_metadata"),
    ],
)
def test_the_cache_lifetimes_are_the_families(row: str, family: str) -> None:
    lifetime = re.search(rf"\| {re.escape(row)} \| ([\w ]+?) \|", PERFORMANCE)
    assert lifetime and LIFETIMES[lifetime.group(1)] == FAMILIES[family][0]


def default(call: object, name: str) -> object:
    return inspect.signature(call).parameters[name].default  # type: ignore[arg-type]


def test_the_chunk_cache_memo_and_per_call_shares_are_the_code() -> None:
    chunks = re.search(
        r"\| versioned Markdown chunks \| ([\w ]+?) \| ≤ ([\d,]+) entries, ≤ (\d+) MiB \|",
        PERFORMANCE,
    )
    assert chunks
    assert LIFETIMES[chunks.group(1)] == default(ChunkCache, "ttl")
    assert int(chunks.group(2).replace(",", "")) == default(ChunkCache, "max_entries")
    assert int(chunks.group(3)) * MiB == default(ChunkCache, "max_bytes")
    memo = re.search(r"at most ([\d,]+) results, (\d+) MiB", PERFORMANCE)
    assert memo
    assert int(memo.group(1).replace(",", "")) == default(ResultMemo, "max_entries")
    assert int(memo.group(2)) * MiB == default(ResultMemo, "max_bytes")
    shares = re.search(
        r"one call adds at most 1/(\d+) of a cache \(1/(\d+) of the chunk cache\)", PERFORMANCE
    )
    assert shares and tuple(map(int, shares.groups())) == (CALL_SHARE, CHUNK_CALL_SHARE)


def test_the_tool_catalog_budget_is_the_tests() -> None:
    """The size and its share of the reference are generated (`make regen`); the budget the
    tests hold it to is stated beside them."""
    budget = re.search(r"hold it to ([\d,]+) bytes a tool", PERFORMANCE)
    assert budget and int(budget.group(1).replace(",", "")) == TOOL_BYTES
