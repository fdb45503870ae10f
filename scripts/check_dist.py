"""Build the sdist and the wheel from it, check them, install the wheel in a fresh virtual
environment and use it: `pwc --version`, `pwc-mcp --version`, one offline demo tool call over real
HTTP and the leaderboard app read from the package data.

    python scripts/check_dist.py [--out DIR]     # make dist; the release workflow runs it too

Needs uv (the Makefile's .cache/uv-bin/bin/uv, $UV, or uv on PATH) and twine in this interpreter.
One line per step; exit 0 when every step passed, 1 with the reason of the first failure.
The wheel is installed with the versions uv.lock pins, from the directory it was built in (not
the checkout), so a file missing from the wheel fails here; it is built from the sdist, so a file
missing from the sdist fails too. Both archives hold only what the package needs: the sdist the
entries pyproject.toml selects (`[tool.hatch.build.targets.sdist] only-include`) and what the
build backend always adds, the wheel the packages and their metadata; a cache or build directory
anywhere in either (`.hypothesis/`, `__pycache__/`, `*.pyc`, ...) fails the check.
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
import tarfile
import tempfile
import threading
import time
import tomllib
import urllib.request
import zipfile
from pathlib import Path
from typing import IO, Any

ROOT = Path(__file__).resolve().parents[1]
ENDPOINT = re.compile(r"^MCP endpoint: (http://\S+/mcp)")
HINT = re.compile(r"^  try: (.+)$")
DEMO_CALL = {"benchmark": "ImageNet", "max_parameters": "100M", "limit": 3}
# pwc_mcp.ui.LEADERBOARD_URI (this script uses only the standard library; a test keeps them equal)
APP_URI = "ui://pwc/leaderboard.html"
START_TIMEOUT = 60.0
# Hatchling puts these in every sdist whatever the selection (its sdist builder docs), beside
# the README the project declares and the PKG-INFO it writes.
ALWAYS_IN_SDIST = ("PKG-INFO", "pyproject.toml", ".gitignore")
# Never part of a release, wherever they appear: caches, environments, build output.
STRAY_NAMES = frozenset(
    {".hypothesis", ".cache", ".venv", "venv", "__pycache__", ".pytest_cache", ".ruff_cache",
     ".mypy_cache", ".tox", ".git", "node_modules", "dist", "build"}
)  # fmt: skip
STRAY_SUFFIXES = (".pyc", ".pyo")


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
    # Without --sdist/--wheel uv builds the sdist, then the wheel from the unpacked sdist.
    run([uv, "build", "--build-constraints", str(constraints), "--out-dir", str(out),
         str(ROOT)])  # fmt: skip
    wheels, sdists = sorted(out.glob("pwc_mcp-*.whl")), sorted(out.glob("pwc_mcp-*.tar.gz"))
    if len(wheels) != 1 or len(sdists) != 1:
        raise CheckFailed(f"expected one wheel and one sdist in {out}, found {wheels + sdists}")
    print(f"dist: built {sdists[0].name} and {wheels[0].name} from it", flush=True)
    check_contents(sdists[0], wheels[0])
    run([sys.executable, "-m", "twine", "check", "--strict", str(sdists[0]), str(wheels[0])])
    print("dist: twine check --strict passed", flush=True)
    return sdists[0], wheels[0]


def allowed_entries() -> tuple[set[str], set[str]]:
    """The top-level entries the sdist and the wheel may hold, from pyproject.toml."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    targets = project["tool"]["hatch"]["build"]["targets"]
    sdist = {*ALWAYS_IN_SDIST, project["project"]["readme"], *targets["sdist"]["only-include"]}
    return sdist, set(targets["wheel"]["packages"])


def strays(names: list[str], root: str, allowed: set[str]) -> dict[str, int]:
    """Members the package does not need, as {top-level entry or cache path: member count}.
    `root` is the one directory every member must be under ("" for none)."""
    found: dict[str, int] = {}
    for name in names:
        parts = [part for part in name.split("/") if part not in ("", ".")]
        if root:
            if parts[:1] != [root]:
                found[f"{name} (outside {root}/)"] = 1
                continue
            parts = parts[1:]
        if not parts:  # the root directory itself
            continue
        cut = next((i for i, part in enumerate(parts) if part in STRAY_NAMES), None)
        if parts[0] not in allowed:
            key = parts[0]
        elif cut is not None:
            key = "/".join(parts[: cut + 1])
        elif parts[-1].endswith(STRAY_SUFFIXES):
            key = "/".join(parts)
        else:
            continue
        found[key] = found.get(key, 0) + 1
    return found


def check_contents(sdist: Path, wheel: Path) -> None:
    """Refuse an archive that holds anything the package does not need (one line: what)."""
    sdist_allowed, packages = allowed_entries()
    with tarfile.open(sdist) as archive:
        names = archive.getnames()
    root = sdist.name.removesuffix(".tar.gz")
    with zipfile.ZipFile(wheel) as archive:
        wheel_names = archive.namelist()
    dist_info = "-".join(wheel.name.split("-")[:2]) + ".dist-info"
    for archive_name, found in (
        (sdist.name, strays(names, root, sdist_allowed)),
        (wheel.name, strays(wheel_names, "", {*packages, dist_info})),
    ):
        if found:
            listed = ", ".join(f"{key} ({_entries(n)})" for key, n in sorted(found.items()))
            raise CheckFailed(
                f"{archive_name} holds what the package does not need: {listed}"[:400]
            )
    print(f"dist: the sdist holds only {', '.join(sorted(sdist_allowed))} ({_entries(len(names))}"
          f"); the wheel only {', '.join(sorted(packages))} and {dist_info}", flush=True)  # fmt: skip


def _entries(count: int) -> str:
    return f"{count} {'entry' if count == 1 else 'entries'}"


def find_uvx(uv: str) -> list[str]:
    """uvx beside uv (the Makefile's pip-installed copy keeps it in lib/bin) or on PATH; else
    `uv tool run`, which uvx is an alias of."""
    for candidate in (Path(uv).resolve().parent / "uvx", ROOT / ".cache/uv-bin/lib/bin/uvx"):
        if os.access(candidate, os.X_OK):
            return [str(candidate)]
    found = shutil.which("uvx")
    return [found] if found else [uv, "tool", "run"]


def pip_route(wheel: str) -> list[str]:
    """The README's install-table command for the wheel (a test keeps the two equal)."""
    return ["pip", "install", wheel]


def uvx_route(wheel: str) -> list[str]:
    """The README's run-without-installing command for the wheel (a test keeps the two equal)."""
    return ["uvx", "--from", wheel, "pwc-mcp", "--version"]


def as_documented(wheel: Path) -> tuple[str, Path]:
    """The wheel as the README names it (`dist/<wheel>`) and the directory that name is from."""
    return str(wheel.relative_to(wheel.parent.parent)), wheel.parent.parent


def install(uv: str, wheel: Path, venv: Path) -> Path:
    """A fresh environment with exactly the locked runtime dependencies, then the wheel installed
    by the README's `pip install` (pip finds every dependency already there and fetches none)."""
    requirements = venv.parent / "requirements.txt"
    run([uv, "export", "--frozen", "--no-dev", "--no-emit-project", "--no-hashes",
         "--output-file", str(requirements)], cwd=ROOT)  # fmt: skip
    run([uv, "venv", "--quiet", "--seed", "--python", "3.11", str(venv)])  # --seed: pip
    python = venv / "bin" / "python"
    run([uv, "pip", "install", "--quiet", "--python", str(python), "-r", str(requirements)])
    name, cwd = as_documented(wheel)
    command = pip_route(name)
    env = os.environ | {
        "PATH": f"{venv / 'bin'}{os.pathsep}{os.environ.get('PATH', '')}",
        "PIP_DISABLE_PIP_VERSION_CHECK": "1",
    }
    run(command, cwd=cwd, env=env)
    print(f"dist: `{shlex.join(command)}` into a fresh virtual environment passed", flush=True)
    return venv / "bin"


def check_uvx(uv: str, wheel: Path, expected: str) -> None:
    """The README's `uvx --from dist/<wheel> pwc-mcp --version`: uv's own throwaway environment,
    resolved from the package index as a user's would be."""
    name, cwd = as_documented(wheel)
    command = uvx_route(name)
    out = run([*find_uvx(uv), *command[1:]], cwd=cwd).strip()
    if not out.startswith(f"pwc-mcp {expected}"):
        raise CheckFailed(f"`{shlex.join(command)}` printed {out!r}, expected 'pwc-mcp {expected}'")
    print(f"dist: `{shlex.join(command)}` -> {out.split(chr(9))[0]}", flush=True)


def check_versions(bin_dir: Path, expected: str, cwd: Path) -> None:
    for script, want in (("pwc", f"pwc {expected}"), ("pwc-mcp", f"pwc-mcp {expected}")):
        out = run([str(bin_dir / script), "--version"], cwd=cwd).strip()
        if not out.startswith(want):
            raise CheckFailed(f"`{script} --version` printed {out!r}, expected {want!r}...")
        print(f"dist: {script} --version -> {out.split(chr(9))[0]}", flush=True)


def call_tool(endpoint: str, name: str, arguments: dict[str, object]) -> dict[str, Any]:
    result = rpc(endpoint, "tools/call", {"name": name, "arguments": arguments})
    if result.get("isError") or result.get("structuredContent", {}).get("schema_version") != "v2":
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


# JSON-RPC results are untyped JSON: Any, so that reading them needs no casts.
def rpc(endpoint: str, method: str, params: dict[str, object]) -> dict[str, Any]:
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
        check_uvx(uv, wheel, version())
    except CheckFailed as failure:
        print(f"dist: FAILED: {failure}", file=sys.stderr)
        return 1
    print(f"dist: all checks passed; upload {args.out}/*", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
