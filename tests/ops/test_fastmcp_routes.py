"""The README's FastMCP developer routes run exactly as written against the sample catalog.

`fastmcp inspect` and `fastmcp run` are Node-free, so they run here; `fastmcp dev inspector`
needs Node and the Inspector, so `make interop` runs it (scripts/fastmcp_dev_probe.py). FastMCP
puts `pwc_mcp/` itself on `sys.path`: these are the tests that catch a module shadowing a
dependency on the route users take (tests/ops/test_no_shadowing.py says which one).
"""

from __future__ import annotations

import os
import re
import shlex
import signal
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from fastmcp import Client
from fastmcp.client.transports import StreamableHttpTransport

from pwc_mcp.params import TOOLS
from pwc_mcp.sample import RunningCatalog
from pwc_mcp.site.examples import TOOL_EXAMPLES
from tests.helpers import ROOT, free_port, wait_until
from tests.helpers.ops import load_script

listening = load_script("fastmcp_dev_probe").listening  # the probe's own readiness check

INSPECT = "fastmcp inspect pwc_mcp/dev.py:mcp"
RUN = "fastmcp run pwc_mcp/dev.py:mcp --transport http --port 8000"
DEV = "fastmcp dev inspector pwc_mcp/dev.py:mcp --inspector-version {version}"
BIN = Path(sys.executable).parent  # the venv's bin: what `. .venv/bin/activate` puts on PATH
START_TIMEOUT = 60.0  # bounds a hang at start-up; a healthy start takes a few seconds
README = (ROOT / "README.md").read_text(encoding="utf-8")


def connect_section() -> str:
    start = README.index("\n## Connect a client\n")
    return README[start : README.index("\n## ", start + 1)]


def inspector_version() -> str:
    """The Inspector version `make interop` installs (scripts/interop.sh pins it)."""
    script = (ROOT / "scripts" / "interop.sh").read_text(encoding="utf-8")
    match = re.search(r"^INSPECTOR_VERSION=(\S+)", script, re.M)
    assert match, "scripts/interop.sh pins no INSPECTOR_VERSION"
    return match[1]


def route_env(catalog: RunningCatalog) -> dict[str, str]:
    """This environment with the venv first on PATH and the sample catalog as $PWC_API_URL."""
    return {**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}"} | {
        "PWC_API_URL": catalog.url
    }


@contextmanager
def process_group(
    argv: list[str], env: dict[str, str], log: Path
) -> Iterator[subprocess.Popen[bytes]]:
    """``argv`` in its own session, so the whole group (FastMCP's children too) is stopped."""
    with log.open("wb") as out:
        process = subprocess.Popen(
            argv, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL, start_new_session=True,
        )  # fmt: skip
        try:
            yield process
        finally:
            for sig in (signal.SIGTERM, signal.SIGKILL):
                if process.poll() is not None:
                    break
                os.killpg(process.pid, sig)
                try:
                    process.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    continue
            if process.poll() is None:
                process.wait(timeout=10)


def test_the_readme_gives_exactly_the_commands_these_checks_run() -> None:
    spans = re.findall(r"`(fastmcp [^`]+)`", connect_section())
    documented = [" ".join(span.split()) for span in spans]  # a span may wrap across lines
    assert documented == [INSPECT, RUN, DEV.format(version=inspector_version())]


def test_fastmcp_inspect_lists_every_tool(sample: RunningCatalog) -> None:
    result = subprocess.run(
        shlex.split(INSPECT), cwd=ROOT, env=route_env(sample), capture_output=True, text=True,
        timeout=START_TIMEOUT, check=False,
    )  # fmt: skip
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-2000:]
    counts = dict(re.findall(r"^\s+(Tools|Prompts|Templates):\s+(\d+)$", result.stdout, re.M))
    assert counts == {"Tools": str(len(TOOLS)), "Prompts": "3", "Templates": "4"}, result.stdout


@pytest.mark.anyio
async def test_fastmcp_run_serves_every_tool_over_http(
    sample: RunningCatalog, tmp_path: Path
) -> None:
    port = free_port()
    argv = shlex.split(RUN)
    assert argv[-2:] == ["--port", "8000"]
    argv[-1] = str(port)  # the one change: a free port, not the documented 8000
    log = tmp_path / "fastmcp-run.log"
    with process_group(argv, route_env(sample), log) as process:

        def up() -> bool:
            assert process.poll() is None, f"exited {process.returncode}:\n{log.read_text()}"
            return listening(port)

        wait_until(up, timeout=START_TIMEOUT, interval=0.05)
        async with Client(StreamableHttpTransport(f"http://127.0.0.1:{port}/mcp")) as client:
            listed = {tool.name for tool in await client.list_tools()}
            result = await client.call_tool_mcp("get_benchmark", TOOL_EXAMPLES["get_benchmark"][0])
    assert listed == set(TOOLS)
    assert not result.is_error, result.content[0].text
    assert result.structured_content and result.structured_content["schema_version"] == "v2"
