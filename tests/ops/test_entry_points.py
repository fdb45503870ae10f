"""Every `python -m ...` entry point fails in one line: a taken port, a bad argument or a server
that cannot start is one line on stderr and a non-zero exit, never a traceback."""

from __future__ import annotations

import ast
import os
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.helpers import PACKAGES, ROOT

BUSY = "{busy}"  # replaced by a port another socket listens on
CASES = [
    ("pwc_mcp.sample", ["--port", BUSY]),
    ("pwc_mcp.sample", ["--port", "99999"]),  # was an OverflowError from bind()
    ("pwc_mcp.sample", ["--latency-ms", "nan"]),
    ("pwc_mcp.sample", ["--host", "host.invalid"]),
    ("pwc_mcp.cli", ["--port", BUSY]),
    ("pwc_mcp.cli", ["--no-such-flag"]),
    ("bench", ["--rounds", "0"]),
    ("bench", ["--clients", "4,sixteen"]),
    ("bench", ["--no-such-flag"]),
    ("bench.cost", ["--rounds", "x"]),
    ("bench.merging", ["--rounds", "-1"]),
    ("bench.outline", ["--no-such-flag"]),
    ("bench.workload", ["--calls", "none"]),
    ("bench.suggestions", ["--rounds", "0"]),
    ("bench.floor", ["floor", "--port", BUSY]),
    ("bench.floor", ["ceiling", "--port", "99999"]),  # was a traceback from uvicorn
    ("bench.floor", ["upstream-floor", "--port", "0"]),  # no catalog to ask
    ("bench.profile", ["floor", "--port", BUSY, "--out", "{tmp}/floor.prof"]),
    ("bench.profile", ["pwc"]),
    ("bench.layers", ["--port", "99999"]),
    ("bench.parses", ["--no-such-flag"]),
    ("pwc_mcp.site.connect", ["no-such-command"]),
]
PARAMS = [pytest.param(module, argv, id=f"{module} {' '.join(argv)}") for module, argv in CASES]


@pytest.fixture
def busy_port() -> Iterator[int]:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        sock.listen(1)
        yield sock.getsockname()[1]


@pytest.mark.parametrize(("module", "argv"), PARAMS)
def test_an_expected_failure_is_one_line(
    module: str, argv: list[str], busy_port: int, tmp_path: Path
) -> None:
    args = [a.replace(BUSY, str(busy_port)).replace("{tmp}", str(tmp_path)) for a in argv]
    result = subprocess.run(
        [sys.executable, "-m", module, *args],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=ROOT,
        stdin=subprocess.DEVNULL,
        check=False,
    )
    lines = result.stderr.strip().splitlines()
    assert result.returncode != 0, result
    assert len(lines) == 1 and "Traceback" not in result.stderr, result.stderr


def test_a_bench_run_that_cannot_start_a_server_is_one_line(tmp_path: Path) -> None:
    """A server that exits at start-up (here pwc-mcp refusing its configuration) stops the run
    with what failed and the last line its log said."""
    result = subprocess.run(
        [sys.executable, "-m", "bench.cost", "--rounds", "1"],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
        env={**os.environ, "PWC_MCP_TRUSTED_PROXY_CIDRS": "not-a-network"},
        stdin=subprocess.DEVNULL,
        check=False,
    )
    assert result.returncode == 1, result
    assert "Traceback" not in result.stderr, result.stderr
    (line,) = result.stderr.strip().splitlines()
    assert line.startswith("bench.cost: FAILED: ") and "exited early" in line, line


def runs_as_main(path: Path) -> bool:
    """Whether the module has a top-level `if __name__ == "__main__":` (read as syntax)."""
    main = ast.parse('__name__ == "__main__"', mode="eval").body
    tests = [
        node.test for node in ast.parse(path.read_text("utf-8")).body if isinstance(node, ast.If)
    ]
    return any(ast.dump(test) == ast.dump(main) for test in tests)


def entry_points() -> set[str]:
    """Every module of the packages and bench/ that runs as `python -m`."""
    found = set()
    for package in (*PACKAGES, "bench"):
        for path in (ROOT / package).rglob("*.py"):
            if runs_as_main(path):
                parts = path.relative_to(ROOT).with_suffix("").parts
                found.add(".".join(parts[:-1] if parts[-1] == "__main__" else parts))
    return found


def test_every_entry_point_has_a_failure_case() -> None:
    assert entry_points() == {module for module, _ in CASES}
