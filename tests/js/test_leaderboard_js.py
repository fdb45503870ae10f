"""The leaderboard app's JavaScript unit tests (tests/js/leaderboard.test.mjs, node's built-in
test runner, no npm package) as one pytest test, so `make test` runs them and fails when one
fails. The runner is given real get_benchmark results, read from the sample catalog by a real
MCP client, for the tests that check the app against what the server sends; none may be skipped.
Then the modules inlined as the HTML holds them must still parse as one module. The type check
of the same scripts is `make lint` (tests/js/typecheck.sh)."""

from __future__ import annotations

import json
import os
import re
import subprocess
from importlib.resources import files
from pathlib import Path

import pytest
from fastmcp import Client

from pwc_mcp import ui
from pwc_mcp.sample import RunningCatalog
from pwc_mcp.server import build_server
from tests.helpers import ROOT
from tests.helpers.mcp import call, make_service
from tests.helpers.ops import require_tool

TESTS = Path(__file__).with_name("leaderboard.test.mjs")
CASES = {
    "pareto": {"benchmark": "ImageNet", "pareto": ["Top 1 Accuracy:higher", "GFLOPs:lower"]},
    "higher": {"benchmark": "ImageNet", "timeline": True},
    "lower": {"benchmark": "Penn Treebank (Word Level)", "timeline": True},
}


def node_flags(node: str) -> list[str]:
    """Node 20.19+ and 22.12+ load a `.js` ES module beside no package.json as a module; earlier
    Node 20 releases need to be told (the modules ship in the wheel without one)."""
    printed = subprocess.run([node, "--version"], capture_output=True, text=True, check=True)
    found = re.match(r"v(\d+)\.(\d+)", printed.stdout)
    version = (int(found.group(1)), int(found.group(2))) if found else (0, 0)
    if version < (20, 10):
        pytest.fail(f"node {printed.stdout.strip()} is too old for the app's tests (20.10+)")
    return ["--experimental-detect-module"] if version < (20, 19) else []


def summary(output: str) -> dict[str, int]:
    """The TAP reporter's closing counts: `# pass 9`, `# fail 0`, ..."""
    return {
        k: int(v)
        for k, v in re.findall(r"^# (tests|pass|fail|skipped|todo|cancelled) (\d+)$", output, re.M)
    }


@pytest.mark.anyio
async def test_the_apps_javascript_unit_tests_pass(sample: RunningCatalog, tmp_path: Path) -> None:
    node = require_tool("node", "/usr/bin/node", hint="node (and npm) from Debian or nodejs.org")
    results = {}
    async with Client(build_server(make_service(sample.url))) as client:
        for name, arguments in CASES.items():
            structured, _ = await call(client, "get_benchmark", **arguments)
            results[name] = {"arguments": arguments, "result": structured}
    fixtures = tmp_path / "results.json"
    fixtures.write_text(json.dumps(results), encoding="utf-8")
    run = subprocess.run(
        [node, *node_flags(node), "--test", "--test-reporter=tap", str(TESTS)],
        cwd=ROOT,
        env={**os.environ, "PWC_APP_RESULTS": str(fixtures), "NODE_OPTIONS": ""},
        capture_output=True,
        text=True,
        timeout=60,
    )
    counts = summary(run.stdout)
    assert run.returncode == 0 and counts.get("fail") == 0, run.stdout[-4000:] + run.stderr[-2000:]
    assert counts["pass"] == counts["tests"] >= 10 and counts["skipped"] == 0, counts


def test_the_inlined_script_is_one_valid_module(tmp_path: Path) -> None:
    """The modules as the HTML holds them: one scope, so a top-level name declared in two of
    them would be a SyntaxError there (and in no module on its own)."""
    node = require_tool("node", "/usr/bin/node", hint="node (and npm) from Debian or nodejs.org")
    folder = files("pwc_mcp.ui")
    modules = {name: folder.joinpath(name).read_text(encoding="utf-8") for name in ui.SCRIPT_FILES}
    for bundle, valid in (
        (ui.bundle(modules), True),
        (ui.bundle(modules) + "const obj = 1;\n", False),
    ):
        script = tmp_path / "inlined.mjs"
        script.write_text(bundle, encoding="utf-8")
        checked = subprocess.run(
            [node, "--check", str(script)], capture_output=True, text=True, timeout=60
        )
        assert (checked.returncode == 0) == valid, checked.stderr
