"""Start-up configuration (one clear line per problem) and the /health readiness cache."""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from pwc_mcp.app import create_app
from pwc_mcp.catalog import Readiness
from pwc_mcp.cli import main
from pwc_mcp.config import ConfigError, Settings
from pwc_mcp.edge.guards import HostGuard
from pwc_mcp.sample import RunningCatalog
from pwc_mcp.serving.localserver import serve_in_thread


def test_defaults_are_safe() -> None:
    settings = Settings.from_env({})
    assert settings.host == "127.0.0.1" and settings.port == 7860
    assert settings.allowed_origins is None  # loopback origins only
    assert (
        settings.request_limit,
        settings.semantic_limit,
        settings.concurrency_limit,
        settings.global_concurrency_limit,
    ) == (60, 10, 4, 128)
    assert settings.cursor_key_ephemeral and len(settings.cursor_key_current) == 32


def test_every_problem_is_reported_at_once() -> None:
    env = {
        "PORT": "http",
        "PWC_MCP_ALLOWED_ORIGINS": "https://a.example,*",
        "PWC_MCP_REQUEST_LIMIT": "0",
        "PWC_MCP_GLOBAL_CONCURRENCY_LIMIT": "10001",
        "PWC_MCP_TRUSTED_PROXY_CIDRS": "10.0.0.0/8,not-a-network",
        "PWC_MCP_CURSOR_KEY_CURRENT": "short",
        "LOG_LEVEL": "chatty",
        "PWC_API_URL": "ftp://x",
        "PWC_MCP_RATE_LIMIT_STORAGE": "redis://127.0.0.1:1",
    }
    with pytest.raises(ConfigError) as info:
        Settings.from_env(env)
    problems = info.value.problems
    assert len(problems) == 8, problems
    assert "PWC_MCP_ALLOWED_ORIGINS must not contain a wildcard; list each origin" in problems
    assert "PWC_MCP_REQUEST_LIMIT must be an integer between 1 and 10000" in problems


def test_shared_limits_need_a_shared_hashing_key() -> None:
    with pytest.raises(ConfigError, match="replicas must hash client identities"):
        Settings.from_env({"PWC_MCP_RATE_LIMIT_STORAGE": "redis://127.0.0.1:6379"})
    shared = Settings.from_env(
        {
            "PWC_MCP_RATE_LIMIT_STORAGE": "redis://127.0.0.1:6379",
            "PWC_MCP_CURSOR_KEY_CURRENT": "k" * 32,
        }
    )
    assert shared.rate_limit_storage == "redis://127.0.0.1:6379"


def test_overrides_are_applied() -> None:
    settings = Settings.from_env(
        {
            "PWC_MCP_ALLOWED_ORIGINS": "https://claude.ai, https://chatgpt.com/",
            "PWC_MCP_ALLOWED_HOSTS": "paperswithcode.co:*,127.0.0.1:*",
            "PWC_MCP_SEMANTIC_LIMIT": "3",
            "PWC_MCP_TRUSTED_PROXY_CIDRS": "10.0.0.0/8",
            "PWC_MCP_CURSOR_KEY_CURRENT": "k" * 32,
            "PWC_MCP_CURSOR_KEY_PREVIOUS": "p" * 32,
        }
    )
    assert settings.allowed_origins == ("https://claude.ai", "https://chatgpt.com")
    assert settings.allowed_hosts == ("paperswithcode.co:*", "127.0.0.1:*")
    assert settings.semantic_limit == 3 and not settings.cursor_key_ephemeral
    assert settings.cursor_key_previous == b"p" * 32


def test_server_refuses_to_start_with_one_line_per_problem(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("PWC_MCP_REQUEST_LIMIT", "abc")
    monkeypatch.setenv("PWC_MCP_ALLOWED_ORIGINS", "*")
    assert main([]) == 2
    lines = capsys.readouterr().err.strip().splitlines()
    assert lines == [
        "pwc-mcp: PWC_MCP_ALLOWED_ORIGINS must not contain a wildcard; list each origin",
        "pwc-mcp: PWC_MCP_REQUEST_LIMIT must be an integer between 1 and 10000",
    ]


@pytest.mark.parametrize("port", ["\u00b2", "9" * 5000, "65536", "-1"])
def test_an_unusable_sample_port_is_one_line_not_a_traceback(
    port: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("PWC_SAMPLE_PORT", port)
    assert main(["--sample-catalog"]) == 2
    assert capsys.readouterr().err.splitlines() == [
        "pwc-mcp: PWC_SAMPLE_PORT must be an integer between 0 and 65535 (0 = a free port)"
    ]


@pytest.mark.parametrize(
    "hosts", ["*", "*.example.org", "paperswithcode.co,*", "host:port", "a b", " , "]
)
def test_an_unusable_host_allowlist_is_a_config_error(hosts: str) -> None:
    with pytest.raises(ConfigError, match="^PWC_MCP_ALLOWED_HOSTS "):
        Settings.from_env({"PWC_MCP_ALLOWED_HOSTS": hosts})


@pytest.mark.parametrize(
    "hosts", ["paperswithcode.co", "paperswithcode.co:443,127.0.0.1:*", "[::1]:*", "localhost"]
)
def test_every_accepted_host_entry_is_one_the_guard_accepts(hosts: str) -> None:
    """Validation and HostGuard share one grammar (pwc_mcp.config.hosts): no start-up traceback."""
    settings = Settings.from_env({"PWC_MCP_ALLOWED_HOSTS": hosts})
    HostGuard(lambda scope, receive, send: None, settings.allowed_hosts)


def test_a_wildcard_host_stops_start_up_with_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("PWC_MCP_ALLOWED_HOSTS", "*")
    assert main([]) == 2
    assert capsys.readouterr().err.splitlines() == [
        "pwc-mcp: PWC_MCP_ALLOWED_HOSTS entries must be host, host:port or host:* "
        "(no wildcard host): *"
    ]


@pytest.mark.parametrize(
    "cidr", ["0.0.0.0/0", "::/0", "10.0.0.0/7", "2001:db8::/31", "128.0.0.0/1"]
)
def test_an_implausibly_wide_trusted_proxy_range_is_refused(cidr: str) -> None:
    """Anyone inside a trusted range picks their identity by X-Forwarded-For."""
    with pytest.raises(ConfigError, match="is too wide") as info:
        Settings.from_env({"PWC_MCP_TRUSTED_PROXY_CIDRS": f"10.1.0.0/16,{cidr}"})
    assert len(info.value.problems) == 1


def test_plausible_trusted_proxy_ranges_are_accepted() -> None:
    settings = Settings.from_env(
        {"PWC_MCP_TRUSTED_PROXY_CIDRS": "10.0.0.0/8, 2001:db8::/32, 192.0.2.7, fd00::1"}
    )
    assert [str(n) for n in settings.trusted_proxy_cidrs] == [
        "10.0.0.0/8",
        "2001:db8::/32",
        "192.0.2.7/32",
        "fd00::1/128",
    ]


@pytest.mark.parametrize(
    ("value", "origin"),
    [
        ("https://pwc.example.org", "https://pwc.example.org"),
        ("https://PWC.example.org/", "https://pwc.example.org"),
        ("http://127.0.0.1:7860", "http://127.0.0.1:7860"),
        ("https://[2001:db8::1]:8443", "https://[2001:db8::1]:8443"),
    ],
)
def test_the_public_url_is_an_origin(value: str, origin: str) -> None:
    assert Settings.from_env({"PWC_MCP_PUBLIC_URL": value}).public_url == origin
    assert Settings.from_env({}).public_url is None


@pytest.mark.parametrize(
    "value",
    [
        "pwc.example.org",
        "ftp://pwc.example.org",
        "https://pwc.example.org/mcp",
        "https://pwc.example.org?x=1",
        "https://user@pwc.example.org",
        "https://pwc.example.org:99999",
        "https://*.example.org",
        "https://",
    ],
)
def test_a_public_url_that_is_not_an_origin_is_refused(value: str) -> None:
    with pytest.raises(ConfigError, match="^PWC_MCP_PUBLIC_URL must be an http"):
        Settings.from_env({"PWC_MCP_PUBLIC_URL": value})


@pytest.mark.parametrize("url", ["http://", "https://", "http://[::1"])
def test_a_catalog_url_without_a_host_is_refused(url: str) -> None:
    with pytest.raises(ConfigError, match="^PWC_API_URL must be"):
        Settings.from_env({"PWC_API_URL": url})


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_readiness_never_waits_and_reprobes_on_schedule() -> None:
    clock, gate, calls = Clock(), threading.Event(), []
    answers = iter([False, True])

    def probe() -> bool:
        calls.append(clock.now)
        gate.wait(5)
        return next(answers)

    readiness = Readiness(probe, clock=clock, ok_every=30, retry_every=5)
    assert readiness.poll() is None, "no probe has ended: starting, not ok"
    assert readiness.poll() is None and len(calls) <= 1, "one probe at a time"
    assert readiness.wait_first(0) is None
    gate.set()
    assert readiness.wait_first(5) is False
    _wait_until(lambda: not readiness._running)
    assert readiness.ready is False
    clock.now = 4.0
    readiness.poll()
    assert len(calls) == 1, "after a failure the next probe is due in 5 s"
    clock.now = 5.0
    readiness.poll()
    _wait_until(lambda: not readiness._running and len(calls) == 2)
    assert readiness.ready is True


def test_a_crashing_probe_does_not_wedge_readiness() -> None:
    clock = Clock()

    def probe() -> bool:
        raise OSError("socket exploded")

    readiness = Readiness(probe, clock=clock)
    readiness.poll()
    _wait_until(lambda: not readiness._running)
    assert readiness.ready is False
    clock.now = 10.0
    readiness.poll()
    _wait_until(lambda: not readiness._running)
    assert readiness.ready is False


def _wait_until(condition, timeout: float = 5.0) -> None:
    event = threading.Event()
    for _ in range(int(timeout / 0.01)):
        if condition():
            return
        event.wait(0.01)
    raise AssertionError("condition not reached")


# -- /health at start-up, over real HTTP ------------------------------------------------------


@pytest.fixture
def stalled_catalog() -> Iterator[str]:
    """A catalog that accepts connections and never answers (the probe cannot end)."""
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(8)
        yield f"http://127.0.0.1:{listener.getsockname()[1]}/api/v1"


def _health(app: Any) -> httpx.Response:
    with serve_in_thread(app, name="pwc-mcp-health") as running:
        return httpx.get(f"{running.origin}/health", timeout=10)


def test_health_says_starting_until_the_first_probe_ends(
    sample: RunningCatalog, stalled_catalog: str
) -> None:
    settings = Settings(api_url=stalled_catalog)
    answer = _health(create_app(settings, startup_grace=0))
    assert answer.status_code == 503 and answer.headers["retry-after"] == "1"
    assert answer.json()["status"] == "starting"


def test_a_catalog_down_at_start_up_is_unavailable_on_the_first_health(
    sample: RunningCatalog,
) -> None:
    with socket.socket() as closed:  # bound, never listening: connections are refused
        closed.bind(("127.0.0.1", 0))
        settings = Settings(api_url=f"http://127.0.0.1:{closed.getsockname()[1]}/api/v1")
        answer = _health(create_app(settings))
    assert answer.status_code == 503 and answer.json()["status"] == "unavailable"


def test_a_healthy_catalog_is_ok_on_the_first_health(sample: RunningCatalog) -> None:
    answer = _health(create_app(Settings(api_url=sample.url)))
    assert answer.status_code == 200 and answer.json()["status"] == "ok"
