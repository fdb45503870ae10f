"""The scale-out deployment on loopback, no container engine: the real nginx (the shipped site,
its upstream turned into three replicas by deploy/nginx-upstreams.sh, as deploy/compose.yaml
does), three real `pwc-mcp` processes (uvicorn) and a real redis-server, with the settings of
the compose file (tests/ops/test_compose.py holds both to them), in front of the sample catalog
behind a gate that counts upstream requests and can hold them.

Clients connect to nginx from distinct loopback addresses (127.0.x.y), one identity each, as
the public's would. Nothing waits on time: calls in flight are seen in each replica's /metrics.
"""

from __future__ import annotations

import itertools
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

import httpx
import pytest

from pwc_mcp.serving.localserver import serve_in_thread
from tests.helpers import wait_until
from tests.helpers.e2e import RPC_HEADERS, rpc, tool_call
from tests.helpers.ops import (
    LOOPBACK_ONLY,
    PUBLIC_HOST,
    SCALE_OUT_SETTINGS,
    Nginx,
    Replica,
    free_port,
    nginx_binary,
    open_tempdir,
    replicated_site,
    run_replicas,
    start_nginx,
)
from tests.helpers.safety import API, GatedUpstream, RedisServer, redis_server

CURSOR_KEY = "scale-out-shared-cursor-key-0123456789abcdef"
PAPER = "1706.03762"  # long: read_paper answers in several chunks
_sources = (f"127.0.{n // 200 + 1}.{n % 200 + 1}" for n in itertools.count())


def replica_env(redis_url: str, api_url: str) -> dict[str, str]:
    """What each replica runs with: the compose file's settings (loopback values)."""
    env = {
        "PWC_MCP_ALLOWED_HOSTS": f"{PUBLIC_HOST},127.0.0.1:*",
        "PWC_MCP_PUBLIC_URL": f"https://{PUBLIC_HOST}",
        "PWC_MCP_RATE_LIMIT_STORAGE": redis_url,
        "PWC_MCP_CACHE_STORAGE": redis_url,
        "PWC_MCP_CURSOR_KEY_CURRENT": CURSOR_KEY,
        "PWC_API_URL": api_url,
    }
    assert set(env) == {*SCALE_OUT_SETTINGS, *LOOPBACK_ONLY}
    return env


@dataclass
class Deployment:
    nginx: Nginx
    replicas: list[Replica]
    redis: RedisServer
    upstream: GatedUpstream

    def client(self) -> httpx.Client:
        """A client of nginx from a fresh loopback address of its own."""
        return httpx.Client(
            base_url=self.nginx.origin,
            transport=httpx.HTTPTransport(local_address=next(_sources)),
            headers={"Host": PUBLIC_HOST},
            timeout=60,
        )

    def post(self, tool: str, **arguments: Any) -> dict[str, Any]:
        """One tool call through nginx from a fresh client address: the JSON-RPC result."""
        with self.client() as client:
            answer = client.post(
                "/mcp",
                json=rpc("tools/call", {"name": tool, "arguments": arguments}),
                headers=RPC_HEADERS,
            )
        assert answer.status_code == 200, answer.text
        return answer.json()["result"]

    def live(self) -> list[Replica]:
        return [replica for replica in self.replicas if replica.process.poll() is None]

    def metrics(self) -> list[dict[str, Any]]:
        """Each live replica's /metrics (direct: a loopback peer without X-Forwarded-For)."""
        return [httpx.get(f"{r.origin}/metrics.json", timeout=10).json() for r in self.live()]


def family(metrics: dict[str, Any], label: str) -> dict[str, int]:
    return metrics["cache"]["families"].get(label, {})


_probes = itertools.count()


def until_redis_is_used(deployment: Deployment) -> None:
    """Wait until every replica uses Redis again. On a loaded machine a Redis call can outlast
    its 1 s socket timeout, and that replica then limits and caches on its own for 5 s (by
    design): each round sends every such replica one cold call, which retries Redis when due."""

    def shared() -> bool:
        live = deployment.live()
        stale = [
            replica
            for replica, metrics in zip(live, deployment.metrics(), strict=True)
            if metrics["limits"]["degraded"] or metrics["shared"]["degraded"]
        ]
        for replica in stale:
            n = next(_probes)
            with httpx.Client(
                base_url=replica.origin, timeout=30, headers={"X-PwC-MCP-Client": f"probe-{n}"}
            ) as direct:
                tool_call(direct, "search_papers", {"query": f"probe {n}", "mode": "keyword"})
        return not stale

    wait_until(shared, timeout=60, interval=0.25)


@pytest.fixture(scope="module")
def deployment() -> Iterator[Deployment]:
    nginx = nginx_binary()
    upstream = GatedUpstream()
    upstream.gate.opened.set()  # open unless a test closes it
    with (
        serve_in_thread(upstream, name="pwc-gated-catalog", lifespan="off") as catalog,
        redis_server() as redis,
        run_replicas(replica_env(redis.url, catalog.origin + API), 3) as replicas,
        open_tempdir("pwc-replicas-") as prefix,
    ):
        port, redirect_port = free_port(), free_port()
        backends = [f"127.0.0.1:{replica.port}" for replica in replicas]
        site = replicated_site(port=port, redirect_port=redirect_port, replicas=backends)
        try:
            with start_nginx(nginx, prefix, site, port, redirect_port) as running:
                yield Deployment(running, replicas, redis, upstream)
        finally:
            upstream.reset()  # nothing stays held


def concurrently(
    count: int, call: Callable[[int], dict[str, Any]], workers: int
) -> tuple[list[Future[dict[str, Any]]], Callable[[], int]]:
    """`call(0..count-1)` on `workers` threads, started now: their futures, and how many ended."""
    done, lock = [0], threading.Lock()

    def counted(index: int) -> dict[str, Any]:
        try:
            return call(index)
        finally:
            with lock:
                done[0] += 1

    pool = ThreadPoolExecutor(workers)
    futures = [pool.submit(counted, n) for n in range(count)]
    pool.shutdown(wait=False)
    return futures, lambda: done[0]


def test_64_identical_cold_calls_over_three_replicas_reach_the_upstream_once(deployment) -> None:
    """get_method's first request (methods/) is held until every call reached its replica's
    cache; then one upstream request answers all 64, on whichever replica they landed."""
    until_redis_is_used(deployment)
    upstream, stats = deployment.upstream, deployment.upstream.sample.state.stats
    upstream.reset()  # the gate on methods/ is closed
    stats.reset()

    def counts(name: str) -> list[int]:
        return [family(m, "methods/").get(name, 0) for m in deployment.metrics()]

    misses, borrowed = counts("misses"), counts("l2_hits")
    futures, _ = concurrently(64, lambda n: deployment.post("get_method", method="transformer"), 64)
    try:  # every call has missed its replica's cache once: all 64 are waiting
        wait_until(lambda: sum(counts("misses")) >= sum(misses) + 64, timeout=60, interval=0.05)
    finally:
        upstream.gate.opened.set()
    results = [future.result(timeout=60) for future in futures]
    assert not any(r.get("isError") for r in results)
    assert all(r["structuredContent"] == results[0]["structuredContent"] for r in results)
    requested = {path: n for path, n in stats.requests.items() if path != "tasks/"}  # probes
    assert "methods/" in requested and set(requested.values()) == {1}, requested
    landed = [now - then for now, then in zip(counts("misses"), misses, strict=True)]
    assert sum(landed) == 64 and all(n > 0 for n in landed), f"spread over all three: {landed}"
    # The two replicas that did not fetch had the answer from Redis (most by joining the lease).
    assert sum(counts("l2_hits")) - sum(borrowed) >= 2


def test_a_cursor_issued_by_one_replica_continues_on_the_others(deployment) -> None:
    until_redis_is_used(deployment)
    first = deployment.post("read_paper", paper=PAPER)["structuredContent"]
    assert first["truncated"] and first["next_cursor"]
    stats = deployment.upstream.sample.state.stats
    before = stats.requests.get(f"research/papers/{PAPER}/read", 0)
    seconds = []
    for n, replica in enumerate(deployment.replicas):
        with httpx.Client(
            base_url=replica.origin, timeout=30, headers={"X-PwC-MCP-Client": f"cursor-{n}"}
        ) as direct:
            arguments = {"paper": PAPER, "cursor": first["next_cursor"]}
            seconds.append(tool_call(direct, "read_paper", arguments)["structuredContent"])
    assert all(
        s["offset"] > 0 and s["content_version"] == first["content_version"] for s in seconds
    )
    assert all(s["data"] == seconds[0]["data"] for s in seconds)
    # The second chunk was read from the catalog once; the other replicas had it from Redis.
    assert stats.requests[f"research/papers/{PAPER}/read"] == before + 1


def test_limits_are_shared_across_replicas(deployment) -> None:
    """Ten semantic searches a minute per client, whichever replica answers: the eleventh is
    refused although no replica has seen more than four."""
    until_redis_is_used(deployment)
    before = [family(m, "papers/search").get("misses", 0) for m in deployment.metrics()]
    with deployment.client() as client:  # one client address for all eleven
        results = [
            client.post(
                "/mcp",
                json=rpc("tools/call", {"name": "search_papers", "arguments": {"query": f"q{n}"}}),
                headers=RPC_HEADERS,
            ).json()["result"]
            for n in range(11)
        ]
    assert [bool(r.get("isError")) for r in results] == [False] * 10 + [True]
    assert "semantic search limit" in results[10]["content"][0]["text"]
    after = [family(m, "papers/search").get("misses", 0) for m in deployment.metrics()]
    served = [b - a for a, b in zip(before, after, strict=True)]
    assert sum(served) == 10 and all(0 < n < 10 for n in served), served


def test_killing_redis_mid_run_loses_no_call(deployment) -> None:
    deployment.upstream.faults.latency = 0.02  # calls overlap the kill
    try:
        futures, done = concurrently(
            30, lambda n: deployment.post("list_tasks", search=f"redis-kill-{n}"), 6
        )
        wait_until(lambda: done() >= 10, timeout=60)
        deployment.redis.stop()
        results = [future.result(timeout=60) for future in futures]
    finally:
        deployment.upstream.faults.latency = 0.0
    assert not any(r.get("isError") for r in results)
    for replica in deployment.replicas:  # each served calls after the kill, in process memory
        health = httpx.get(f"{replica.origin}/health", timeout=10)
        assert health.status_code == 200
        assert health.json() | {"version": "", "protocol": ""} == {
            "status": "ok",
            "service": "pwc-mcp",
            "version": "",
            "protocol": "",
            "limits": "degraded",
            "cache": "degraded",
        }
    deployment.redis.start()  # empty, on the same port: the replicas come back to it


def test_killing_a_replica_mid_run_is_absorbed_by_nginx(deployment) -> None:
    deployment.upstream.faults.latency = 0.02
    try:
        futures, done = concurrently(
            30, lambda n: deployment.post("list_methods", search=f"replica-kill-{n}"), 6
        )
        wait_until(lambda: done() >= 10, timeout=60)
        deployment.replicas[0].kill()
        results = [future.result(timeout=60) for future in futures]
    finally:
        deployment.upstream.faults.latency = 0.0
    assert not any(r.get("isError") for r in results)
    assert deployment.replicas[0].process.poll() is not None
