"""Request, semantic, concurrency and global limits over real HTTP (fake clock, no sleeping)."""

from __future__ import annotations

import ipaddress
from concurrent.futures import ThreadPoolExecutor

import anyio
import anyio.to_thread

from pwc_mcp.config import Settings
from pwc_mcp.edge.rate_limits import configure_thread_pool
from tests.helpers import wait_until
from tests.helpers.safety import call, rpc

INIT = rpc(
    "initialize",
    {
        "protocolVersion": "2025-11-25",
        "capabilities": {},
        "clientInfo": {"name": "t", "version": "1"},
    },
)


def test_request_limit_with_retry_after_from_the_window(serve, clock):
    srv = serve(request_limit=3)
    for _ in range(3):
        assert srv.tool("get_task", task="x").status_code == 200
        clock.advance(10)
    body = call("get_task", task="x")
    r = srv.post(body)
    assert r.status_code == 429
    assert r.headers["retry-after"] == "31"  # now t=30; the hit at t=0 leaves the window after t=60
    error = r.json()
    assert error["id"] == body["id"] and error["jsonrpc"] == "2.0"
    assert error["error"] == {
        "code": -32029,
        "message": "rate_limited: request limit reached; retry in 31 s",
    }
    clock.advance(25)
    assert srv.tool("get_task", task="x").headers["retry-after"] == "6"  # refusals are not recorded
    clock.advance(6)
    assert srv.tool("get_task", task="x").status_code == 200  # one slot freed
    assert srv.tool("get_task", task="x").headers["retry-after"] == "10"  # next: the hit at t=10


def test_limits_are_per_identity(serve, clock):
    srv = serve(request_limit=1)
    assert srv.tool("get_task", {"X-PwC-MCP-Client": "alice"}, task="x").status_code == 200
    assert srv.tool("get_task", {"X-PwC-MCP-Client": "alice"}, task="x").status_code == 429
    assert srv.tool("get_task", {"X-PwC-MCP-Client": "bob"}, task="x").status_code == 200


def test_housekeeping_is_not_counted(serve, clock):
    srv = serve(request_limit=2)
    for _ in range(5):
        assert srv.post(INIT).status_code == 200
        assert srv.post(rpc("ping")).status_code == 200
        r = srv.post({"jsonrpc": "2.0", "method": "notifications/initialized"})
        assert r.status_code == 202
    assert srv.post(rpc("tools/list", {})).status_code == 200
    assert srv.tool("get_task", task="x").status_code == 200
    assert srv.post(rpc("tools/list", {})).status_code == 429  # list methods do count
    assert srv.post(INIT).status_code == 200  # housekeeping still passes at the limit


def test_unknown_methods_count(serve, clock):
    srv = serve(request_limit=1)
    assert srv.post(rpc("made/up", {})).status_code < 500
    assert srv.post(rpc("made/up", {})).status_code == 429


def test_semantic_limit_tells_the_agent_to_wait_or_use_keyword(serve, clock):
    srv = serve(semantic_limit=2)
    assert not srv.tool("search_papers", query="a", mode="semantic").json()["result"]["isError"]
    clock.advance(20)
    assert not srv.tool("search_papers", query="a").json()["result"]["isError"]  # omitted = hybrid
    r = srv.tool("search_papers", query="a", mode="hybrid")
    assert r.status_code == 200
    result = r.json()["result"]
    assert result["isError"] is True
    assert result["content"][0]["text"] == (
        "rate_limited: semantic search limit reached; retry in 41 s, "
        'or use mode="keyword", which is not limited'
    )
    for _ in range(5):  # keyword never counts
        assert not srv.tool("search_papers", query="a", mode="keyword").json()["result"]["isError"]
    assert srv.tool("get_task", task="x").status_code == 200
    clock.advance(41)
    assert not srv.tool("search_papers", query="a", mode="semantic").json()["result"]["isError"]


def test_semantic_limit_is_per_identity(serve, clock):
    srv = serve(semantic_limit=1)
    a, b = {"X-PwC-MCP-Client": "a"}, {"X-PwC-MCP-Client": "b"}
    assert not srv.tool("search_papers", a, query="q").json()["result"]["isError"]
    assert srv.tool("search_papers", a, query="q").json()["result"]["isError"]
    assert not srv.tool("search_papers", b, query="q").json()["result"]["isError"]


def _hold_requests(srv, count, headers=None):
    pool = ThreadPoolExecutor(count)
    futures = [pool.submit(srv.hold, headers) for _ in range(count)]
    srv.wait_entered(count)
    return pool, futures


def test_per_identity_concurrency(serve, clock):
    srv = serve(concurrency_limit=2)
    pool, futures = _hold_requests(srv, 2)
    try:
        r = srv.tool("get_task", task="x")
        assert r.status_code == 429 and r.headers["retry-after"] == "1"
        assert r.json()["error"]["code"] == -32029
        assert srv.tool("get_task", {"X-PwC-MCP-Client": "other"}, task="x").status_code == 200
    finally:
        srv.release()
        assert [f.result().status_code for f in futures] == [200, 200]
        pool.shutdown()
    assert srv.tool("get_task", task="x").status_code == 200  # slots were released


def test_global_concurrency_is_503(serve, clock):
    srv = serve(global_concurrency_limit=2, concurrency_limit=5)
    pool, futures = _hold_requests(srv, 2)
    try:
        r = srv.tool("get_task", {"X-PwC-MCP-Client": "someone-else"}, task="x")
        assert r.status_code == 503 and r.headers["retry-after"] == "1"
        assert r.json()["error"]["code"] == -32029
        assert srv.http.get("/health").status_code == 200
    finally:
        srv.release()
        assert [f.result().status_code for f in futures] == [200, 200]
        pool.shutdown()
    assert srv.tool("get_task", task="x").status_code == 200
    wait_until(lambda: srv.limiter.global_active == 0)  # released just after the bytes are sent


def test_identity_over_http_right_most_hop_and_trusted_cidr(serve, clock):
    # Whom a request counts against, seen through the request limit (one per identity).
    srv = serve(request_limit=1)

    def status(headers):
        return srv.tool("get_task", headers, task="x").status_code

    assert status({"X-Forwarded-For": "6.6.6.6, 203.0.113.9"}) == 200
    # the forged left-most value did not buy a fresh budget: the right-most hop is the client
    assert status({"X-Forwarded-For": "7.7.7.7, 203.0.113.9"}) == 429
    assert status({"X-Forwarded-For": "203.0.113.9"}) == 429
    assert status({"X-PwC-MCP-Client": "tagged"}) == 200  # a loopback client names itself
    assert status({"X-PwC-MCP-Client": "tagged"}) == 429
    assert status({"X-PwC-MCP-Client": "other"}) == 200

    proxied = serve(request_limit=1, trusted_proxy_cidrs=(ipaddress.ip_network("127.0.0.0/8"),))

    def via_proxy(headers):
        return proxied.tool("get_task", headers, task="x").status_code

    # the right-most hop outside the trusted CIDRs is the client
    assert via_proxy({"X-Forwarded-For": "1.1.1.1, 203.0.113.9, 127.0.0.2"}) == 200
    assert via_proxy({"X-Forwarded-For": "203.0.113.9"}) == 429
    assert via_proxy({"X-Forwarded-For": "1.1.1.1, 127.0.0.2"}) == 200
    # behind a trusted proxy a tag is never honoured: both are the proxy's own address
    assert via_proxy({"X-PwC-MCP-Client": "tagged"}) == 200
    assert via_proxy({"X-PwC-MCP-Client": "other"}) == 429


def test_configure_thread_pool():
    async def tokens(limit: int) -> float:
        configure_thread_pool(Settings(global_concurrency_limit=limit))
        return anyio.to_thread.current_default_thread_limiter().total_tokens

    assert anyio.run(tokens, 8) == 40
    assert anyio.run(tokens, 128) == 128
    assert anyio.run(tokens, 256) == 256
