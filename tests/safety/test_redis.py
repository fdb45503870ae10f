"""Shared limits across replicas: a real redis-server and two `pwc-mcp` processes on one catalog.

Skipped only when redis-server is missing and CI is unset; under CI a missing binary fails
(the CI script installs Debian's redis-server).
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import anyio
import httpx
import pytest
import redis
from limits import RateLimitItemPerMinute

from pwc_mcp.edge.windows import Windows
from pwc_mcp.sample import RunningCatalog
from tests.helpers import ROOT, free_port, wait_until
from tests.helpers.ops import require_tool
from tests.helpers.safety import HEADERS, call

# The installed `pwc-mcp` entry point, run by this interpreter (no console script needed).
PWC_MCP = [sys.executable, "-c", "from pwc_mcp.cli import entry; entry()"]


def _answers(check: Callable[[], object]) -> Callable[[], bool]:
    """``check`` as a wait_until predicate: a refused connection means "not yet"."""

    def predicate() -> bool:
        try:
            return bool(check())
        except (OSError, httpx.HTTPError, redis.RedisError):
            return False

    return predicate


def _stop(proc: subprocess.Popen) -> None:
    proc.terminate()
    try:
        proc.wait(5)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(5)


@contextmanager
def redis_server(port: int) -> Iterator[str]:
    """A real redis-server on ``port``; skipped without the binary unless CI is set."""
    binary = require_tool("redis-server", hint="apt-get install redis-server; .ci/run does")
    proc = subprocess.Popen(
        [binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        client = redis.Redis(host="127.0.0.1", port=port)
        wait_until(_answers(client.ping), timeout=10, interval=0.05)
        client.close()
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        _stop(proc)


@pytest.fixture
def redis_url() -> Iterator[str]:
    with redis_server(free_port()) as url:
        yield url


@pytest.fixture
def replicas(redis_url: str, sample: RunningCatalog) -> Iterator[list[str]]:
    env = {
        **os.environ,
        "PWC_API_URL": sample.url,
        "PWC_MCP_RATE_LIMIT_STORAGE": redis_url,
        "PWC_MCP_REQUEST_LIMIT": "3",
        "PWC_MCP_SEMANTIC_LIMIT": "2",
        "PWC_MCP_CURSOR_KEY_CURRENT": "replica-shared-secret-0123456789abcdef",
    }
    ports = [free_port(), free_port()]
    procs = [
        subprocess.Popen(
            [*PWC_MCP, "--host", "127.0.0.1", "--port", str(port)],
            cwd=ROOT,
            env=env,
            stdout=subprocess.DEVNULL,
        )
        for port in ports
    ]
    try:
        urls = [f"http://127.0.0.1:{port}" for port in ports]
        for url, proc in zip(urls, procs, strict=True):
            assert proc.poll() is None, f"pwc-mcp on {url} exited"
            health = _answers(lambda url=url: httpx.get(f"{url}/health").status_code == 200)
            wait_until(lambda proc=proc, health=health: proc.poll() is not None or health(), 30)
            assert proc.poll() is None, f"pwc-mcp on {url} exited"
        yield urls
    finally:
        for proc in procs:
            _stop(proc)


def test_limits_hold_across_two_processes(replicas: list[str], redis_url: str) -> None:
    a, b = (httpx.Client(base_url=url, timeout=20) for url in replicas)
    with a, b:

        def tool(client: httpx.Client, tag: str, name: str, **args) -> httpx.Response:
            return client.post(
                "/mcp", json=call(name, **args), headers={**HEADERS, "X-PwC-MCP-Client": tag}
            )

        # request limit 3/min, shared: two on A and one on B use it up on both
        assert tool(a, "tag-req", "get_task", task="x").status_code == 200
        assert tool(b, "tag-req", "get_task", task="x").status_code == 200
        assert tool(a, "tag-req", "get_task", task="x").status_code == 200
        for client in (a, b):
            r = tool(client, "tag-req", "get_task", task="x")
            assert r.status_code == 429
            assert 1 <= int(r.headers["retry-after"]) <= 61
        assert tool(b, "tag-other", "get_task", task="x").status_code == 200

        # semantic limit 2/min, shared
        assert not tool(a, "tag-sem", "search_papers", query="q").json()["result"]["isError"]
        assert not tool(b, "tag-sem", "search_papers", query="q", mode="semantic").json()["result"][
            "isError"
        ]
        result = tool(a, "tag-sem", "search_papers", query="q", mode="hybrid").json()["result"]
        assert result["isError"] and 'mode="keyword"' in result["content"][0]["text"]

    keys = redis.Redis.from_url(redis_url).keys("*")
    assert keys and not any(b"tag-" in k or b"127.0.0.1" in k for k in keys)


def test_limits_return_to_redis_when_it_answers_again() -> None:
    port = free_port()
    now = [0.0]
    windows = Windows(f"redis://127.0.0.1:{port}/0", clock=lambda: now[0], retry_seconds=5)
    item = RateLimitItemPerMinute(1)

    async def scenario() -> None:
        assert await windows.hit(item, "request", "c") is None  # nothing listens: in memory
        assert windows.degraded
        with redis_server(port) as url:
            now[0] = 4.0
            assert await windows.hit(item, "request", "c") is not None  # before the retry
            assert windows.degraded
            now[0] = 5.0
            assert await windows.hit(item, "request", "c") is None  # the shared window, fresh
            assert not windows.degraded
            assert redis.Redis.from_url(url).keys("*")

    anyio.run(scenario)
