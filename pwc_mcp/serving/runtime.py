"""Which event loop and HTTP parser uvicorn runs, chosen here rather than by uvicorn's "auto".

uvloop and httptools (`uvicorn[standard]`) when both import, else asyncio and h11: the choice is
made once per process, every server of the project uses it (`pwc-mcp`, the tests' and the
benchmark's servers, through `pwc_mcp.serving.localserver.config`), and `pwc-mcp --version` prints it.
Each falls back on its own (a platform without uvloop still gets httptools). The socket
deadlines and connection cap (`pwc_mcp.serving.connections`) guard either parser.

`settle_heap` and `cap_arenas` are the other process-wide choices: what start-up built is kept
out of the garbage collector's full passes, and threads share one malloc arena.

Kept light: deciding imports only the two accelerators, never uvicorn or the server stack.
"""

from __future__ import annotations

import ctypes
import functools
import gc
import importlib
import importlib.metadata
import os
import platform
from collections.abc import Callable
from dataclasses import dataclass
from types import ModuleType

Importer = Callable[[str], ModuleType]


@dataclass(frozen=True)
class Runtime:
    loop: str  # uvicorn's `loop` setting: "uvloop" or "asyncio"
    http: str  # uvicorn's `http` setting: "httptools" or "h11"

    def describe(self) -> str:
        """One line for `--version`: uvicorn and what it runs on, with versions."""
        uvicorn = _distribution("uvicorn")
        line = f"uvicorn {uvicorn} with {_version(self.loop)} and {_version(self.http)}"
        wanted = (("uvloop", self.loop), ("httptools", self.http))
        missing = [name for name, chosen in wanted if chosen != name]
        if missing:
            line += f" ({' and '.join(missing)} not importable: install 'uvicorn[standard]')"
        return line


def choose(importer: Importer = importlib.import_module) -> Runtime:
    """The fastest implementations that import here (an import that fails in any way counts
    as absent: a broken wheel must not stop the server)."""
    return Runtime(
        loop="uvloop" if _imports("uvloop", importer) else "asyncio",
        http="httptools" if _imports("httptools", importer) else "h11",
    )


@functools.cache
def current() -> Runtime:
    """This process's choice (made on first use)."""
    return choose()


def settle_heap() -> None:
    """Once, when the server starts serving: collect, then freeze what start-up built (modules,
    tool schemas, the app: about 130,000 objects that live as long as the process). A full
    collection otherwise walks them all, about 90 ms here, every few thousand cached calls (as
    what the caches and rate windows keep ages into the oldest generation); frozen, it walks only
    what came later."""
    gc.collect()
    gc.freeze()


M_ARENA_MAX = -8  # glibc's mallopt parameter behind MALLOC_ARENA_MAX
ARENAS = 1


def cap_arenas(arenas: int = ARENAS) -> bool:
    """Before any thread starts: at most `arenas` malloc arenas, as MALLOC_ARENA_MAX would.
    glibc gives each thread that allocates its own arena (up to eight per core) and each keeps
    what it once held, so the worker threads that parse catalog answers and paper records
    (pwc_mcp.tools.abstracts) held about 5 MiB more at start-up than one shared arena, and raised the
    peak above the run before them. Python allocates under the GIL, so sharing one costs no
    measurable time (bench: same CPU per call). An operator's MALLOC_ARENA_MAX wins. True when
    the cap is set; False elsewhere (another C library)."""
    if os.environ.get("MALLOC_ARENA_MAX"):
        return False
    try:
        libc = ctypes.CDLL(None)
        glibc = hasattr(libc, "gnu_get_libc_version")  # musl and others: leave them alone
        return bool(glibc and libc.mallopt(M_ARENA_MAX, arenas) == 1)
    except (OSError, AttributeError):
        return False


def _imports(name: str, importer: Importer) -> bool:
    try:
        importer(name)
    except Exception:  # ImportError, or a native extension that fails to load
        return False
    return True


def _version(name: str) -> str:
    if name == "asyncio":
        return f"asyncio (Python {platform.python_version()})"
    return f"{name} {_distribution(name)}"


def _distribution(name: str) -> str:
    try:
        return importlib.metadata.version(name)
    except importlib.metadata.PackageNotFoundError:
        return "(version unknown)"
