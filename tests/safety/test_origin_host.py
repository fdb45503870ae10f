"""Origin and Host allowlists, CORS preflights, and what is exempt from limits."""

from __future__ import annotations

import pytest

from pwc_mcp.edge.guards import HostGuard, OriginGuard
from tests.helpers.safety import call, rpc

LIST = rpc("tools/list", {})


@pytest.mark.parametrize(
    "origin",
    ["http://localhost:6274", "http://127.0.0.1:3000", "http://[::1]:8080", "http://localhost"],
)
def test_default_allows_loopback_origins(serve, origin):
    srv = serve()
    r = srv.post(LIST, headers={"Origin": origin})
    assert r.status_code == 200
    assert r.headers["access-control-allow-origin"] == origin
    assert "retry-after" in r.headers["access-control-expose-headers"]


@pytest.mark.parametrize(
    "origin",
    ["https://attacker.example", "null", "https://localhost:6274", "http://localhost.evil.example"],
)
def test_default_refuses_other_origins(serve, origin):
    srv = serve()
    r = srv.post(LIST, headers={"Origin": origin})
    assert r.status_code == 403
    assert r.json()["error"]["message"] == "forbidden: origin not allowed"
    assert "access-control-allow-origin" not in r.headers


def test_configured_origins_are_exact(serve):
    srv = serve(allowed_origins=("https://claude.ai",))
    assert srv.post(LIST, headers={"Origin": "https://claude.ai"}).status_code == 200
    for bad in ("http://localhost:6274", "https://claude.ai.evil.example", "http://claude.ai"):
        assert srv.post(LIST, headers={"Origin": bad}).status_code == 403


def test_empty_origin_list_refuses_every_browser_but_not_native_clients(serve):
    srv = serve(allowed_origins=())
    assert srv.post(LIST, headers={"Origin": "http://localhost:1"}).status_code == 403
    assert srv.post(LIST).status_code == 200  # no Origin: a native client


def test_missing_origin_is_allowed(serve):
    assert serve().post(LIST).status_code == 200


def test_preflight_from_allowed_origin_grants_mcp_headers(serve):
    srv = serve(allowed_origins=("https://claude.ai",))
    r = srv.http.options(
        "/mcp",
        headers={
            "Origin": "https://claude.ai",
            "Access-Control-Request-Method": "POST",
            "Access-Control-Request-Headers": "content-type, mcp-protocol-version, mcp-method, mcp-name",
        },
    )
    assert r.status_code in (200, 204)
    assert r.headers["access-control-allow-origin"] == "https://claude.ai"
    allowed = {h.strip() for h in r.headers["access-control-allow-headers"].split(",")}
    assert {
        "content-type",
        "mcp-protocol-version",
        "mcp-method",
        "mcp-name",
        "authorization",
    } <= allowed
    assert "POST" in r.headers["access-control-allow-methods"]
    assert "*" not in r.headers["access-control-allow-origin"]


def test_preflight_from_refused_origin_gets_no_grant(serve):
    srv = serve(allowed_origins=("https://claude.ai",))
    r = srv.http.options(
        "/mcp",
        headers={"Origin": "https://evil.example", "Access-Control-Request-Method": "POST"},
    )
    assert r.status_code == 403
    assert not any(h.startswith("access-control-") for h in r.headers)


def test_limited_response_exposes_retry_after_to_allowed_origin(serve, clock):
    srv = serve(request_limit=1, allowed_origins=("https://claude.ai",))
    headers = {"Origin": "https://claude.ai"}
    assert srv.post(LIST, headers=headers).status_code == 200
    r = srv.post(LIST, headers=headers)
    assert r.status_code == 429
    assert r.headers["access-control-allow-origin"] == "https://claude.ai"
    assert r.headers["access-control-expose-headers"] == "retry-after"


def test_preflights_and_health_are_never_limited(serve, clock):
    srv = serve(request_limit=1)
    assert srv.post(call("get_task", task="a")).status_code == 200
    assert srv.post(call("get_task", task="a")).status_code == 429
    for _ in range(5):
        assert srv.http.get("/health").status_code == 200
        r = srv.http.options(
            "/mcp",
            headers={"Origin": "http://localhost:1", "Access-Control-Request-Method": "POST"},
        )
        assert r.status_code == 204


@pytest.mark.parametrize(
    "host", ["evil.example", "evil.example:80", "localhost.evil.example:1", ""]
)
def test_default_hosts_refuse_foreign_host(serve, host):
    srv = serve()
    r = srv.post(LIST, headers={"Host": host})
    assert r.status_code == 421
    assert r.json()["error"]["message"] == "misdirected request: host not allowed"
    assert srv.http.get("/health", headers={"Host": host}).status_code == 421


@pytest.mark.parametrize("host", ["localhost:7860", "127.0.0.1", "[::1]:1234", "LOCALHOST:1"])
def test_default_hosts_allow_loopback_any_port(serve, host):
    assert serve().post(LIST, headers={"Host": host}).status_code == 200


def test_configured_hosts():
    guard = HostGuard(None, ("paperswithcode.co", "mcp.example.org:443", "api.example.org:*"))
    assert guard.allows("paperswithcode.co")
    assert not guard.allows("paperswithcode.co:8080")
    assert guard.allows("mcp.example.org:443")
    assert not guard.allows("mcp.example.org") and not guard.allows("mcp.example.org:444")
    assert guard.allows("api.example.org") and guard.allows("api.example.org:9")
    assert not guard.allows("localhost:7860")  # an explicit list replaces the loopback default
    assert not guard.allows("api.example.org:*") and not guard.allows("a b")
    with pytest.raises(ValueError):
        HostGuard(None, ("https://bad.example",))


def test_origin_guard_unit():
    default = OriginGuard(None, None)
    assert default.allows("http://localhost:6274") and default.allows("http://[::1]")
    assert not default.allows("http://localhost:6274/path") and not default.allows(
        "http://127.0.0.2"
    )
    listed = OriginGuard(None, ("https://chatgpt.com",))
    assert listed.allows("https://chatgpt.com") and not listed.allows("https://chatgpt.com.evil")
