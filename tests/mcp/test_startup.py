"""`pwc-mcp` start-up through a real process: `--version`, a `--help` that never imports the server
stack, one line for a busy port, the endpoint printed only once its socket listens, pinned demo
ports, hints that run as printed, and a clean Ctrl+C."""

from __future__ import annotations

import asyncio
import os
import queue
import re
import signal
import socket
import subprocess
import sys
import threading
import time
import tomllib
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from fastmcp import Client
from fastmcp.client.transports import StreamableHttpTransport

from pwc_mcp import __version__
from pwc_mcp.config import READ_ELSEWHERE, SETTINGS
from pwc_mcp.sample import start_sample_catalog

ROOT = Path(__file__).resolve().parents[2]
PWC_MCP = Path(sys.executable).with_name("pwc-mcp")
HEAVY = ("fastmcp", "mcp", "uvicorn", "starlette")
ENDPOINT = re.compile(r"^MCP endpoint: http://127\.0\.0\.1:(\d+)/mcp ")
# The server's own limits and ports come from the test, never from the developer's shell.
CLEAN_ENV = {k: v for k, v in os.environ.items() if not k.startswith("PWC_") and k not in ("PORT",)}


def run(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(PWC_MCP), *args],
        capture_output=True,
        text=True,
        timeout=60,
        env={**CLEAN_ENV, **(env or {})},
        cwd=ROOT,
        check=False,
    )


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextmanager
def listening() -> Iterator[int]:
    """A port some other program already listens on."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        sock.listen()
        yield int(sock.getsockname()[1])


def test_version() -> None:
    result = run("--version")
    assert result.returncode == 0, result.stderr
    # then what uvicorn runs on (tests/mcp/test_runtime.py)
    assert result.stdout.splitlines()[0] == f"pwc-mcp {__version__}"


def test_help_does_not_import_the_server_stack() -> None:
    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["scripts"]
    assert scripts["pwc-mcp"] == "pwc_mcp.cli:entry"
    probe = (
        "import sys\n"
        "from pwc_mcp.cli import main\n"
        "try:\n    main(['--help'])\nexcept SystemExit as exit:\n    code = exit.code\n"
        f"print('loaded:', code, sorted(m for m in sys.modules if m.split('.')[0] in {HEAVY!r}))"
    )
    result = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, timeout=60, check=False
    )
    assert "--sample-port" in result.stdout and "--version" in result.stdout, result.stderr
    assert result.stdout.strip().splitlines()[-1] == "loaded: 0 []"
    assert run("--help").returncode == 0


def test_a_busy_port_is_one_line_that_suggests_PORT() -> None:
    with listening() as port:
        result = run(env={"PORT": str(port)})
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert f"port {port}" in lines[0] and "PORT=" in lines[0] and "Traceback" not in lines[0]
    assert "MCP endpoint" not in result.stdout, "no URL for a server that never listened"
    # `make run` and `make demo` pass no flags: the hint names the variable, 0 included.
    assert "PORT=0" in lines[0] and "--port" not in lines[0]


def test_help_lists_every_environment_variable_from_the_settings_table() -> None:
    result = run("--help")
    assert result.returncode == 0, result.stderr
    listed = result.stdout[result.stdout.index("environment variables:") :]
    names = [
        line.split()[0]
        for line in listed.splitlines()[1:]
        if line.startswith("  ") and line[2] != " "
    ]
    assert names == [s.env for s in SETTINGS] + [d.env for d in READ_ELSEWHERE]
    port = next(line for line in listed.splitlines() if line.split()[0] == "PORT")
    assert "0 = any free port" in port and "(default: 7860)" in port
    assert "`" not in listed and "](#" not in listed, "plain text, not Markdown"


def test_a_busy_sample_port_is_one_line_that_suggests_PWC_SAMPLE_PORT() -> None:
    with listening() as port:
        result = run("--sample-catalog", "--port", "0", env={"PWC_SAMPLE_PORT": str(port)})
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "PWC_SAMPLE_PORT=" in lines[0], result.stderr


def test_sample_port_needs_the_sample_catalog() -> None:
    result = run("--sample-port", "8765")
    assert result.returncode == 2 and "--sample-port needs --sample-catalog" in result.stderr


class Demo:
    """`pwc-mcp --sample-catalog` as a real process; its stdout read line by line."""

    def __init__(self, args: list[str], env: dict[str, str], *, sample: bool = True) -> None:
        self.proc = subprocess.Popen(
            [str(PWC_MCP), *(["--sample-catalog"] if sample else []), *args],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            stdin=subprocess.DEVNULL,
            text=True,
            env={**CLEAN_ENV, **env},
            cwd=ROOT,
        )
        self.lines: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self._pump, daemon=True).start()

    def _pump(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.put(line.rstrip("\n"))
        self.lines.put(None)

    def until_endpoint(self) -> tuple[list[str], int, bool]:
        """Lines up to the endpoint line, its port, and whether that port accepted a TCP
        connection at the moment the line was read."""
        seen: list[str] = []
        deadline = time.monotonic() + 60
        while (line := self.lines.get(timeout=max(0.1, deadline - time.monotonic()))) is not None:
            seen.append(line)
            if match := ENDPOINT.match(line):
                port = int(match.group(1))
                try:
                    socket.create_connection(("127.0.0.1", port), timeout=1).close()
                    accepted = True
                except OSError:
                    accepted = False
                return seen, port, accepted
        raise AssertionError(f"no endpoint line: {seen}\n{self.stop()}")

    def stop(self, interrupts: int = 1) -> str:
        for _ in range(interrupts):
            if self.proc.poll() is None:
                self.proc.send_signal(signal.SIGINT)
        _, err = self.proc.communicate(timeout=30)
        return err


async def demo_tool_call(port: int) -> dict[str, object]:
    transport = StreamableHttpTransport(f"http://127.0.0.1:{port}/mcp")
    async with Client(transport) as client:
        result = await client.call_tool("get_benchmark", {"benchmark": "ImageNet", "limit": 2})
    return dict(result.structured_content or {})


@pytest.mark.parametrize("pin", ["flags", "environment"])
def test_the_demo_pins_both_ports_and_prints_what_works(pin: str) -> None:
    mcp_port, sample_port = free_port(), free_port()
    if pin == "flags":
        demo = Demo(["--port", str(mcp_port), "--sample-port", str(sample_port)], {})
    else:
        demo = Demo([], {"PORT": str(mcp_port), "PWC_SAMPLE_PORT": str(sample_port)})
    try:
        lines, port, accepted = demo.until_endpoint()
        assert port == mcp_port and accepted, "the endpoint is printed once its socket listens"
        api = f"http://127.0.0.1:{sample_port}/api/v1"
        assert f"Sample catalog: PWC_API_URL={api}" in lines
        assert any(line.startswith("Limits per client: 60 requests/min") for line in lines)
        hint = next(line.removeprefix("  try: ") for line in lines if "try:" in line)
        assert re.fullmatch(rf"PWC_API_URL={re.escape(api)} \S*pwc search transformer", hint)
        shown = subprocess.run(
            ["bash", "-c", hint], capture_output=True, text=True, cwd=ROOT, timeout=60
        )
        assert shown.returncode == 0 and "Transformer" in shown.stdout, shown.stderr
        content = asyncio.run(demo_tool_call(port))
        assert content["schema_version"] == "v2"
    finally:
        err = demo.stop()
    assert demo.proc.returncode == 0 and "Traceback" not in err, err


def test_port_zero_prints_the_port_it_bound_and_a_double_ctrl_c_stops_cleanly() -> None:
    demo = Demo(["--port", "0", "--sample-port", "0"], {})
    try:
        _, port, accepted = demo.until_endpoint()
    finally:
        # A terminal's Ctrl+C under `make demo` reaches the server twice (uv forwards it too).
        err = demo.stop(interrupts=2)
    assert port != 0 and accepted, err
    # The second interrupt may land before or after shutdown began: 0 or the shell's 130 for
    # SIGINT are both a deliberate stop; a traceback never is.
    assert demo.proc.returncode in (0, 130) and "Traceback" not in err, err


def test_PORT_zero_takes_a_free_port_and_the_demo_says_nothing_of_cursor_keys() -> None:
    demo = Demo([], {"PORT": "0"})
    try:
        _, port, accepted = demo.until_endpoint()
    finally:
        err = demo.stop()
    assert port != 0 and accepted, err
    assert demo.proc.returncode == 0 and "Traceback" not in err, err
    assert "ephemeral key" not in err, "the demo's cursors need not outlive it"


def test_without_a_cursor_key_production_still_warns() -> None:
    with start_sample_catalog() as catalog:
        server = Demo([], {"PORT": "0", "PWC_API_URL": catalog.url}, sample=False)
        try:
            _, port, accepted = server.until_endpoint()
        finally:
            err = server.stop()
    assert accepted, err
    assert "PWC_MCP_CURSOR_KEY_CURRENT is not set: using an ephemeral key" in err
