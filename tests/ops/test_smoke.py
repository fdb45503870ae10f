"""scripts/smoke.py, run as the release workflow runs it: a subprocess against a real server."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from pwc_mcp.app import create_app
from pwc_mcp.config import Settings
from pwc_mcp.params import TOOLS
from pwc_mcp.sample import RunningCatalog
from pwc_mcp.serving.localserver import serve_in_thread
from tests.helpers.ops import free_port, load_script, run_script

CHECKS = ["health", "initialize", "tools/list", "read_paper", "continuation"]
LINE = re.compile(r"^(ok  |FAIL) (health|initialize|tools/list|read_paper|continuation): \S")


def settings(catalog_url: str, **overrides: Any) -> Settings:
    base = Settings(api_url=catalog_url, request_limit=1000, semantic_limit=1000)
    return dataclasses.replace(base, **overrides)


@contextmanager
def server(app: Any) -> Iterator[str]:
    with serve_in_thread(app, name="pwc-mcp") as running:
        yield running.origin


def smoke(*args: str) -> tuple[int, dict[str, str], str]:
    result = run_script("scripts/smoke.py", *args)
    lines = result.stdout.splitlines()
    checks = {m.group(2): m.group(1).strip() for line in lines if (m := LINE.match(line))}
    return result.returncode, checks, result.stdout + result.stderr


@pytest.fixture(scope="module")
def origin(catalog: RunningCatalog) -> Iterator[str]:
    with server(create_app(settings(catalog.url))) as running:
        yield running


def test_passes_against_the_sample_catalog(origin: str) -> None:
    code, checks, output = smoke(origin)
    assert code == 0, output
    assert checks == dict.fromkeys(CHECKS, "ok"), output
    assert f"{len(TOOLS)} tools" in output and "1706.03762" in output
    assert len([line for line in output.splitlines() if LINE.match(line)]) == len(CHECKS)


def test_accepts_the_mcp_url_and_another_host_header(catalog: RunningCatalog) -> None:
    app = create_app(settings(catalog.url, allowed_hosts=("paperswithcode.co",)))
    with server(app) as origin:
        refused, checks, _ = smoke(origin + "/mcp")
        assert refused == 1 and set(checks.values()) == {"FAIL"}, "421 for its own Host"
        code, checks, output = smoke(origin + "/mcp/", "--host-header", "paperswithcode.co")
    assert code == 0, output


def test_fails_when_the_catalog_is_down() -> None:
    """/health may still say ok for a moment, the tools list needs no catalog: the paper must fail."""
    dead = f"http://127.0.0.1:{free_port()}/api/v1"
    with server(create_app(settings(dead))) as origin:
        code, checks, output = smoke(origin)
    assert code == 1, output
    assert checks["initialize"] == "ok" and checks["tools/list"] == "ok"
    assert checks["read_paper"] == "FAIL" and checks["continuation"] == "FAIL"
    assert "FAIL continuation: not run" in output


def test_fails_without_a_server() -> None:
    code, checks, output = smoke(f"http://127.0.0.1:{free_port()}")
    assert code == 1
    assert checks == dict.fromkeys(CHECKS, "FAIL"), output
    assert "ConnectError" in output


def test_fails_on_a_short_paper_and_a_wrong_tool_count(origin: str) -> None:
    fewer = str(len(TOOLS) - 1)
    code, checks, output = smoke(origin, "--paper", "904512", "--expect-tools", fewer)
    assert code == 1
    assert checks["tools/list"] == "FAIL" and f"{len(TOOLS)} tools, expected {fewer}" in output
    assert checks["read_paper"] == "FAIL" and "not truncated" in output


class BrokenContinuation:
    """An ASGI layer that makes every read_paper continuation answer the first chunk again."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http" or scope["path"] != "/mcp":
            await self.app(scope, receive, send)
            return
        message = await receive()
        body = message.get("body", b"")
        if b'"cursor"' in body:
            body = re.sub(rb',\s*"cursor"\s*:\s*"[^"]*"', b"", body)
            scope = {
                **scope,
                "headers": [
                    (k, str(len(body)).encode() if k == b"content-length" else v)
                    for k, v in scope["headers"]
                ],
            }
        replayed = False

        async def replay() -> dict[str, Any]:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)


def test_fails_when_the_continuation_does_not_continue(catalog: RunningCatalog) -> None:
    with server(BrokenContinuation(create_app(settings(catalog.url)))) as origin:
        code, checks, output = smoke(origin)
    assert code == 1
    assert checks["read_paper"] == "ok" and checks["continuation"] == "FAIL", output
    assert "starts at 0" in output


def test_usage_errors_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    main = load_script("smoke").main
    for argv in (["ftp://example.invalid"], [], ["http://x", "--timeout", "soon"]):
        with pytest.raises(SystemExit) as exited:
            main(argv)
        assert exited.value.code == 2, argv
    assert "usage:" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("url", "base"),
    [
        ("https://paperswithcode.co", "https://paperswithcode.co"),
        ("https://paperswithcode.co/mcp", "https://paperswithcode.co"),
        ("http://127.0.0.1:7861/", "http://127.0.0.1:7861"),
        ("https://example.org/prefix/mcp/", "https://example.org/prefix"),
    ],
)
def test_base_url(url: str, base: str) -> None:
    assert load_script("smoke").base_url(url) == base


def test_a_server_still_starting_fails_health_once_the_wait_is_over() -> None:
    """/health says starting until its first probe ends; smoke waits, then names the state."""
    import socket

    with socket.socket() as stalled:  # accepts, never answers: the first probe cannot end
        stalled.bind(("127.0.0.1", 0))
        stalled.listen(8)
        # The probe ends at the catalog timeout, which the server's shutdown waits for: 6 s
        # (time enough for the smoke script to start and find it still outstanding).
        url = f"http://127.0.0.1:{stalled.getsockname()[1]}"
        app = create_app(settings(url, catalog_timeout=6.0), startup_grace=0)
        with server(app) as origin:
            code, checks, output = smoke(origin, "--health-wait", "0")
    assert code == 1 and checks["health"] == "FAIL", output
    assert "FAIL health: HTTP 503, status='starting'" in output
