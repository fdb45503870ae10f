"""The README's client snippets under "Try it offline": the Python block runs as written against
the real app on loopback (sample catalog, real uvicorn), and the Inspector CLI line makes the same
call with the Inspector version `make interop` pins (scripts/interop.sh runs that line itself:
it needs Node and npm, which `make test` does not)."""

from __future__ import annotations

import json
import re
import shlex
import subprocess
import sys

from pwc_mcp.app import create_app
from pwc_mcp.config import Settings
from pwc_mcp.sample import RunningCatalog
from pwc_mcp.serving.localserver import serve_in_thread
from tests.helpers import ROOT

README = (ROOT / "README.md").read_text(encoding="utf-8")
DEMO_ENDPOINT = "http://127.0.0.1:7860/mcp"  # what `make demo` prints
INSPECTOR = "npx @modelcontextprotocol/inspector@"


def python_snippet() -> str:
    blocks = [b for b in re.findall(r"```python\n(.*?)```", README, re.S) if "Client(" in b]
    assert len(blocks) == 1, "one Python client snippet"
    return blocks[0]


def inspector_line() -> list[str]:
    lines = re.findall(rf"^{re.escape(INSPECTOR)}.*?[^\\]$", README, re.M | re.S)
    assert len(lines) == 1, "one Inspector CLI line"
    return shlex.split(lines[0].replace("\\\n", " "))


def test_the_python_snippet_runs_as_written(sample: RunningCatalog) -> None:
    code = python_snippet()
    assert DEMO_ENDPOINT in code
    with serve_in_thread(create_app(Settings(api_url=sample.url)), name="pwc-mcp") as running:
        result = subprocess.run(
            [sys.executable, "-c", code.replace(DEMO_ENDPOINT, f"{running.origin}/mcp")],
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
    assert result.returncode == 0, result.stderr
    assert "ImageNet" in result.stdout and "Traceback" not in result.stderr


def test_the_inspector_line_makes_the_same_call_with_the_pinned_inspector() -> None:
    words = inspector_line()
    pinned = re.search(
        r"^INSPECTOR_VERSION=(\S+)", (ROOT / "scripts" / "interop.sh").read_text(), re.M
    )
    assert pinned and words[:2] == ["npx", f"@modelcontextprotocol/inspector@{pinned[1]}"]
    assert words[2:4] == ["--cli", DEMO_ENDPOINT] and words[4] == "--transport"
    pairs = dict(zip(words[4::2], words[5::2], strict=True))
    assert pairs["--transport"] == "http" and pairs["--method"] == "tools/call"
    call = re.search(r'call_tool\("(\w+)", (\{.*?\})\)', python_snippet())
    assert call is not None
    assert pairs["--tool-name"] == call[1]
    assert json.loads(pairs["--tool-args-json"]) == json.loads(call[2])
