"""/metrics.json counts what the memo of tool results did, content-free: results served from it,
results stored, and results refused by reason (a degraded answer is one), over the real app."""

from __future__ import annotations

import httpx

from pwc_mcp.app import create_app
from pwc_mcp.sample import RunningCatalog
from pwc_mcp.serving.localserver import serve_in_thread
from tests.helpers.e2e import settings_for, tool_call


def test_metrics_count_the_memos_results_without_their_content(sample: RunningCatalog) -> None:
    with (
        serve_in_thread(create_app(settings_for(sample)), name="pwc-mcp-metrics") as server,
        httpx.Client(base_url=server.origin, timeout=30) as http,
    ):
        for index in range(3):  # computed and stored once, then served twice
            tool_call(http, "get_method", {"method": "transformer"}, index)
        sample.faults.fail(502, times=5, path_prefix="datasets/403/evaluations")
        tool_call(http, "get_paper_evaluations", {"paper": "1706.03762", "against_sota": True})
        answer = http.get("/metrics.json")
    assert answer.status_code == 200
    memo = answer.json()["memo"]
    assert (memo["served"], memo["stored"]) == (2, 1)
    assert memo["refused"] == {
        "degraded": 1,
        "stale": 0,
        "uncacheable": 0,
        "too_big": 0,
        "not_admitted": 0,
    }
    assert memo["store"]["entries"] == 1  # the degraded comparison is not kept
    assert "transformer" not in answer.text and "1706.03762" not in answer.text
    assert answer.json()["chunks"]["max_bytes"] == 16 * 1024 * 1024
