"""Pings, notifications, malformed bodies and the GET routes share a separate budget."""

from __future__ import annotations

from tests.helpers.safety import rpc

PROXIED = {"X-Forwarded-For": "203.0.113.7"}  # through the local proxy, as nginx forwards
NOTIFY = {"jsonrpc": "2.0", "method": "notifications/initialized"}
PREFLIGHT = {"Origin": "http://localhost:1", "Access-Control-Request-Method": "POST"}


def test_housekeeping_has_its_own_per_identity_budget(serve, clock):
    srv = serve(request_limit=2)  # housekeeping: 5 x 2 = 10 per minute
    got = [srv.post(rpc("ping"), headers=PROXIED).status_code for _ in range(3)]
    got += [srv.post(NOTIFY, headers=PROXIED).status_code for _ in range(2)]
    got += [srv.post(content=b"x", headers=PROXIED).status_code for _ in range(2)]
    got += [srv.http.get(path, headers=PROXIED).status_code for path in ("/health", "/nope")]
    got.append(srv.http.get("/mcp", headers=PROXIED).status_code)
    assert got == [200, 200, 200, 202, 202, 400, 400, 200, 404, 405]
    r = srv.http.get("/health", headers=PROXIED)
    assert r.status_code == 429 and r.headers["retry-after"] == "61"
    ping = rpc("ping")
    r = srv.post(ping, headers=PROXIED)
    assert r.status_code == 429 and r.json()["id"] == ping["id"]
    assert r.json()["error"]["code"] == -32029
    assert srv.post(content=b"x", headers=PROXIED).status_code == 429
    # MCP work has its own budget, and other clients are unaffected.
    assert srv.tool("get_task", PROXIED, task="x").status_code == 200
    assert srv.http.get("/health", headers={"X-Forwarded-For": "203.0.113.8"}).status_code == 200
    clock.advance(61)
    assert srv.http.get("/health", headers=PROXIED).status_code == 200


def test_direct_loopback_peers_are_never_metered(serve, clock):
    srv = serve(request_limit=1)  # housekeeping: 5 per minute
    for _ in range(20):  # the proxy's and the container's health checks come this way
        assert srv.http.get("/health").status_code == 200
        assert srv.post(rpc("ping")).status_code == 200
        assert srv.http.options("/mcp", headers=PREFLIGHT).status_code == 204


def test_an_ipv6_site_shares_an_aggregate_housekeeping_budget(serve, clock):
    srv = serve(request_limit=1)  # 5 per /64, 80 per /48
    for i in range(16):
        for _ in range(5):
            headers = {"X-Forwarded-For": f"2001:db8:5:{i:x}::1"}
            assert srv.http.get("/health", headers=headers).status_code == 200
    fresh = {"X-Forwarded-For": "2001:db8:5:ff::1"}
    assert srv.http.get("/health", headers=fresh).status_code == 429
