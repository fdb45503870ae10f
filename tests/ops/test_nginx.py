"""nginx/pwc-mcp.conf: `nginx -t` on the shipped file, then the real nginx in front of pwc-mcp.

The end-to-end part renders the site for loopback plain HTTP (only listen, TLS and upstream
lines change; the helpers insist on exact matches) and runs Debian's nginx in a temp prefix in
front of create_app on the sample catalog. Clients connect from distinct loopback addresses
(127.0.0.x), so "the connecting address" differs from nginx's own peer address (127.0.0.1).
"""

from __future__ import annotations

import dataclasses
import itertools
import re
import select
import socket
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from pwc_mcp.app import create_app
from pwc_mcp.config import Settings
from pwc_mcp.edge.identity import client_identity
from pwc_mcp.params import TOOLS
from pwc_mcp.sample import RunningCatalog
from pwc_mcp.serving.connections import ConnectionLimits
from pwc_mcp.serving.localserver import serve_in_thread
from tests.helpers import wait_until
from tests.helpers.ops import (
    PUBLIC_HOST,
    SITE_CONF,
    Nginx,
    free_port,
    nginx_binary,
    nginx_test,
    open_tempdir,
    render_site,
    require_tool,
    run_nginx,
    run_script,
    self_signed,
    write_main,
)

MCP_HEADERS = {
    "Accept": "application/json, text/event-stream",
    "Content-Type": "application/json",
    "MCP-Protocol-Version": "2025-11-25",
}
REQUEST_LIMIT = 3
_ids = itertools.count(1)


def site_text() -> str:
    """The shipped site without comments."""
    return re.sub(r"#[^\n]*", "", SITE_CONF.read_text())


def directives(name: str) -> list[str]:
    text = site_text()
    return [m.group(1).strip() for m in re.finditer(rf"^\s*{name}\s+([^;]*);", text, re.M)]


def test_a_missing_tool_fails_under_ci(monkeypatch: pytest.MonkeyPatch) -> None:
    """CI=true turns a missing nginx (or uv) into a failure; elsewhere the test is skipped."""
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match="not installed"):
        require_tool("pwc-no-such-tool", "/nonexistent/pwc-no-such-tool")
    monkeypatch.setenv("CI", "false")
    with pytest.raises(pytest.skip.Exception):
        require_tool("pwc-no-such-tool")


def test_site_directives() -> None:
    """The invariants the issue lists, read from the shipped file (the e2e test checks behaviour)."""
    assert directives("proxy_http_version") == ["1.1"]
    assert directives("proxy_buffering") == ["off"]
    assert directives("client_max_body_size") == ["2m"]
    headers = dict(h.split(None, 1) for h in directives("proxy_set_header"))
    assert headers["X-Forwarded-For"] == "$remote_addr"
    assert headers["Host"] == "$host"
    assert headers["X-PwC-MCP-Client"] == '""'
    assert "$proxy_add_x_forwarded_for" not in site_text()
    for timeout in ("proxy_read_timeout", "proxy_send_timeout", "send_timeout"):
        (value,) = directives(timeout)
        assert int(value.removesuffix("s")) > 25, f"{timeout} must exceed the catalog timeout"
    published = re.findall(r"location\s+=\s+(\S+)\s*\{\s*proxy_pass\s", site_text())
    assert sorted(published) == ["/.well-known/mcp", "/docs", "/health", "/mcp", "/mcp/server-card"]
    upstream = re.search(r"upstream\s+pwc_mcp\s*\{([^}]*)\}", site_text())
    assert upstream is not None
    servers = re.findall(r"^\s*server\s+([^;\s]+)", upstream.group(1), re.M)
    assert servers == ["127.0.0.1:7860"], "the upstream is the loopback-bound server"
    (idle,) = re.findall(r"^\s*keepalive_timeout\s+(\d+)s;", upstream.group(1), re.M)
    assert int(idle) < ConnectionLimits().keep_alive_seconds, "nginx retires idle sockets first"


def server_blocks() -> list[str]:
    return re.findall(r"^server\s*\{(.*?)^\}", site_text(), re.M | re.S)


def test_unknown_names_meet_a_catch_all_and_redirects_name_the_site() -> None:
    """No answer ever reflects the client's Host: a `default_server` drops unknown names on both
    ports (TLS handshakes for them are refused), and the redirect names the site itself."""
    blocks = server_blocks()
    catch_alls = [b for b in blocks if "default_server" in b]
    assert len(catch_alls) == 2
    for block in catch_alls:
        assert re.search(r"^\s*return\s+444;", block, re.M)
        assert re.search(r"^\s*server_name\s+_;", block, re.M)
    assert any("ssl_reject_handshake on;" in b for b in catch_alls)
    returns = re.findall(r"^\s*return\s+30\d\s+(\S+);", site_text(), re.M)
    assert returns == [f"https://{PUBLIC_HOST}$request_uri"]


def test_a_first_layer_of_rate_and_connection_limits() -> None:
    zones = directives("limit_req_zone") + directives("limit_conn_zone")
    assert all(z.startswith("$binary_remote_addr ") for z in zones) and len(zones) == 2
    assert directives("limit_req") and directives("limit_conn")
    assert directives("limit_req_status") == directives("limit_conn_status") == ["429"]
    for timeout in ("client_header_timeout", "client_body_timeout"):
        (value,) = directives(timeout)
        assert int(value.removesuffix("s")) <= 15, f"{timeout}: a stalled client goes quickly"


def tls_site(directory: Path) -> str:
    return render_site(port=free_port(), redirect_port=free_port(), tls=self_signed(directory))


def test_nginx_accepts_the_shipped_site(workdir: Path) -> None:
    """`nginx -t` on the site with its TLS server block (ssl, http2) and every directive."""
    nginx = nginx_binary()
    main = write_main(workdir, tls_site(workdir))
    result = nginx_test(nginx, workdir, main)
    assert result.returncode == 0, result.stderr
    assert "test is successful" in result.stderr


def test_nginx_rejects_a_broken_site(workdir: Path) -> None:
    """The syntax check can fail: the same site with one directive mangled does not pass."""
    nginx = nginx_binary()
    broken = tls_site(workdir).replace("proxy_buffering off;", "proxy_buffering sideways;")
    result = nginx_test(nginx, workdir, write_main(workdir, broken))
    assert result.returncode != 0
    assert "proxy_buffering" in result.stderr


# -- end to end ------------------------------------------------------------------------------


class Recorder:
    """Outermost ASGI layer: the identity the server derives for each POST /mcp."""

    def __init__(self, app: Any, settings: Settings) -> None:
        self.app, self.settings = app, settings
        self.seen: list[dict[str, Any]] = []

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] == "http" and scope["path"] == "/mcp":
            headers = [(k.decode().lower(), v.decode()) for k, v in scope["headers"]]
            self.seen.append(
                {
                    "identity": client_identity(scope, self.settings.trusted_proxy_cidrs),
                    "peer": scope["client"][0],
                    "xff": [v for k, v in headers if k == "x-forwarded-for"],
                    "client_tag": [v for k, v in headers if k == "x-pwc-mcp-client"],
                    "host": [v for k, v in headers if k == "host"],
                }
            )
        await self.app(scope, receive, send)


@dataclasses.dataclass
class Stack:
    nginx: Nginx
    recorder: Recorder

    def client(self, source: str, **kwargs: Any) -> httpx.Client:
        """A client connecting to nginx from the loopback address ``source``."""
        transport = httpx.HTTPTransport(local_address=source)
        headers = {"Host": PUBLIC_HOST, **kwargs.pop("headers", {})}
        return httpx.Client(
            base_url=self.nginx.origin, transport=transport, headers=headers, timeout=30, **kwargs
        )


@pytest.fixture(scope="module")
def stack(catalog: RunningCatalog) -> Iterator[Stack]:
    nginx = nginx_binary()
    settings = Settings(
        api_url=catalog.url,
        allowed_hosts=(PUBLIC_HOST, "127.0.0.1:*"),
        request_limit=REQUEST_LIMIT,
        semantic_limit=100,
        concurrency_limit=8,
    )
    recorder = Recorder(create_app(settings), settings)
    with (
        open_tempdir("pwc-nginx-") as prefix,
        serve_in_thread(recorder, name="pwc-mcp") as server,
        run_nginx(nginx, prefix, server.port) as running,
    ):
        yield Stack(running, recorder)


def tools_list() -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": next(_ids), "method": "tools/list", "params": {}}


def post(client: httpx.Client, headers: dict[str, str] | None = None) -> httpx.Response:
    return client.post("/mcp", json=tools_list(), headers={**MCP_HEADERS, **(headers or {})})


def test_published_routes(stack: Stack) -> None:
    with stack.client("127.0.0.1") as client:
        health = client.get("/health")
        assert health.status_code == 200 and health.json()["status"] == "ok"
        well_known = client.get("/.well-known/mcp")
        assert well_known.status_code == 200
        assert well_known.json()["transport"]["url"].endswith(f"//{PUBLIC_HOST}/mcp")
        docs = client.get("/docs")
        assert docs.status_code == 200 and len(docs.json()["tools"]) == len(TOOLS)
        card = client.get("/mcp/server-card")
        assert card.status_code == 200
        assert card.headers["content-type"].startswith("application/mcp-server-card+json")
        for hidden in ("/", "/mcp/x", "/healthz", "/docs/extra", "/mcp/server-card/x"):
            assert client.get(hidden).status_code == 404, hidden


def raw(port: int, source: str = "127.0.0.1") -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", port), timeout=10, source_address=(source, 0))
    sock.settimeout(10)
    return sock


def read_until_closed(sock: socket.socket) -> bytes:
    received = b""
    while chunk := sock.recv(65536):
        received += chunk
    return received


def test_public_host_reaches_the_server(stack: Stack) -> None:
    """nginx passes the listed name on as Host; any other name never reaches the server."""
    with stack.client("127.0.0.6") as client:
        before = len(stack.recorder.seen)
        assert post(client).status_code == 200
        assert stack.recorder.seen[before]["host"] == [PUBLIC_HOST]
    before = len(stack.recorder.seen)
    for host in ("evil.example", "127.0.0.1", f"{PUBLIC_HOST}.evil.example"):
        with raw(stack.nginx.port, "127.0.0.6") as sock:
            sock.sendall(f"GET /.well-known/mcp HTTP/1.1\r\nHost: {host}\r\n\r\n".encode())
            assert read_until_closed(sock) == b"", f"{host}: closed without an answer (444)"
    assert len(stack.recorder.seen) == before


def test_identity_is_the_connecting_address(stack: Stack) -> None:
    with stack.client("127.0.0.2") as client:
        assert post(client).status_code == 200
    seen = stack.recorder.seen[-1]
    assert seen["peer"] == "127.0.0.1", "nginx itself is the server's (loopback) peer"
    assert seen["xff"] == ["127.0.0.2"]
    assert seen["identity"] == "ip:127.0.0.2"


@pytest.mark.parametrize(
    "forged",
    [
        {"X-Forwarded-For": "203.0.113.9"},
        {"X-Forwarded-For": "203.0.113.9, 198.51.100.7"},
        {"X-Forwarded-For": "127.0.0.9"},
        {"X-PwC-MCP-Client": "someone-else"},
        {"X-Forwarded-For": "203.0.113.9", "X-PwC-MCP-Client": "someone-else"},
    ],
    ids=["xff", "xff-chain", "xff-loopback", "client-tag", "both"],
)
def test_forged_headers_do_not_change_the_identity(stack: Stack, forged: dict[str, str]) -> None:
    with stack.client("127.0.0.3") as client:
        response = client.post(
            "/mcp",
            json={"jsonrpc": "2.0", "id": 1, "method": "ping"},
            headers={**MCP_HEADERS, **forged},
        )
        assert response.status_code == 200
    seen = stack.recorder.seen[-1]
    assert seen["xff"] == ["127.0.0.3"], "nginx must overwrite, not append to, the client's XFF"
    assert seen["client_tag"] == [], "nginx must drop the client's X-PwC-MCP-Client"
    assert seen["identity"] == "ip:127.0.0.3"


def test_forged_xff_does_not_buy_a_fresh_budget(stack: Stack) -> None:
    """Behaviour, not just the derivation: one address, one request budget, whatever it claims."""
    with stack.client("127.0.0.4") as client:
        for n in range(REQUEST_LIMIT):
            assert post(client, {"X-Forwarded-For": f"198.51.100.{n}"}).status_code == 200
        refused = post(client, {"X-Forwarded-For": "198.51.100.250"})
        assert refused.status_code == 429
        assert refused.headers.get("retry-after")
    with stack.client("127.0.0.5") as other:
        assert post(other).status_code == 200, "another address has its own budget"


def test_request_body_limit(stack: Stack) -> None:
    with stack.client("127.0.0.7") as client:
        before = len(stack.recorder.seen)
        body = b'{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":"' + b"x" * (2 << 20)
        response = client.post("/mcp", content=body + b'"}}', headers=MCP_HEADERS)
        assert response.status_code == 413
        assert len(stack.recorder.seen) == before, "refused by nginx: never reached the server"


def test_plain_http_redirects_keeping_the_method(stack: Stack) -> None:
    with httpx.Client(timeout=10) as client:
        response = client.post(
            f"http://127.0.0.1:{stack.nginx.redirect_port}/mcp",
            headers={"Host": PUBLIC_HOST},
            content=b"{}",
        )
    assert response.status_code == 308
    assert response.headers["location"] == f"https://{PUBLIC_HOST}/mcp"
    with raw(stack.nginx.redirect_port) as sock:
        sock.sendall(b"POST /mcp HTTP/1.1\r\nHost: evil.example\r\nContent-Length: 0\r\n\r\n")
        assert read_until_closed(sock) == b"", "no redirect to a name the client chose"


def test_connections_per_address_are_capped(stack: Stack) -> None:
    """limit_conn counts requests in progress: held uploads past the cap are refused at once,
    never reaching the server; once they end, the address is served again."""
    (cap,) = (int(v) for v in directives("limit_conn")[0].split()[1:])
    source, extra = "127.0.0.8", 4
    head = (
        f"POST /mcp HTTP/1.1\r\nHost: {PUBLIC_HOST}\r\nContent-Type: application/json\r\n"
        "Content-Length: 64\r\n\r\n"
    ).encode()
    held = [raw(stack.nginx.port, source) for _ in range(cap + extra)]
    try:
        for sock in held:
            sock.sendall(head)  # and never the body
        answered: list[bytes] = []

        def refused() -> bool:  # select() waits for the answers: no pause between rounds
            pending = [s for s in held if s.fileno() >= 0]
            readable, _, _ = select.select(pending, [], [], 0.5)
            for sock in readable:
                answered.append(sock.recv(65536))
                sock.close()
            return len(answered) >= extra

        wait_until(refused, timeout=10, interval=0)
        assert len(answered) == extra
        assert all(a.startswith(b"HTTP/1.1 429 ") for a in answered), answered
    finally:
        for sock in held:
            sock.close()
    with stack.client(source) as client:
        assert client.get("/health").status_code == 200


def test_request_rate_per_address_is_limited(stack: Stack) -> None:
    """limit_req: a burst far past the allowance gets nginx's 429; another address is unaffected.
    (120 requests would need 7 s to fit the 10/s + 50 burst allowance.)"""
    with stack.client("127.0.0.9") as client:
        statuses = [client.get("/health").status_code for _ in range(120)]
    assert statuses[0] == 200 and 429 in statuses
    assert set(statuses) == {200, 429}
    with stack.client("127.0.0.10") as other:
        assert other.get("/health").status_code == 200


def test_smoke_script_through_nginx(stack: Stack) -> None:
    """initialize, tools/list and the read_paper continuation through the proxy (64 KiB chunks)."""
    result = run_script("scripts/smoke.py", stack.nginx.origin, "--host-header", PUBLIC_HOST)
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.count("\nok   ") + result.stdout.startswith("ok   ") == 5
