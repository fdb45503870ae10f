"""Start-up configuration (one clear line per problem) and the /health readiness cache."""

from __future__ import annotations

import threading

import pytest

from pwc_mcp.app import main
from pwc_mcp.catalog import Readiness
from pwc_mcp.config import ConfigError, Settings


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
    assert readiness.poll() is True, "a fresh process is not stuck at 503"
    assert readiness.poll() is True and len(calls) <= 1, "one probe at a time"
    gate.set()
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
