"""Build the sdist and wheel, check them, install the wheel in a fresh virtual environment and use
it: `pwc --version`, `pwc-mcp --version`, one offline demo tool call over real HTTP and the
leaderboard app read from the package data.

    python scripts/check_dist.py [--out DIR]     # make dist; the release workflow runs it too

Needs uv (the Makefile's .cache/uv-bin/bin/uv, $UV, or uv on PATH) and twine in this interpreter.
One line per step; exit 0 when every step passed, 1 with the reason of the first failure.
The wheel is installed with the versions uv.lock pins, from the directory it was built in (not
the checkout), so a file missing from the wheel fails here.
"""

from __future__ import annotations

import argparse
import json
import os
import queue
import re
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import tomllib
import urllib.request
from pathlib import Path
from typing import IO

ROOT = Path(__file__).resolve().parents[1]
ENDPOINT = re.compile(r"^MCP endpoint: (http://\S+/mcp)")
HINT = re.compile(r"^  try: (.+)$")
DEMO_CALL = {"benchmark": "ImageNet", "max_parameters": "100M", "limit": 3}
# pwc_mcp.ui.LEADERBOARD_URI (this script uses only the standard library; a test keeps them equal)
APP_URI = "ui://pwc/leaderboard.html"
START_TIMEOUT = 60.0


class CheckFailed(Exception):
    pass


def version() -> str:
    return tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]


def find_uv() -> str:
    for candidate in (os.environ.get("UV"), str(ROOT / ".cache/uv-bin/bin/uv"), shutil.which("uv")):
        if candidate and os.access(candidate, os.X_OK):
            return candidate
    raise CheckFailed("uv not found: run `make install` (it bootstraps .cache/uv-bin/bin/uv)")


def run(argv: list[str], **kwargs: object) -> str:
    result = subprocess.run(argv, capture_output=True, text=True, check=False, **kwargs)  # type: ignore[call-overload]
    if result.returncode != 0:
        tail = " ".join((result.stderr or result.stdout).strip().splitlines()[-3:])
        raise CheckFailed(f"`{shlex.join(argv)}` exited {result.returncode}: {tail}")
    return str(result.stdout)


def clear_out(out: Path) -> None:
    """Empty the build directory, refusing one that holds anything but earlier builds, so a
    mistyped --out never deletes someone's files."""
    if not out.exists():
        return
    if not out.is_dir() or any(
        not (p.is_file() and p.name.startswith("pwc_mcp-") and p.name.endswith((".whl", ".tar.gz")))
        for p in out.iterdir()
        if p.name != ".gitignore"
    ):
        raise CheckFailed(f"--out {out} holds files other than pwc_mcp builds; not deleting it")
    shutil.rmtree(out)


def build(uv: str, out: Path) -> tuple[Path, Path]:
    constraints = ROOT / "scripts" / "build-constraints.txt"
    run([uv, "build", "--sdist", "--wheel", "--build-constraints", str(constraints),
         "--out-dir", str(out), str(ROOT)])  # fmt: skip
    wheels, sdists = sorted(out.glob("pwc_mcp-*.whl")), sorted(out.glob("pwc_mcp-*.tar.gz"))
    if len(wheels) != 1 or len(sdists) != 1:
        raise CheckFailed(f"expected one wheel and one sdist in {out}, found {wheels + sdists}")
    print(f"dist: built {sdists[0].name} and {wheels[0].name}", flush=True)
    run([sys.executable, "-m", "twine", "check", "--strict", str(sdists[0]), str(wheels[0])])
    print("dist: twine check --strict passed", flush=True)
    return sdists[0], wheels[0]


def install(uv: str, wheel: Path, venv: Path) -> Path:
    """A fresh environment with exactly the locked runtime dependencies plus the wheel."""
    requirements = venv.parent / "requirements.txt"
    run([uv, "export", "--frozen", "--no-dev", "--no-emit-project", "--no-hashes",
         "--output-file", str(requirements)], cwd=ROOT)  # fmt: skip
    run([uv, "venv", "--quiet", "--python", "3.11", str(venv)])
    python = venv / "bin" / "python"
    run([uv, "pip", "install", "--quiet", "--python", str(python), "-r", str(requirements),
         str(wheel)])  # fmt: skip
    print(f"dist: installed {wheel.name} in a fresh virtual environment", flush=True)
    return venv / "bin"


def check_versions(bin_dir: Path, expected: str, cwd: Path) -> None:
    for script, want in (("pwc", f"pwc {expected}"), ("pwc-mcp", f"pwc-mcp {expected}")):
        out = run([str(bin_dir / script), "--version"], cwd=cwd).strip()
        if not out.startswith(want):
            raise CheckFailed(f"`{script} --version` printed {out!r}, expected {want!r}...")
        print(f"dist: {script} --version -> {out.split(chr(9))[0]}", flush=True)


def call_tool(endpoint: str, name: str, arguments: dict[str, object]) -> dict[str, object]:
    result = rpc(endpoint, "tools/call", {"name": name, "arguments": arguments})
    if result.get("isError") or result.get("structuredContent", {}).get("schema_version") != "v1":
        raise CheckFailed(f"{name} failed: {json.dumps(result)[:300]}")
    return result


def read_app(endpoint: str) -> int:
    """The leaderboard app the wheel ships as package data: its HTML's size."""
    result = rpc(endpoint, "resources/read", {"uri": APP_URI})
    (content,) = result.get("contents") or [{}]
    text = content.get("text") or ""
    if content.get("mimeType") != "text/html;profile=mcp-app" or "<html" not in text.lower():
        raise CheckFailed(f"{APP_URI} is not the app: {json.dumps(result)[:300]}")
    return len(text.encode())


def rpc(endpoint: str, method: str, params: dict[str, object]) -> dict[str, object]:
    body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": method, "params": params}).encode()
    request = urllib.request.Request(
        endpoint,
        data=body,
        headers={
            "Content-Type": "application/json",
            "Accept": "application/json, text/event-stream",
            "MCP-Protocol-Version": "2025-11-25",
        },
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        answer = json.loads(response.read())
    if "result" not in answer:
        raise CheckFailed(f"{method} failed: {json.dumps(answer)[:300]}")
    return dict(answer["result"])


def smoke(bin_dir: Path, cwd: Path) -> None:
    """`pwc-mcp --sample-catalog` on free ports: one tool call, the printed `try:` hint, Ctrl+C."""
    proc = subprocess.Popen(
        [str(bin_dir / "pwc-mcp"), "--sample-catalog", "--port", "0", "--sample-port", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        stdin=subprocess.DEVNULL,
        text=True,
        cwd=cwd,
    )
    try:
        endpoint, hint = _read_banner(proc)
        call_tool(endpoint, "get_benchmark", DEMO_CALL)
        print(f"dist: demo tool call get_benchmark via {endpoint} passed", flush=True)
        print(f"dist: {APP_URI} served from the wheel ({read_app(endpoint):,} bytes)", flush=True)
        out = run(["bash", "-c", hint], cwd=cwd)
        if "Transformer" not in out:
            raise CheckFailed(f"the demo's hint `{hint}` printed no transformer paper")
        print("dist: the demo's `try:` hint runs as printed", flush=True)
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGINT)
        try:
            _, err = proc.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            _, err = proc.communicate()
    if "Traceback" in err or proc.returncode != 0:
        raise CheckFailed(f"pwc-mcp stopped with {proc.returncode}: {' '.join(err.split())[:300]}")
    print("dist: pwc-mcp stopped cleanly on Ctrl+C", flush=True)


def _read_banner(proc: subprocess.Popen[str]) -> tuple[str, str]:
    """The `try:` hint and the endpoint from the start-up lines, within START_TIMEOUT."""
    assert proc.stdout is not None
    lines: queue.Queue[str | None] = queue.Queue()

    def pump(stream: IO[str]) -> None:
        for line in stream:
            lines.put(line.rstrip("\n"))
        lines.put(None)

    threading.Thread(target=pump, args=(proc.stdout,), daemon=True).start()
    deadline = time.monotonic() + START_TIMEOUT
    hint = None
    while (left := deadline - time.monotonic()) > 0:
        try:
            line = lines.get(timeout=left)
        except queue.Empty:
            break
        if line is None:
            raise CheckFailed(f"pwc-mcp exited {proc.wait()} before printing its endpoint")
        if match := HINT.match(line):
            hint = match.group(1)
        if match := ENDPOINT.match(line):
            if hint is None:
                raise CheckFailed("pwc-mcp --sample-catalog printed no `try:` hint")
            return match.group(1), hint
    raise CheckFailed(f"pwc-mcp printed no endpoint within {START_TIMEOUT:.0f} s")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="check_dist.py", description=__doc__.split("\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "dist", help="where to build")
    args = parser.parse_args(argv)
    try:
        uv = find_uv()
        clear_out(args.out)
        _, wheel = build(uv, args.out)
        with tempfile.TemporaryDirectory(prefix="pwc-dist-") as tmp:
            bin_dir = install(uv, wheel, Path(tmp) / "venv")
            check_versions(bin_dir, version(), Path(tmp))
            smoke(bin_dir, Path(tmp))
    except CheckFailed as failure:
        print(f"dist: FAILED: {failure}", file=sys.stderr)
        return 1
    print(f"dist: all checks passed; upload {args.out}/*", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
