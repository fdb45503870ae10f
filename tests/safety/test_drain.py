"""Issue #37 item 4: a stop never cuts a call.

The attack: SIGTERM while three long calls run (within the call limit) gave each a plain-text
`HTTP 500 Internal Server Error` and the log two tracebacks per call; new connections were simply
refused and `/health` never said so. Here `pwc-mcp` runs as a real process over the gated sample
upstream (tool calls held until the test opens the gate, so nothing waits on a clock), and the
last resort, a call still running when the shutdown gives up, runs under real uvicorn.
"""

from __future__ import annotations

import logging
import os
import signal
import subprocess
import sys
import threading
from collections.abc import Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path

import httpx
import pytest

from pwc_mcp.config import Settings
from pwc_mcp.edge.drain import CUT, STOPPING, Drain
from pwc_mcp.serving.localserver import Running, serve_in_thread
from tests.helpers import ROOT, free_port, wait_until
from tests.helpers.safety import API, HEADERS, GatedUpstream, build_app, call

PWC_MCP = Path(sys.executable).with_name("pwc-mcp")
CLEAN_ENV = {k: v for k, v in os.environ.items() if not k.startswith("PWC_") and k != "PORT"}
KEY = {"PWC_MCP_CURSOR_KEY_CURRENT": "k" * 32}  # no ephemeral-key warning on stderr
METHODS = ("transformer", "dropout", "adam")  # three calls, three upstream requests held
HEALTH_KEYS = {"status", "service", "version", "protocol"}


@pytest.fixture
def process(
    upstream: GatedUpstream, gated: tuple[GatedUpstream, Running]
) -> Iterator[tuple[subprocess.Popen[str], str]]:
    """`pwc-mcp` over the gated upstream, serving, and its origin; killed if a test leaves it
    running."""
    port = free_port()
    env = {**CLEAN_ENV, **KEY, "PORT": str(port), "PWC_API_URL": gated[1].origin + API}
    proc = subprocess.Popen(
        [str(PWC_MCP)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        stdin=subprocess.DEVNULL,
        text=True,
        env={**env, "PWC_MCP_CALL_TIMEOUT": "20"},
        cwd=ROOT,
    )
    try:
        assert proc.stdout is not None
        for line in proc.stdout:  # the endpoint is printed once the port answers
            if line.startswith("MCP endpoint: "):
                break
        else:
            raise AssertionError(f"no endpoint line: {proc.communicate(timeout=30)[1]}")
        yield proc, f"http://127.0.0.1:{port}"
    finally:
        upstream.gate.opened.set()
        if proc.poll() is None:
            proc.kill()
            proc.communicate(timeout=30)


def test_sigterm_lets_calls_in_flight_finish_while_health_says_draining(
    process: tuple[subprocess.Popen[str], str], upstream: GatedUpstream
) -> None:
    proc, origin = process
    with (
        httpx.Client(base_url=origin, headers=HEADERS, timeout=60) as http,
        ThreadPoolExecutor(len(METHODS)) as pool,
    ):
        calls: list[Future[httpx.Response]] = [
            pool.submit(http.post, "/mcp", json=call("get_method", method=method))
            for method in METHODS
        ]
        upstream.gate.wait_entered(len(METHODS))  # all three in flight, held upstream
        proc.send_signal(signal.SIGTERM)

        # The port stays open: /health says "draining" (503) once the stop is seen, with the
        # keys of its public contract, so a load balancer stops sending.
        wait_until(lambda: http.get("/health").json()["status"] != "ok")
        health = http.get("/health")
        assert health.status_code == 503 and health.json()["status"] == "draining"
        assert set(health.json()) == HEALTH_KEYS

        # A new call is refused at once in JSON-RPC, safe to retry (nginx passes it on).
        refused = http.post("/mcp", json=call("get_method", method="gan"))
        assert refused.status_code == 503 and refused.headers["retry-after"] == "1"
        assert refused.json()["error"]["message"] == STOPPING
        assert refused.headers["connection"] == "close"

        upstream.gate.opened.set()  # the held calls may now end
        answers = [future.result(timeout=60) for future in calls]

    for method, answer in zip(METHODS, answers, strict=True):
        assert answer.status_code == 200, answer.text
        result = answer.json()["result"]
        assert (
            not result["isError"]
            and result["structuredContent"]["data"]["method"]["slug"] == method
        )
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 0, err
    assert "Traceback" not in err and "Exception in ASGI application" not in err, err


def test_a_call_cut_at_the_very_end_is_a_json_rpc_error_never_a_plain_500(
    upstream: GatedUpstream,
    gated: tuple[GatedUpstream, Running],
    caplog: pytest.LogCaptureFixture,
) -> None:
    """uvicorn's graceful shutdown (2 s here) is over and the call still runs: uvicorn cancels
    it. The client gets a JSON-RPC error naming its request, the log no traceback."""
    app, _ = build_app(Settings(api_url=gated[1].origin + API))
    message = call("get_method", method="held-past-the-window")
    with (
        caplog.at_level(logging.INFO),
        serve_in_thread(app, name="pwc-mcp") as running,
        httpx.Client(base_url=running.origin, headers=HEADERS, timeout=60) as http,
        ThreadPoolExecutor(1) as pool,
    ):
        answer = pool.submit(http.post, "/mcp", json=message)
        upstream.gate.wait_entered(1)
        stopping = threading.Thread(target=running.stop)
        stopping.start()
        # Only once uvicorn has cancelled the call may its upstream answer (a worker thread
        # holds it: the cancellation takes effect when the thread returns).
        wait_until(lambda: "timeout graceful shutdown exceeded" in caplog.text, timeout=30)
        upstream.gate.opened.set()
        response = answer.result(timeout=60)
        stopping.join(timeout=30)
    assert response.status_code == 503, response.text
    body = response.json()
    assert body["id"] == message["id"] and body["error"]["message"] == CUT
    assert response.headers["retry-after"] == "1"
    assert not [record for record in caplog.records if record.exc_info], caplog.text
    assert "Exception in ASGI application" not in caplog.text


@pytest.mark.anyio
async def test_the_drain_gives_up_after_its_window_and_on_a_second_ctrl_c() -> None:
    """A call that outlives its deadline does not hold the stop past the window, and a second
    Ctrl+C ends the drain at once."""
    drain = Drain(window_seconds=0.05)
    drain.enter()
    assert await drain.run(forced=lambda: False) is False and drain.draining
    forced = Drain(window_seconds=3600)
    forced.enter()
    assert await forced.run(forced=lambda: True) is False
    forced.leave()
    assert await forced.run(forced=lambda: False) is True
