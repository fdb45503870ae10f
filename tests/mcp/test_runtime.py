"""uvicorn's event loop and HTTP parser (pwc_mcp.serving.runtime): uvloop and httptools where they
import, asyncio and h11 where they do not, chosen explicitly, reported by `pwc-mcp --version`,
and both choices serve the real app (each with the connection guard)."""

from __future__ import annotations

import asyncio
import gc
import importlib
import json
import platform
import socket
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import httpx
import pytest
import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from pwc_mcp import __version__
from pwc_mcp.app import create_app
from pwc_mcp.sample import RunningCatalog
from pwc_mcp.serving import runtime
from pwc_mcp.serving.connections import ConnectionGuard
from pwc_mcp.serving.localserver import config, serve_in_thread
from tests.helpers.e2e import modern, settings_for, tool_call

FAST = runtime.Runtime(loop="uvloop", http="httptools")
FALLBACK = runtime.Runtime(loop="asyncio", http="h11")
PWC_MCP = Path(sys.executable).with_name("pwc-mcp")


def without(*missing: str, error: type[Exception] = ImportError) -> Callable[[str], ModuleType]:
    def importer(name: str) -> ModuleType:
        if name in missing:
            raise error(f"simulated: {name} does not load")
        return importlib.import_module(name)

    return importer


def test_the_accelerators_are_chosen_when_they_import() -> None:
    assert runtime.choose() == FAST == runtime.current()


@pytest.mark.parametrize("error", [ImportError, OSError])  # a wheel whose .so fails to load
def test_each_falls_back_on_its_own(error: type[Exception]) -> None:
    assert runtime.choose(without("uvloop", error=error)) == runtime.Runtime("asyncio", "httptools")
    assert runtime.choose(without("httptools", error=error)) == runtime.Runtime("uvloop", "h11")
    assert runtime.choose(without("uvloop", "httptools", error=error)) == FALLBACK


def test_the_description_names_versions_and_what_is_missing() -> None:
    fast = FAST.describe()
    assert (
        fast.startswith(f"uvicorn {uvicorn.__version__} with uvloop ") and " and httptools " in fast
    )
    assert "not importable" not in fast
    slow = FALLBACK.describe()
    assert "with asyncio (Python " in slow and " and h11 " in slow
    assert slow.endswith("(uvloop and httptools not importable: install 'uvicorn[standard]')")
    half = runtime.Runtime("uvloop", "h11").describe()
    assert half.endswith("(httptools not importable: install 'uvicorn[standard]')")


@pytest.mark.parametrize(("choice", "parser"), [(FAST, HttpToolsProtocol), (FALLBACK, H11Protocol)])
def test_uvicorn_is_configured_with_the_choice_and_the_guard(choice, parser) -> None:
    settings = config(object(), choice=choice)
    assert settings.loop == choice.loop
    assert issubclass(settings.http, parser) and issubclass(settings.http, ConnectionGuard)  # type: ignore[arg-type]


def test_version_reports_the_runtime() -> None:
    out = subprocess.run([str(PWC_MCP), "--version"], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines() == [f"pwc-mcp {__version__}", FAST.describe()]


def test_version_reports_the_fallback_when_neither_imports() -> None:
    probe = (
        "import sys\n"
        "sys.modules['uvloop'] = sys.modules['httptools'] = None  # import fails: ImportError\n"
        "from pwc_mcp.cli import main\n"
        "main(['--version'])\n"
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines() == [f"pwc-mcp {__version__}", FALLBACK.describe()]


@pytest.mark.parametrize(
    ("choice", "loop", "parser"),
    [(FAST, "uvloop", HttpToolsProtocol), (FALLBACK, "asyncio", H11Protocol)],
    ids=["uvloop-httptools", "asyncio-h11"],
)
def test_the_real_app_serves_on_either(sample: RunningCatalog, choice, loop, parser) -> None:
    app = create_app(settings_for(sample))
    seen: dict[str, object] = {}

    async def recording(scope, receive, send) -> None:  # type: ignore[no-untyped-def]
        if scope["type"] == "http":
            seen["loop"] = type(asyncio.get_running_loop()).__module__
        await app(scope, receive, send)

    with (
        serve_in_thread(recording, name="pwc-mcp", choice=choice) as running,
        httpx.Client(base_url=running.origin, timeout=30) as http,
    ):
        for _ in range(3):  # computed, remembered, answered by the fast path
            assert tool_call(http, "search_papers", {"query": "transformer"})
        (connection,) = running.server.server_state.connections
        assert isinstance(connection, parser) and isinstance(connection, ConnectionGuard)
    assert str(seen["loop"]).split(".")[0] == loop


@pytest.mark.parametrize("choice", [FAST, FALLBACK], ids=["uvloop-httptools", "asyncio-h11"])
def test_both_parsers_drop_the_whitespace_around_header_values(
    sample: RunningCatalog, choice: runtime.Runtime
) -> None:
    """RFC 9110 section 5.5 (and the 2026-07-28 conformance suite): `Mcp-Name:  x  ` is `x`.
    h11 drops it itself; llhttp keeps it, and the SDK then refused the call (HTTP 400)."""
    body, headers = modern("tools/call", {"name": "search_papers", "arguments": {}}, "x")
    payload = json.dumps(body).encode()
    with serve_in_thread(create_app(settings_for(sample)), choice=choice) as running:
        head = "".join(
            f"{name}: \t {value}  \r\n"
            for name, value in {**headers, "Mcp-Name": "search_papers"}.items()
        )
        request = (
            f"POST /mcp HTTP/1.1\r\nHost:  127.0.0.1:{running.port} \r\n{head}"
            f"Content-Length: {len(payload)}\r\nConnection: close\r\n\r\n"
        ).encode() + payload
        with socket.create_connection(("127.0.0.1", running.port), timeout=30) as sock:
            sock.sendall(request)
            answer = b""
            while chunk := sock.recv(65536):
                answer += chunk
    status = int(answer.split(b" ", 2)[1])
    assert status == 200, answer[:300]
    assert b'"isError":true' in answer  # the call ran: `query` is required


def test_settling_the_heap_freezes_what_start_up_built() -> None:
    """A full collection walks only what came after start-up (issue #28's hot path)."""
    kept = [{"start-up": n} for n in range(10_000)]  # stands in for what start-up built
    try:
        runtime.settle_heap()
        assert gc.get_freeze_count() >= len(kept)
        oldest = gc.get_objects(generation=2)  # what a full collection walks
        assert not any(o is kept[0] for o in oldest) and len(oldest) < gc.get_freeze_count()
    finally:
        gc.unfreeze()


# A child that lets eight threads allocate and free large blocks, then counts glibc's heaps
# (malloc_info's <heap> elements: one per arena in use).
ARENA_PROBE = """
import ctypes, sys, threading
from pwc_mcp.serving import runtime
capped = runtime.cap_arenas() if sys.argv[1] == "cap" else None
def work():
    for _ in range(200):
        blocks = [bytearray(4096) for _ in range(64)]
        del blocks
threads = [threading.Thread(target=work) for _ in range(8)]
for t in threads: t.start()
for t in threads: t.join()
libc = ctypes.CDLL(None)
libc.open_memstream.restype = ctypes.c_void_p
buf, size = ctypes.c_char_p(), ctypes.c_size_t()
stream = libc.open_memstream(ctypes.byref(buf), ctypes.byref(size))
libc.malloc_info(0, ctypes.c_void_p(stream))
libc.fclose(ctypes.c_void_p(stream))
print(capped, buf.value.decode().count("<heap nr="))
"""


def _heaps(mode: str, **env: str) -> tuple[str, int]:
    import os

    environment = {k: v for k, v in os.environ.items() if k != "MALLOC_ARENA_MAX"} | env
    done = subprocess.run(
        [sys.executable, "-c", ARENA_PROBE, mode],
        capture_output=True,
        text=True,
        check=True,
        env=environment,
        timeout=60,
    )
    capped, heaps = done.stdout.split()
    return capped, int(heaps)


@pytest.mark.skipif(
    not sys.platform.startswith("linux") or platform.libc_ver()[0] != "glibc",
    reason="malloc arenas are glibc's",
)
def test_threads_share_one_malloc_arena_unless_the_operator_says_otherwise() -> None:
    assert _heaps("cap") == ("True", 1)
    _, uncapped = _heaps("none")
    assert uncapped > 1  # the attack: each allocating thread keeps an arena of its own
    assert _heaps("cap", MALLOC_ARENA_MAX="4")[0] == "False"  # the operator's setting wins


def test_the_server_settles_its_heap_once_it_serves(
    sample: RunningCatalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    import pwc_mcp.cli as cli
    import pwc_mcp.serving.localserver as localserver

    order: list[str] = []
    monkeypatch.setattr(runtime, "settle_heap", lambda: order.append("settled"))

    def capped() -> bool:
        order.append("capped")
        return True

    monkeypatch.setattr(runtime, "cap_arenas", capped)

    class Server:  # runs the server's start-up hook, as uvicorn does once it serves
        started = True

        def __init__(
            self, _config: object, on_serving: Callable[[], None], on_stop: object = None
        ) -> None:
            self.on_serving = on_serving

        def run(self, sockets: object) -> None:
            order.append("serving")
            self.on_serving()

    monkeypatch.setattr(localserver, "AnnouncingServer", Server)
    settings = settings_for(sample)
    with socket.socket() as sock:
        assert cli._serve(settings, sock, sample_url=None) == 0  # noqa: SLF001
    assert order == ["capped", "serving", "settled"]
