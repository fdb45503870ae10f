"""Kind to the upstream, measured at the sample catalog: single-flight, pooling, shared entries."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import httpx

from pwc_mcp.sample import RunningCatalog
from tests.helpers.e2e import RPC_HEADERS, rpc, tool_call


def test_fifty_identical_cold_calls_make_one_upstream_request(
    catalog: RunningCatalog, server
) -> None:
    catalog.stats.reset()
    catalog.faults.latency = 0.3  # slow enough that all 50 calls overlap the first
    try:

        def one(index: int) -> dict:
            with httpx.Client(base_url=server.origin, timeout=30) as http:
                return tool_call(
                    http, "get_related_papers", {"paper": "2010.11929", "limit": 7}, index
                )

        with ThreadPoolExecutor(50) as pool:
            results = list(pool.map(one, range(50)))
    finally:
        catalog.faults.latency = 0.0
    assert len(results) == 50
    assert catalog.stats.requests["papers/2010.11929/related"] == 1


def test_sequential_calls_reuse_pooled_connections(catalog: RunningCatalog, http) -> None:
    catalog.stats.reset()
    for index in range(200):  # distinct queries: every call misses the cache
        tool_call(
            http, "search_papers", {"query": f"pooling probe {index}", "mode": "keyword"}, index
        )
    assert catalog.stats.requests["papers/search"] == 200
    assert catalog.stats.connections <= 5


def test_tools_share_cache_entries(catalog: RunningCatalog, http) -> None:
    tool_call(http, "list_methods", {"search": "shared-entry-probe"})
    catalog.stats.reset()
    tool_call(http, "list_tasks", {"search": "shared-entry-probe"})
    # Both list tools need the areas catalog; the second one found it cached.
    assert "areas/" not in catalog.stats.requests
    assert catalog.stats.requests["tasks/"] == 1


def test_an_error_is_not_cached(catalog: RunningCatalog, http) -> None:
    catalog.faults.fail(500, times=1, path_prefix="papers/1512.03385/related")
    failed = http.post(
        "/mcp",
        json=rpc(
            "tools/call", {"name": "get_related_papers", "arguments": {"paper": "1512.03385"}}
        ),
        headers=RPC_HEADERS,
    ).json()["result"]
    assert failed["isError"]
    assert tool_call(http, "get_related_papers", {"paper": "1512.03385"})["structuredContent"]


def test_metrics_are_content_free_and_loopback_only(http) -> None:
    tool_call(http, "search_papers", {"query": "metrics-secret-query", "mode": "keyword"})
    answer = http.get("/metrics.json")
    assert answer.status_code == 200
    body = answer.text
    assert "metrics-secret-query" not in body
    cache = answer.json()["cache"]
    assert cache["upstream_calls"] > 0 and cache["hits"] >= 0
    for route in ("/metrics", "/metrics.json"):
        forwarded = http.get(route, headers={"X-Forwarded-For": "203.0.113.9"})
        assert forwarded.status_code == 404
