"""`PWC_MCP_CACHE_STORAGE` in the real app: validated at start-up, two apps (two replicas in
one process) sharing answers through a real redis-server, and a Redis that is down costing no
call while /health says so and /metrics counts it, content-free."""

from __future__ import annotations

import dataclasses
import socket
from collections.abc import Iterator
from contextlib import ExitStack

import httpx
import pytest

from pwc_mcp.app import create_app
from pwc_mcp.config import ConfigError, Settings
from pwc_mcp.edge.rate_limits import REFUSAL_KINDS
from pwc_mcp.sample import RunningCatalog
from pwc_mcp.serving.localserver import serve_in_thread
from tests.helpers.e2e import settings_for, tool_call
from tests.helpers.safety import RedisServer, redis_server

KEY = "replica-shared-secret-0123456789abcdef"


def test_the_setting_is_validated_at_start_up() -> None:
    assert Settings.from_env({}).cache_storage is None  # unset: no second level at all
    good = {"PWC_MCP_CACHE_STORAGE": "redis://127.0.0.1:6379/1", "PWC_MCP_CURSOR_KEY_CURRENT": KEY}
    assert Settings.from_env(good).cache_storage == "redis://127.0.0.1:6379/1"
    unix = {**good, "PWC_MCP_CACHE_STORAGE": "redis+unix:///run/redis.sock"}
    assert Settings.from_env(unix).cache_storage == "redis+unix:///run/redis.sock"
    for value, problem in [
        ("memory://", "PWC_MCP_CACHE_STORAGE must be a redis://, rediss:// or redis+unix:// URI"),
        ("redis://h:notaport", "PWC_MCP_CACHE_STORAGE is not a valid Redis URI"),
    ]:
        with pytest.raises(ConfigError) as info:
            Settings.from_env({**good, "PWC_MCP_CACHE_STORAGE": value})
        assert info.value.problems == [problem]
        assert "notaport" not in str(info.value)  # the URI (a password, perhaps) is not repeated
    with pytest.raises(ConfigError, match="replicas must name and sign shared answers"):
        Settings.from_env({"PWC_MCP_CACHE_STORAGE": "redis://127.0.0.1:6379"})


@pytest.fixture(scope="module")
def redis_store() -> Iterator[RedisServer]:
    with redis_server() as running:
        yield running


@pytest.fixture
def replicas(sample: RunningCatalog, redis_store: RedisServer) -> Iterator[list[str]]:
    with redis_store.client() as client:
        client.flushall()
    settings = settings_for(sample, cache_storage=redis_store.url, cursor_key_current=KEY.encode())
    with ExitStack() as stack:
        apps = [create_app(settings) for _ in range(2)]
        servers = [stack.enter_context(serve_in_thread(app, name="pwc-mcp")) for app in apps]
        yield [server.origin for server in servers]


def test_an_answer_one_app_fetched_serves_the_other(sample, replicas, redis_store) -> None:
    a, b = (httpx.Client(base_url=url, timeout=30) for url in replicas)
    with a, b:
        sample.stats.reset()
        arguments = {"task": "image-classification"}
        assert tool_call(a, "get_task", arguments) == tool_call(b, "get_task", arguments)
        fetched = sample.stats.requests
        assert fetched and set(fetched.values()) == {1}  # every answer fetched once, by a
        metrics = b.get("/metrics.json")
    cache, shared = metrics.json()["cache"], metrics.json()["shared"]
    assert cache["upstream_calls"] == 0 and cache["l2_hits"] == sum(fetched.values())
    assert cache["l2_misses"] == 0 and shared["hits"] == cache["l2_hits"]
    assert shared["degraded"] is False and shared["flight"]["leases"] == 0
    assert "image-classification" not in metrics.text
    keys = redis_store.client().keys("*")
    assert keys and not any(b"image" in k or b"tasks" in k for k in keys)


def closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def test_redis_down_costs_no_call_and_health_says_so(sample: RunningCatalog) -> None:
    port = closed_port()
    settings = dataclasses.replace(
        settings_for(sample),
        cache_storage=f"redis://127.0.0.1:{port}/0",
        cursor_key_current=KEY.encode(),
    )
    with (
        serve_in_thread(create_app(settings), name="pwc-mcp-no-redis") as server,
        httpx.Client(base_url=server.origin, timeout=30) as http,
    ):
        assert "cache" not in http.get("/health").json()  # nothing has failed yet
        tool_call(http, "get_method", {"method": "transformer"})
        health = http.get("/health")
        metrics = http.get("/metrics.json").json()
    assert health.status_code == 200
    assert health.json()["status"] == "ok" and health.json()["cache"] == "degraded"
    assert "limits" not in health.json()  # limits are in memory: nothing to degrade
    shared = metrics["shared"]
    assert shared["degraded"] and shared["failures"] >= 1
    assert metrics["cache"]["upstream_calls"] >= 1 and metrics["cache"]["upstream_failures"] == 0
    assert metrics["limits"] == {
        "shared": False,
        "degraded": False,
        "failures": 0,
        "slow": 0,
        "skipped": 0,
        "memory_keys": 1,  # the request window of this test's client (housekeeping is exempt)
        "memory_evicted": 0,
        "refusals": dict.fromkeys(REFUSAL_KINDS, 0),
    }
    assert str(port) not in str(metrics)


def test_without_the_setting_nothing_changes(sample: RunningCatalog) -> None:
    with (
        serve_in_thread(create_app(settings_for(sample)), name="pwc-mcp-single") as server,
        httpx.Client(base_url=server.origin, timeout=30) as http,
    ):
        tool_call(http, "get_method", {"method": "transformer"})
        metrics = http.get("/metrics.json").json()
        assert "cache" not in http.get("/health").json()
    assert metrics["shared"] is None
    assert metrics["cache"]["l2_hits"] == metrics["cache"]["l2_misses"] == 0
