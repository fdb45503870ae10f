"""Nothing a user asks reaches the log: distinctive values through every tool, at DEBUG level."""

from __future__ import annotations

import logging

import httpx
import pytest

from pwc_mcp.params import TOOLS
from pwc_mcp.telemetry import configure_logging
from tests.helpers import wait_until
from tests.helpers.e2e import RPC_HEADERS, rpc

SECRET = "zq7781"  # appears in every argument below, and must appear in no log record
CALLS = {
    "search_papers": {"query": f"{SECRET} transformer"},
    "get_paper_info": {"paper": f"A Paper Called {SECRET}"},
    "get_paper_evaluations": {"paper": f"2999.{SECRET[-4:]}1"},
    "read_paper": {"paper": f"{SECRET} paper"},
    "list_papers": {"search": SECRET, "task": f"task-{SECRET}"},
    "list_recent_papers": {"limit": 3},
    "list_trending_papers": {"limit": 3},
    "get_related_papers": {"paper": f"Related {SECRET}"},
    "get_paper_lineage": {"paper": f"Lineage {SECRET}"},
    "get_task": {"task": f"task-{SECRET}"},
    "list_tasks": {"search": SECRET},
    "get_method": {"method": f"method-{SECRET}"},
    "list_methods": {"search": SECRET},
    "get_conference": {"conference": f"conf-{SECRET}"},
    "list_conferences": {"year": 2017},
    "get_organization": {"organization": f"org-{SECRET}"},
    "list_organizations": {"featured_only": True},
    "get_framework": {"framework": f"fw-{SECRET}"},
    "list_frameworks": {"platform": f"plat-{SECRET}"},
    "get_benchmark": {"benchmark": "imagenet", "sort_metric": f"metric-{SECRET}"},
    "list_benchmarks": {"search": SECRET},
}


def test_logs_carry_no_queries_references_or_addresses(
    server, caplog: pytest.LogCaptureFixture
) -> None:
    assert set(CALLS) == set(TOOLS)
    configure_logging("DEBUG")
    caplog.set_level(logging.DEBUG)
    headers = {
        **RPC_HEADERS,
        "X-PwC-MCP-Client": f"client-{SECRET}",
        "Authorization": f"Bearer {SECRET}",
    }
    with httpx.Client(base_url=server.origin, timeout=30) as http:
        for index, (tool, arguments) in enumerate(CALLS.items()):
            answer = http.post(
                "/mcp",
                json=rpc("tools/call", {"name": tool, "arguments": arguments}, rpc_id=index),
                headers=headers,
            )
            assert answer.status_code == 200
        http.post(
            "/mcp",
            json=rpc("tools/call", {"name": f"tool-{SECRET}", "arguments": {}}),
            headers=headers,
        )

    def ops_lines() -> list[str]:
        return [r.getMessage() for r in caplog.records if r.name.startswith("pwc_mcp.ops")]

    # The server writes a request's line once the response is out: the last may still be due.
    wait_until(lambda: len(ops_lines()) >= len(CALLS) + 1)
    ops = ops_lines()
    text = caplog.text
    assert SECRET not in text
    assert "127.0.0.1" not in text
    for tool in ("search_papers", "get_benchmark", "unknown"):
        assert any(f"tool={tool}" in line for line in ops), tool
