"""Issue #27: `pwc-mcp` serves from the moment its port accepts connections (or does not
listen), and says at start-up when the catalog cannot be reached. Real processes on loopback."""

from __future__ import annotations

import contextlib
import os
import queue
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx

from pwc_mcp.app import STARTUP_GRACE

ROOT = Path(__file__).resolve().parents[2]
PWC_MCP = Path(sys.executable).with_name("pwc-mcp")
CLEAN_ENV = {k: v for k, v in os.environ.items() if not k.startswith("PWC_") and k != "PORT"}
ENDPOINT = re.compile(r"^MCP endpoint: http://127\.0\.0\.1:(\d+)/mcp ")
KEY = {"PWC_MCP_CURSOR_KEY_CURRENT": "k" * 32}  # no ephemeral-key warning on stderr
# A request stalled behind imports or the start-up grace waits at least STARTUP_GRACE after the
# port accepts; an answer from a serving process takes milliseconds. Half the grace tells the
# two apart even on a loaded 2-core machine (the bound is 100 ms).
PROMPT = STARTUP_GRACE / 2
INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-11-25",
        "capabilities": {},
        "clientInfo": {"name": "startup-test", "version": "1"},
    },
}
MCP_HEADERS = {
    "accept": "application/json, text/event-stream",
    "mcp-protocol-version": "2025-11-25",
}


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextlib.contextmanager
def stalled_catalog() -> Iterator[tuple[str, threading.Event]]:
    """A catalog whose kernel completes every connection and that never answers: the probe stays
    outstanding until the test ends. The event is set once the probe's connection arrived."""
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(8)
        arrived, held = threading.Event(), []

        def accept() -> None:
            with contextlib.suppress(OSError):  # closed at the end of the test
                held.append(listener.accept()[0])
                arrived.set()

        threading.Thread(target=accept, daemon=True).start()
        try:
            yield f"http://127.0.0.1:{listener.getsockname()[1]}/api/v1", arrived
        finally:
            for conn in held:
                conn.close()


class Server:
    """`pwc-mcp` as a real process, stdout and stderr read line by line."""

    def __init__(self, env: dict[str, str]) -> None:
        self.proc = subprocess.Popen(
            [str(PWC_MCP)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            stdin=subprocess.DEVNULL,
            text=True,
            env={**CLEAN_ENV, **KEY, **env},
            cwd=ROOT,
        )
        self.out: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self._pump, daemon=True).start()

    def _pump(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.out.put(line.rstrip("\n"))
        self.out.put(None)

    def until_endpoint(self) -> str:
        while (line := self.out.get(timeout=60)) is not None:
            if line.startswith("MCP endpoint: "):
                return line
        raise AssertionError(f"no endpoint line\n{self.stop()}")

    def stop(self) -> str:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
        _, err = self.proc.communicate(timeout=30)
        return err


def first_connection(port: int, proc: subprocess.Popen[str]) -> socket.socket:
    """Connect as a load balancer would: retry until the port accepts."""
    deadline = time.monotonic() + 60
    pause = threading.Event()
    while time.monotonic() < deadline and proc.poll() is None:
        try:
            return socket.create_connection(("127.0.0.1", port), timeout=60)
        except OSError:
            pause.wait(0.005)  # nothing to wait on but the port itself
    raise AssertionError("the port never accepted a connection")


def request(sock: socket.socket, raw: bytes) -> tuple[bytes, float]:
    """One HTTP/1.1 exchange on an accepted connection: (status line, seconds to answer)."""
    started = time.monotonic()
    sock.sendall(raw)
    answer = b""
    while b"\r\n" not in answer:
        chunk = sock.recv(4096)
        if not chunk:
            break
        answer += chunk
    return answer.split(b"\r\n", 1)[0], time.monotonic() - started


def test_health_and_initialize_answer_at_once_while_the_first_probe_is_outstanding() -> None:
    port = free_port()
    with stalled_catalog() as (api, arrived):
        server = Server({"PORT": str(port), "PWC_API_URL": api})
        try:
            with first_connection(port, server.proc) as sock:
                head = f"Host: 127.0.0.1:{port}\r\nConnection: close\r\n"
                status, health_seconds = request(
                    sock, f"GET /health HTTP/1.1\r\n{head}\r\n".encode()
                )
            assert status == b"HTTP/1.1 503 Service Unavailable", status
            assert health_seconds < PROMPT, f"/health waited {health_seconds:.2f} s"
            answer = httpx.get(f"http://127.0.0.1:{port}/health", timeout=10)
            assert answer.json()["status"] == "starting" and answer.headers["retry-after"] == "1"
            assert arrived.is_set(), "the probe is out and has no answer: still starting"
            started = time.monotonic()
            init = httpx.post(
                f"http://127.0.0.1:{port}/mcp", json=INITIALIZE, headers=MCP_HEADERS, timeout=10
            )
            init_seconds = time.monotonic() - started
            assert init.status_code == 200 and init.json()["result"]["serverInfo"], init.text
            assert init_seconds < PROMPT, f"initialize waited {init_seconds:.2f} s"
        finally:
            err = server.stop()
    assert "Traceback" not in err, err


def test_the_endpoint_line_is_printed_only_once_the_port_serves() -> None:
    with stalled_catalog() as (api, _):
        server = Server({"PORT": str(free_port()), "PWC_API_URL": api})
        try:
            match = ENDPOINT.match(server.until_endpoint())
            assert match, "the endpoint line names the port"
            port = int(match.group(1))
            answer = httpx.get(f"http://127.0.0.1:{port}/health", timeout=PROMPT)
            assert answer.json()["status"] == "starting"
        finally:
            server.stop()


def test_an_unreachable_catalog_is_one_start_up_line_with_the_offline_hint() -> None:
    with socket.socket() as closed:  # bound, never listening: connections are refused
        closed.bind(("127.0.0.1", 0))
        api = f"http://127.0.0.1:{closed.getsockname()[1]}/api/v1"
        server = Server({"PORT": str(free_port()), "PWC_API_URL": api})
        try:
            server.until_endpoint()
        finally:
            err = server.stop()
    lines = [line for line in err.splitlines() if api in line]
    assert len(lines) == 1, err
    assert "Connection refused" in lines[0] and "make demo" in lines[0], lines[0]
    assert "PWC_API_URL" in lines[0] and "Traceback" not in err, err
    assert len(err.strip().splitlines()) == 1, f"nothing else on stderr: {err}"


LOST_RACE = """
import socket, sys
from pwc_mcp.cli import _serve
from pwc_mcp.config import Settings
from pwc_mcp.serving.localserver import bind

ours = bind("127.0.0.1", 0, listen=False)
port = ours.getsockname()[1]
other = socket.socket()  # another server that bound the same port and listened first
other.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
other.bind(("127.0.0.1", port))
other.listen()
sys.exit(_serve(Settings(api_url=sys.argv[1], port=port), ours, sample_url=None))
"""


def test_a_port_taken_before_it_listens_is_the_busy_port_line() -> None:
    with socket.socket() as closed:
        closed.bind(("127.0.0.1", 0))
        api = f"http://127.0.0.1:{closed.getsockname()[1]}/api/v1"
        result = subprocess.run(
            [sys.executable, "-c", LOST_RACE, api],
            capture_output=True,
            text=True,
            timeout=60,
            env=CLEAN_ENV,
            cwd=ROOT,
            check=False,
        )
    assert result.returncode == 2 and "Traceback" not in result.stderr, result.stderr
    assert "is already in use; set PORT=<free port>" in result.stderr.splitlines()[-1]
    assert "MCP endpoint" not in result.stdout, "no URL for a server that never listened"
