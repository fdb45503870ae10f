"""Nothing a user asks reaches the log: distinctive values through every tool, at DEBUG level."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from pwc_mcp.edge.telemetry import configure_logging
from pwc_mcp.site.examples import TOOL_EXAMPLES
from tests.helpers import wait_until
from tests.helpers.e2e import RPC_HEADERS, rpc

SECRET = "zq7781"  # in every request's headers and each text argument below; in no log record


def _tainted(value: Any) -> Iterator[Any]:
    """`value` once for each text it holds (a mapping's keys too), that text carrying SECRET."""
    if isinstance(value, str):
        yield f"{value} {SECRET}"
    elif isinstance(value, list):
        for index, item in enumerate(value):
            for variant in _tainted(item):
                yield [*value[:index], variant, *value[index + 1 :]]
    elif isinstance(value, dict):
        for key, item in value.items():
            yield {f"{k} {SECRET}" if k == key else k: v for k, v in value.items()}
            for variant in _tainted(item):
                yield {**value, key: variant}


def _calls() -> list[tuple[str, dict[str, Any]]]:
    """Every example of the one table (pwc_mcp/site/examples.py), as it is (valid values reach the
    handlers' deep paths), then once for each text argument with SECRET in it."""
    examples = [(tool, example) for tool, group in TOOL_EXAMPLES.items() for example in group]
    return examples + [
        (tool, {**example, name: variant})
        for tool, example in examples
        for name, value in example.items()
        for variant in _tainted(value)
    ]


CALLS = _calls()


def test_logs_carry_no_queries_references_or_addresses(
    server, caplog: pytest.LogCaptureFixture
) -> None:
    assert sum(SECRET in repr(arguments) for _, arguments in CALLS) >= len(TOOL_EXAMPLES)
    configure_logging("DEBUG")
    caplog.set_level(logging.DEBUG)
    headers = {
        **RPC_HEADERS,
        "X-PwC-MCP-Client": f"client-{SECRET}",
        "Authorization": f"Bearer {SECRET}",
    }
    with httpx.Client(base_url=server.origin, timeout=30) as http:
        for index, (tool, arguments) in enumerate(CALLS):
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
