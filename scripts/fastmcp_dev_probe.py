"""Run the README's `fastmcp dev inspector ...` command headless and use it (for scripts/interop.sh).

    .venv/bin/python scripts/fastmcp_dev_probe.py LOG_DIR

Starts the sample catalog, then the README's command exactly as written, from the checkout, with
the venv first on PATH (as `. .venv/bin/activate` does) and the Inspector's own settings in the
environment only: its web port, a token, no browser. It then does what a person does in the
Inspector's page, through the same HTTP API the page calls: add PWC_API_URL to the server's
environment, connect (the Inspector starts `fastmcp run pwc_mcp/dev.py:mcp` over stdio),
initialize, list the tools, call get_benchmark, disconnect. Finally the whole process group is
stopped. Prints one verdict line, ``STATUS<TAB>check name<TAB>detail``, like interop_probe.py;
the Inspector's output goes to LOG_DIR/inspector.log.

npx must find the pinned Inspector without the network: interop.sh fills an npx cache first and
runs this with npm_config_cache pointing at it and npm_config_offline=true.
"""

from __future__ import annotations

import json
import os
import queue
import re
import secrets
import shlex
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # run as a script: the project's modules come from the checkout

from pwc_mcp.params import TOOLS  # noqa: E402
from pwc_mcp.sample import start_sample_catalog  # noqa: E402
from pwc_mcp.site.examples import TOOL_EXAMPLES  # noqa: E402

NAME = "fastmcp dev inspector (headless: connect, tools/list, tools/call, stop)"
COMMAND = re.compile(r"`(fastmcp dev inspector [^`]+)`")
START_TIMEOUT = 90.0  # npx, the Inspector and its web server; a warm start takes a few seconds
REPLY_TIMEOUT = 60.0  # one MCP round trip through the Inspector, the server's start included
STOP_TIMEOUT = 10.0  # per signal, for the whole process group
CALL = "get_benchmark"


class ProbeFailed(Exception):
    pass


def readme_command() -> list[str]:
    found = COMMAND.findall((ROOT / "README.md").read_text(encoding="utf-8"))
    if len(found) != 1:
        raise ProbeFailed(f"README.md should give one `fastmcp dev inspector` command: {found}")
    return shlex.split(found[0])


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def listening(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.2):
            return True
    except OSError:
        return False


class Inspector:
    """The Inspector web server's API (what its page calls), with the token it was given."""

    def __init__(self, port: int, token: str, server_log: Path) -> None:
        self.base = f"http://127.0.0.1:{port}"
        self.server_log = server_log  # the server's stderr, which the Inspector relays as events
        self.headers = {"x-mcp-remote-auth": f"Bearer {token}", "Content-Type": "application/json"}
        self.messages: queue.Queue[dict[str, Any]] = queue.Queue()
        self.session = ""

    def api(self, method: str, path: str, body: object = None) -> Any:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(
            self.base + path, data=data, headers=self.headers, method=method
        )
        with urllib.request.urlopen(request, timeout=REPLY_TIMEOUT) as response:
            return json.loads(response.read())

    def connect(self, env: dict[str, str]) -> None:
        """The server the command seeded, with ``env`` added, as the page's Connect sends it."""
        (config,) = self.api("GET", "/api/servers")["mcpServers"].values()
        defaults = self.api("GET", "/api/config")["defaultEnvironment"]
        answer = self.api("POST", "/api/mcp/connect", {"config": {**config, "env": defaults | env}})
        if "sessionId" not in answer:
            raise ProbeFailed(f"connect refused: {json.dumps(answer)[:200]}")
        self.session = answer["sessionId"]
        threading.Thread(target=self._events, daemon=True).start()

    def _events(self) -> None:
        """The session's server-sent events: MCP messages queued, the server's stderr logged."""
        request = urllib.request.Request(
            f"{self.base}/api/mcp/events?sessionId={self.session}", headers=self.headers
        )
        try:
            with (
                urllib.request.urlopen(request, timeout=REPLY_TIMEOUT) as stream,
                self.server_log.open("a", encoding="utf-8") as log,
            ):
                for raw in stream:
                    line = raw.decode("utf-8", "replace").rstrip("\r\n")
                    if not line.startswith("data:"):
                        continue
                    event = json.loads(line[5:])
                    if event.get("type") == "message":
                        self.messages.put(event["data"])
                    elif event.get("type") == "stdio_log":
                        log.write(f"{event['data'].get('message', '')}\n")
                        log.flush()
        except (OSError, ValueError):
            return  # the stream ends when the Inspector stops; a missing reply says the rest

    def request(self, rpc_id: int, method: str, params: dict[str, Any]) -> dict[str, Any]:
        message = {"jsonrpc": "2.0", "id": rpc_id, "method": method, "params": params}
        self.send(message)
        deadline = time.monotonic() + REPLY_TIMEOUT
        while (left := deadline - time.monotonic()) > 0:
            try:
                reply = self.messages.get(timeout=left)
            except queue.Empty:
                break
            if reply.get("id") == rpc_id:
                if "result" not in reply:
                    raise ProbeFailed(f"{method}: {json.dumps(reply)[:200]}")
                return dict(reply["result"])
        raise ProbeFailed(f"{method}: no reply within {REPLY_TIMEOUT:.0f} s")

    def send(self, message: dict[str, Any]) -> None:
        answer = self.api("POST", "/api/mcp/send", {"sessionId": self.session, "message": message})
        if not answer.get("ok"):
            raise ProbeFailed(f"{message['method']}: {json.dumps(answer)[:200]}")


def exercise(inspector: Inspector, catalog_url: str) -> str:
    inspector.connect({"PWC_API_URL": catalog_url})
    info = {"name": "fastmcp-dev-probe", "version": "1"}
    inspector.request(
        1, "initialize", {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": info}
    )
    inspector.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
    listed = {tool["name"] for tool in inspector.request(2, "tools/list", {})["tools"]}
    if listed != set(TOOLS):
        raise ProbeFailed(f"tools/list: {len(listed)} tools, differing in {listed ^ set(TOOLS)}")
    arguments = TOOL_EXAMPLES[CALL][0]
    result = inspector.request(3, "tools/call", {"name": CALL, "arguments": arguments})
    if result.get("isError") or result.get("structuredContent", {}).get("schema_version") != "v2":
        raise ProbeFailed(f"{CALL}: {json.dumps(result)[:200]}")
    inspector.api("POST", "/api/mcp/disconnect", {"sessionId": inspector.session})
    return f"{len(listed)} tools listed and {CALL} called through the Inspector's proxy"


def wait_for(port: int, process: subprocess.Popen[bytes], log: Path) -> None:
    pause = threading.Event()  # never set: an interruptible pause between polls
    deadline = time.monotonic() + START_TIMEOUT
    while not listening(port):
        if process.poll() is not None:
            tail = " ".join(log.read_text(errors="replace").split()[-30:])
            raise ProbeFailed(f"exited {process.returncode} before serving: {tail}")
        if time.monotonic() > deadline:
            raise ProbeFailed(f"the Inspector did not listen within {START_TIMEOUT:.0f} s")
        pause.wait(0.1)


def group_alive(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    return True


def stop(process: subprocess.Popen[bytes]) -> None:
    """The whole group, not only its leader: fastmcp, npx, the Inspector and the server it
    started (which may outlive the leader while it shuts down)."""
    pause = threading.Event()  # never set: an interruptible pause between polls
    for sig in (signal.SIGTERM, signal.SIGKILL):
        if not group_alive(process.pid):
            break
        os.killpg(process.pid, sig)
        deadline = time.monotonic() + STOP_TIMEOUT
        while time.monotonic() < deadline:
            process.poll()  # reap the leader, or the group never empties
            if not group_alive(process.pid):
                break
            pause.wait(0.1)
    process.wait(timeout=STOP_TIMEOUT)


def probe(log_dir: Path) -> str:
    command = readme_command()
    port, sandbox, token = free_port(), free_port(), secrets.token_hex(16)
    bin_dir = Path(sys.executable).parent
    env = {k: v for k, v in os.environ.items() if k != "PWC_API_URL"} | {
        "PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}",
        "CLIENT_PORT": str(port),
        "MCP_SANDBOX_PORT": str(sandbox),
        "MCP_INSPECTOR_API_TOKEN": token,
        "MCP_AUTO_OPEN_ENABLED": "false",
    }
    log_dir.mkdir(parents=True, exist_ok=True)
    log = log_dir / "inspector.log"
    with start_sample_catalog() as catalog, log.open("wb") as out:
        process = subprocess.Popen(
            command, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL, start_new_session=True,
        )  # fmt: skip
        try:
            wait_for(port, process, log)
            inspector = Inspector(port, token, log_dir / "server-stderr.log")
            detail = exercise(inspector, catalog.url)
        finally:
            stop(process)
    if listening(port):
        raise ProbeFailed(f"port {port} still answers after stopping the process group")
    return f"{detail}; stopped"


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print(__doc__, file=sys.stderr)
        return 2
    try:
        status, detail = "PASS", probe(Path(argv[0]))
    except (ProbeFailed, OSError, ValueError) as failure:
        status, detail = "FAIL", f"{type(failure).__name__}: {failure}"
    print(f"{status}\t{NAME}\t{' '.join(detail.split())[:200]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
