"""Servers under test, each in its own subprocess: start, time to first tool call, RSS, stop."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx

from bench.load import HEADERS, tool_call

PROBE = tool_call("search_papers", {"query": "transformer"})
# Limits that cannot trip: a 2-core machine runs more than 10,000 cached calls a minute, so the
# per-minute windows are `unlimited` (they still count, so their cost is measured).
LIMITS = {
    "PWC_MCP_REQUEST_LIMIT": "unlimited",
    "PWC_MCP_SEMANTIC_LIMIT": "unlimited",
    "PWC_MCP_UPSTREAM_LIMIT": "unlimited",  # the cold runs cause thousands of catalog requests
    "PWC_MCP_CONCURRENCY_LIMIT": "10000",
    "PWC_MCP_GLOBAL_CONCURRENCY_LIMIT": "10000",
}
BENCH_CURSOR_KEY = "bench-only-cursor-key-0123456789abcdef"  # silences the ephemeral-key warning
ROOT = Path(__file__).resolve().parents[1]  # `python -m bench.floor` must find the package


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@dataclass
class Server:
    name: str
    proc: subprocess.Popen[bytes]
    port: int
    log: Path
    started_at: float  # time.monotonic() just before the process was spawned
    startup: float | None = None  # seconds from spawn to the first successful tool call

    @property
    def origin(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def url(self) -> str:
        return self.origin + "/mcp"

    def memory(self) -> dict[str, int]:
        """VmRSS and VmHWM (peak RSS) of the process, in bytes, from /proc/<pid>/status."""
        found: dict[str, int] = {}
        for line in Path(f"/proc/{self.proc.pid}/status").read_text().splitlines():
            key, _, value = line.partition(":")
            if key in ("VmRSS", "VmHWM"):
                found[key] = int(value.split()[0]) * 1024
        return found

    def wait_ready(self, probe: bytes = PROBE, timeout: float = 60.0) -> float:
        """Poll with a real tool call until one succeeds; records and returns the start-up time."""
        deadline = time.monotonic() + timeout
        with httpx.Client(headers=HEADERS, timeout=5.0) as http:
            while True:
                if self.proc.poll() is not None:
                    raise RuntimeError(f"{self.name} exited early:\n{self.tail()}")
                try:
                    response = http.post(self.url, content=probe)
                    if response.status_code == 200 and b'"isError":true' not in response.content:
                        self.startup = time.monotonic() - self.started_at
                        return self.startup
                except httpx.TransportError:
                    pass
                if time.monotonic() > deadline:
                    raise RuntimeError(f"{self.name} did not answer a tool call:\n{self.tail()}")
                time.sleep(0.01)

    def tail(self, lines: int = 20) -> str:
        try:
            return "\n".join(self.log.read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return ""

    def stop(self, timeout: float = 10.0) -> int | None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)  # uvicorn shuts down gracefully on SIGINT
            try:
                self.proc.wait(timeout)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        return self.proc.returncode


def spawn(
    name: str,
    argv: list[str],
    logs: Path,
    env: dict[str, str] | None = None,
    port: int | None = None,
) -> Server:
    """Start `argv` (with `{port}` filled in) in its own process; output goes to a log file."""
    port = port or free_port()
    log = logs / f"{name}.log"
    command = [part.replace("{port}", str(port)) for part in argv]
    started = time.monotonic()
    with log.open("ab") as out:
        proc = subprocess.Popen(
            command,
            stdout=out,
            stderr=subprocess.STDOUT,
            env={**os.environ, **(env or {})},
            stdin=subprocess.DEVNULL,
            cwd=ROOT,
        )
    return Server(name, proc, port, log, started)


def pwc_command() -> list[str]:
    """`pwc-mcp --port {port}`: the installed console script next to this interpreter."""
    script = Path(sys.executable).with_name("pwc-mcp")
    found = str(script) if script.exists() else shutil.which("pwc-mcp")
    head = [found] if found else [sys.executable, "-m", "pwc_mcp.cli"]
    return [*head, "--port", "{port}"]


def pwc_env(api_url: str, **extra: str) -> dict[str, str]:
    return {
        "PWC_API_URL": api_url,
        "PWC_MCP_CURSOR_KEY_CURRENT": BENCH_CURSOR_KEY,
        **LIMITS,
        **extra,
    }


def start_pwc(name: str, api_url: str, logs: Path, probe: bytes = PROBE) -> Server:
    server = spawn(name, pwc_command(), logs, pwc_env(api_url))
    return _ready(server, probe)


def start_reference(
    kind: str, response_bytes: int, logs: Path, api_url: str | None = None
) -> Server:
    """The floor, the ceiling or the upstream floor (which asks the catalog at `api_url`)."""
    argv = [
        sys.executable,
        "-m",
        "bench.floor",
        kind,
        "--port",
        "{port}",
        "--response-bytes",
        str(response_bytes),
        *(["--api-url", api_url] if api_url else []),
    ]
    return _ready(spawn(kind, argv, logs))


def _ready(server: Server, probe: bytes = PROBE) -> Server:
    try:
        server.wait_ready(probe)
    except BaseException:
        server.stop()
        raise
    return server


def stop_all(servers: list[Any]) -> None:
    for server in servers:
        if server is not None:
            server.stop()
