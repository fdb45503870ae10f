"""The operations log: one content-free line per MCP request."""

from __future__ import annotations

import logging
import re

import pytest

from pwc_mcp.edge.telemetry import OPS_LOGGER, SILENCED, configure_logging, labels
from tests.helpers import wait_until
from tests.helpers.safety import rpc

LINE = re.compile(
    r"mcp_request tool=(\S+) method=(\S+) status=(\d+) outcome=(\S+) latency_ms=(\d+) "
    r"bytes=(\d+) protocol=(\S+) version=(\S+)"
)
QUERY = "zebra-quasar-7f3c transformer distillation"
PAPER = "2401.99999v9-secretpaper"
TAG = "client-tag-9c2e1f"
FORGED_IP = "198.51.100.234"
SECRET_AUTH = "Bearer sk-should-never-appear-4242"


def _ops_lines(caplog) -> list[re.Match]:
    return [
        m
        for rec in caplog.records
        if rec.name == OPS_LOGGER and (m := LINE.fullmatch(rec.getMessage()))
    ]


def test_one_content_free_line_per_request(serve, caplog, clock):
    srv = serve(request_limit=3, semantic_limit=1)
    caplog.set_level(logging.INFO, logger=OPS_LOGGER)
    headers = {"X-PwC-MCP-Client": TAG, "Authorization": SECRET_AUTH}
    forwarded = {"X-Forwarded-For": f"203.0.113.1, {FORGED_IP}"}
    responses = [
        srv.tool("search_papers", headers, query=QUERY, mode="semantic"),
        srv.tool("search_papers", headers, query=QUERY),  # semantic limit: isError
        srv.tool("get_task", forwarded, task=PAPER),
        srv.post(rpc("tools/call", {"name": PAPER, "arguments": {"q": QUERY}}), headers=headers),
        srv.post(rpc(QUERY, {}), headers={**headers, "MCP-Protocol-Version": QUERY[:10]}),
        srv.tool("get_task", headers, task=QUERY),  # 429: over the request limit
        srv.post(content=b'{"query": "' + QUERY.encode() + b'"'),  # 400 parse error
        srv.http.get("/mcp"),  # 405
        srv.post(rpc("tools/list", {}), headers={"Origin": "https://evil.example"}),  # 403
        srv.post(rpc("ping")),
    ]
    srv.http.get("/health")  # not an MCP request: no line
    srv.http.options(
        "/mcp", headers={"Origin": "http://localhost:1", "Access-Control-Request-Method": "POST"}
    )

    # each line is written once its response is out: the last may still be due
    wait_until(lambda: len(_ops_lines(caplog)) >= len(responses))
    lines = _ops_lines(caplog)
    assert len(lines) == len(responses)
    got = [(m[1], m[2], int(m[3]), m[4]) for m in lines]
    assert got == [
        ("search_papers", "tools/call", 200, "ok"),
        ("search_papers", "tools/call", 200, "limited"),  # the semantic limit: isError
        ("get_task", "tools/call", 200, "tool_error"),  # not found: isError, a 200 all the same
        ("unknown", "tools/call", 200, "tool_error"),
        ("unknown", "unknown", 400, "protocol_error"),  # admission refuses the protocol version
        ("get_task", "tools/call", 429, "limited"),
        ("unknown", "unknown", 400, "protocol_error"),
        ("unknown", "unknown", 405, "protocol_error"),
        ("unknown", "unknown", 403, "protocol_error"),
        ("ping", "ping", 200, "ok"),
    ]
    levels = [r.levelno for r in caplog.records if r.name == OPS_LOGGER]
    assert [level == logging.ERROR for level in levels] == [m[4] == "tool_error" for m in lines]
    for m, r in zip(lines, responses, strict=True):
        assert int(m[6]) == len(r.content)
        assert m[8] and m[8] != "unknown"
    assert [m[7] for m in lines][:4] == ["2025-11-25"] * 4
    assert lines[4][7] == "unknown"  # an unknown protocol header value is never echoed

    text = caplog.text + "".join(str(r.args) for r in caplog.records)
    for secret in (
        QUERY,
        "zebra",
        PAPER,
        TAG,
        FORGED_IP,
        "203.0.113.1",
        "127.0.0.1",
        SECRET_AUTH,
        "sk-should",
    ):
        assert secret not in text


def test_labels_only_pass_known_names():
    tools = frozenset({"search_papers"})
    assert labels({"method": "tools/call", "tool": "search_papers"}, tools) == (
        "search_papers",
        "tools/call",
    )
    assert labels({"method": "tools/call", "tool": "x y"}, tools) == ("unknown", "tools/call")
    assert labels({"method": "resources/read"}, tools) == ("resources/read", "resources/read")
    assert labels({"method": "secret"}, tools) == ("unknown", "unknown")
    assert labels({}, tools) == ("unknown", "unknown")


def test_configure_logging_silences_leaky_loggers():
    root = logging.getLogger()
    before = (root.level, list(root.handlers))
    saved = {
        name: (logging.getLogger(name).level, logging.getLogger(name).propagate)
        for name in (*SILENCED, "httpx", "pwc_mcp")
    }
    try:
        configure_logging("debug")
        assert logging.getLogger("pwc_mcp").getEffectiveLevel() == logging.DEBUG
        assert logging.getLogger("pwc_mcp.ops").isEnabledFor(logging.INFO)
        for name in ("mcp", "fastmcp", "uvicorn.access"):
            assert not logging.getLogger(name).isEnabledFor(logging.CRITICAL)
        assert not logging.getLogger("httpx").isEnabledFor(logging.INFO)
        with pytest.raises(ValueError):
            configure_logging("chatty")
    finally:
        root.setLevel(before[0])
        root.handlers[:] = before[1]
        for name, (level, propagate) in saved.items():
            logging.getLogger(name).setLevel(level)
            logging.getLogger(name).propagate = propagate
