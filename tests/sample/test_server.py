"""The server harness: fault injection, counters, routing errors and the command-line entry."""

from __future__ import annotations

import json
import subprocess
import sys
import time

import httpx
import pytest

from pwc_mcp.sample import RunningCatalog
from tests.helpers import wait_until

OVERSIZE = 2 * 1024 * 1024 + 1


def test_latency(api: httpx.Client, catalog: RunningCatalog) -> None:
    catalog.faults.latency = 0.05
    started = time.perf_counter()
    assert api.get("areas/").status_code == 200
    assert time.perf_counter() - started >= 0.05


def test_injected_failures_count_down(api: httpx.Client, catalog: RunningCatalog) -> None:
    catalog.faults.fail(503, times=2, path_prefix="papers/search")
    assert api.get("papers/recent").status_code == 200  # other paths are untouched
    for _ in range(2):
        response = api.get("papers/search", params={"q": "bert"})
        assert response.status_code == 503 and response.json() == {"detail": "injected failure"}
    assert api.get("papers/search", params={"q": "bert"}).status_code == 200
    catalog.faults.fail()
    assert api.get("frameworks/").status_code == 500


@pytest.mark.parametrize("with_length", [True, False])
def test_oversize_bodies(api: httpx.Client, catalog: RunningCatalog, with_length: bool) -> None:
    catalog.faults.oversize(path_prefix="/api/v1/tasks/", with_length=with_length)
    response = api.get("tasks/")
    assert response.status_code == 200 and len(response.content) == OVERSIZE
    if with_length:
        assert response.headers["content-length"] == str(OVERSIZE)
    else:
        assert (
            "content-length" not in response.headers
            and response.headers["transfer-encoding"] == "chunked"
        )
    assert api.get("tasks/").headers["content-length"] != str(OVERSIZE)


def test_invalid_json(api: httpx.Client, catalog: RunningCatalog) -> None:
    catalog.faults.invalid_json(path_prefix="datasets/")
    response = api.get("datasets/")
    assert response.status_code == 200 and response.headers["content-type"] == "application/json"
    with pytest.raises(json.JSONDecodeError):
        json.loads(response.content)
    assert api.get("datasets/").json()["count"] > 0


def test_reset_clears_pending_faults(api: httpx.Client, catalog: RunningCatalog) -> None:
    catalog.faults.fail(times=5)
    catalog.faults.reset()
    assert api.get("areas/").status_code == 200


def test_request_and_connection_counters(catalog: RunningCatalog) -> None:
    before = catalog.stats.connections
    catalog.stats.reset()
    assert catalog.stats.total() == 0 and catalog.stats.connections == 0
    with httpx.Client(base_url=catalog.url + "/") as client:
        for _ in range(3):
            assert client.get("papers/search", params={"q": "bert"}).status_code == 200
        assert client.get("papers/hep-th%2F9711200").status_code == 200
    assert catalog.stats.connections == 1  # one keep-alive connection served four requests
    assert catalog.stats.requests == {"papers/search": 3, "papers/hep-th/9711200": 1}
    assert catalog.stats.total() == 4
    for _ in range(2):
        with httpx.Client() as client:
            assert client.get(catalog.url + "/areas/").status_code == 200
    assert catalog.stats.connections == 3
    assert before >= 0


def test_routing_errors(api: httpx.Client, catalog: RunningCatalog) -> None:
    for path in ("papers", "datasets", "evaluations", "areas/with-tasks", "nothing/here"):
        response = api.get(path)
        assert response.status_code == 404 and response.json() == {"detail": "Not found."}
    outside = httpx.get(catalog.url.removesuffix("/api/v1") + "/")
    assert outside.status_code == 404
    assert api.post("papers/search").status_code == 405


def test_module_entry_point_prints_url() -> None:
    command = [sys.executable, "-m", "pwc_mcp.sample", "--port", "0", "--latency-ms", "1"]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, text=True)
    try:
        assert process.stdout is not None
        line = process.stdout.readline().strip()
        assert line.startswith("PWC_API_URL=http://127.0.0.1:") and line.endswith("/api/v1")
        url = line.split("=", 1)[1]
        answers: list[httpx.Response] = []

        def answered() -> bool:  # the socket is bound before printing; uvicorn may be starting
            try:
                answers.append(httpx.get(url + "/papers/recent", params={"limit": 1}))
            except httpx.TransportError:
                return False
            return True

        wait_until(answered, timeout=10, interval=0.02)
        assert answers[0].status_code == 200 and len(answers[0].json()) == 1
    finally:
        process.terminate()
        process.wait(timeout=10)
