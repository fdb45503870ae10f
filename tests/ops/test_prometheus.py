"""/metrics in the Prometheus text format, scraped over real HTTP on loopback after a mix of
good and failing calls: per-tool counts and latency histograms by outcome, upstream requests
by route and status class, the stats counters, refusals by kind; nothing about the requests
themselves; and a flood of odd names adds no series."""

from __future__ import annotations

import secrets
from collections import Counter
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from prometheus_client.parser import text_string_to_metric_families

from pwc_mcp.app import create_app
from pwc_mcp.sample import RunningCatalog
from pwc_mcp.serving.localserver import serve_in_thread
from tests.helpers.e2e import RPC_HEADERS, rpc, settings_for, tool_call

QUERY = "zebra-quasar-7f3c transformer"
PAPER = "2401.99999v9-secretpaper"
ODD_TOOL = "drop_tables_9c2e1f"
OPERATION = "mcp_server_operation_duration_seconds"


@pytest.fixture
def http(sample: RunningCatalog) -> Iterator[httpx.Client]:
    app = create_app(settings_for(sample, semantic_limit=1))
    with (
        serve_in_thread(app, name="pwc-mcp-prometheus") as server,
        httpx.Client(base_url=server.origin, timeout=30) as client,
    ):
        yield client


def call(http: httpx.Client, method: str, params: dict[str, Any], **headers: str) -> Any:
    return http.post("/mcp", json=rpc(method, params), headers={**RPC_HEADERS, **headers})


def scrape(http: httpx.Client) -> tuple[str, dict[tuple[str, frozenset], float]]:
    answer = http.get("/metrics")
    assert answer.status_code == 200
    assert answer.headers["content-type"].startswith("text/plain; version=0.0.4")
    samples = {
        (s.name, frozenset(s.labels.items())): s.value
        for family in text_string_to_metric_families(answer.text)
        for s in family.samples
    }
    return answer.text, samples


def operations(samples: dict[tuple[str, frozenset], float]) -> Counter[tuple[str, str, str]]:
    counts: Counter[tuple[str, str, str]] = Counter()
    for (name, labels), value in samples.items():
        if name == f"{OPERATION}_count":
            d = dict(labels)
            counts[d["mcp_method_name"], d["gen_ai_tool_name"], d["outcome"]] += int(value)
    return counts


def test_a_scrape_after_good_and_failing_calls(http: httpx.Client, sample: RunningCatalog) -> None:
    tool_call(http, "get_method", {"method": "transformer"})
    tool_call(http, "get_method", {"method": "transformer"}, 2)  # remembered: the fast path
    tool_call(http, "search_papers", {"query": QUERY, "mode": "keyword"})
    tool_call(http, "search_papers", {"query": QUERY, "mode": "semantic"})
    limited = call(http, "tools/call", {"name": "search_papers", "arguments": {"query": QUERY}})
    assert limited.json()["result"]["isError"]  # the semantic limit: 1 a minute
    assert call(http, "tools/call", {"name": "get_task", "arguments": {"task": PAPER}}).json()[
        "result"
    ]["isError"]
    assert call(http, "tools/call", {"name": ODD_TOOL, "arguments": {"q": QUERY}}).json()["result"][
        "isError"
    ]
    unread = call(http, "resources/read", {"uri": f"pwc://papers/{PAPER}"})
    assert unread.status_code == 200 and "error" in unread.json()  # a JSON-RPC error in a 200
    bad = http.post("/mcp", content=b'{"query": "' + QUERY.encode(), headers=RPC_HEADERS)
    assert bad.status_code == 400

    text, samples = scrape(http)
    assert operations(samples) == {
        ("tools/call", "get_method", "ok"): 2,
        ("tools/call", "search_papers", "ok"): 2,
        ("tools/call", "search_papers", "limited"): 1,
        ("tools/call", "get_task", "tool_error"): 1,
        ("tools/call", "other", "tool_error"): 1,
        ("resources/read", "", "protocol_error"): 1,
        ("unknown", "", "protocol_error"): 1,
    }
    ok = frozenset(
        {
            "mcp_method_name": "tools/call",
            "gen_ai_tool_name": "get_method",
            "outcome": "ok",
            "mcp_protocol_version": "2025-11-25",
        }.items()
    )
    assert samples[f"{OPERATION}_bucket", ok | {("le", "+Inf")}] == 2
    assert samples[f"{OPERATION}_sum", ok] > 0
    upstream = {
        dict(labels)["status_class"]
        for name, labels in samples
        if name == "pwc_upstream_request_duration_seconds_count"
    }
    assert {"2xx", "4xx"} <= upstream  # the unknown task is a 404 from the catalog
    assert samples["pwc_limits_refusals_total", frozenset({("kind", "semantic")})] == 1
    assert samples["pwc_limits_refusals_total", frozenset({("kind", "request")})] == 0
    assert samples["pwc_memo_served_total", frozenset()] >= 1
    families = {dict(labels).get("route") for name, labels in samples if "families" in name}
    assert "methods/{id}" in families
    # nothing about the requests: no query, paper, tool name of the client's, address or port
    origin = http.base_url
    for secret in (QUERY, "zebra", PAPER, ODD_TOOL, "127.0.0.1", str(origin.port), sample.url):
        assert secret not in text


def test_a_flood_of_odd_names_and_paths_adds_no_series(http: httpx.Client) -> None:
    def odd_requests(word: str) -> None:
        call(http, "tools/call", {"name": f"tool_{word}", "arguments": {}})
        call(http, f"method/{word}", {})
        call(http, "tools/list", {}, **{"MCP-Protocol-Version": f"2099-{word}"})
        call(http, "tools/call", {"name": "get_task", "arguments": {"task": f"task-{word}"}})
        call(http, "resources/read", {"uri": f"pwc://papers/{word}"})
        call(http, "prompts/get", {"name": f"prompt_{word}", "arguments": {}})
        http.get(f"/{word}")
        http.post(f"/mcp/{word}", json=rpc("ping"), headers=RPC_HEADERS)

    # Each kind of odd request once: the series it may add. A word of digits is a catalog ID to
    # the paper resource (one more upstream route and status), any other word a title.
    odd_requests("first")
    odd_requests("123456789012")
    _, before = scrape(http)
    for _ in range(20):
        odd_requests(f"x{secrets.token_hex(6)}")
        odd_requests(str(secrets.randbelow(10**12)))
    text, after = scrape(http)
    assert set(after) == set(before)
    assert "first" not in text
