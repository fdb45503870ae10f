"""The shape of the two packages: small modules, imports at the top, no import cycles.

A cycle (or an import placed after the code it must follow) makes a module's import order matter:
it works from one entry point and fails from another. These tests read the source with `ast`
and import every module on its own, so a cycle fails here rather than for a user.
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from importlib.util import resolve_name
from pathlib import Path

import pytest

from tests.helpers import PACKAGES, ROOT

MAX_LINES = 400
DEFINITIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)


def _modules() -> dict[str, Path]:
    found = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


MODULES = _modules()


def imports_of(name: str, path: Path, *, typing: bool = False) -> set[str]:
    """Modules of the three packages that `name` imports anywhere (functions included: a lazy
    import is still a dependency), except under `if TYPE_CHECKING:` (never run) unless
    `typing` asks for those too."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    stack: list[ast.AST] = [ast.parse(path.read_text("utf-8"))]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            relative = "." * node.level + (node.module or "")
            base = resolve_name(relative, package) if node.level else node.module or ""
            for alias in node.names:  # `from package import module` imports the module
                full = f"{base}.{alias.name}"
                found.add(full if full in MODULES else base)
        if (
            not typing
            and isinstance(node, ast.If)
            and ast.unparse(node.test).endswith("TYPE_CHECKING")
        ):
            stack.extend(node.orelse)
            continue
        stack.extend(ast.iter_child_nodes(node))
    return {module for module in found if module in MODULES and module != name}


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import cycle as a path (first module repeated at the end), or None."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(module: str) -> list[str] | None:
        state[module] = 1
        path.append(module)
        for target in sorted(graph[module]):
            if state.get(target) == 1:
                return path[path.index(target) :] + [target]
            if target not in state and (cycle := visit(target)):
                return cycle
        state[module] = 2
        path.pop()
        return None

    for module in sorted(graph):
        if module not in state and (cycle := visit(module)):
            return cycle
    return None


def test_the_finder_sees_a_cycle() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert find_cycle(graph) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) is None


def test_lazy_and_relative_imports_count_but_type_checking_ones_do_not(tmp_path: Path) -> None:
    package = tmp_path / "pwc_mcp" / "sample"
    package.mkdir(parents=True)
    source = package / "app.py"
    source.write_text(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from pwc_mcp.config import Settings\n"
        "def f():\n    from . import store\n    import pwc_mcp.edge.rate_limits\n"
    )
    assert imports_of("pwc_mcp.sample.app", source) == {
        "pwc_mcp.sample.store",
        "pwc_mcp.edge.rate_limits",
    }


# What each package may import of the others: the core nothing, its two users only the core.
LAYERS = {"pwc_core": set(), "pwc_cli": {"pwc_core"}, "pwc_mcp": {"pwc_core"}}


HANDLERS = "pwc_core.commands"  # within the core, the handlers sit on the domain modules


def upward_imports(graph: dict[str, set[str]]) -> list[str]:
    """`importer -> imported` for each import that crosses the layers the wrong way: between
    packages, or from a core domain module up into the handlers."""
    found = []
    for name, imported in sorted(graph.items()):
        package = name.split(".")[0]
        for target in sorted(imported):
            other = target.split(".")[0]
            crossing = other != package and other not in LAYERS[package]
            into_handlers = (
                package == "pwc_core"
                and (target == HANDLERS or target.startswith(HANDLERS + "."))
                and not (name == HANDLERS or name.startswith(HANDLERS + "."))
            )
            if crossing or into_handlers:
                found.append(f"{name} -> {target}")
    return found


def test_the_layer_check_sees_a_crossing() -> None:
    graph = {
        "pwc_core.board": {"pwc_cli.render", "pwc_core.commands.common"},
        "pwc_core.commands.papers": {"pwc_core.board", "pwc_core.commands.common"},
        "pwc_mcp.app": {"pwc_cli.parser", "pwc_core.commands"},
    }
    assert upward_imports(graph) == [
        "pwc_core.board -> pwc_cli.render",
        "pwc_core.board -> pwc_core.commands.common",
        "pwc_mcp.app -> pwc_cli.parser",
    ]


def test_the_packages_are_layered() -> None:
    """pwc_cli and pwc_mcp both sit on pwc_core, neither imports the other, the core imports
    neither, and no core domain module imports the handlers above it (lazy imports included)."""
    assert set(LAYERS) == set(PACKAGES)
    graph = {name: imports_of(name, path) for name, path in MODULES.items()}
    assert upward_imports(graph) == []


def test_no_import_cycle_between_modules() -> None:
    graph = {name: imports_of(name, path) for name, path in MODULES.items()}
    cycle = find_cycle(graph)
    assert cycle is None, "import cycle: " + " -> ".join(cycle or [])


def test_no_circle_between_files_even_for_types() -> None:
    """Two files that name each other, even only for the type checker, are one concept split by
    size: the dependency must run one way."""
    graph = {name: imports_of(name, path, typing=True) for name, path in MODULES.items()}
    cycle = find_cycle(graph)
    assert cycle is None, "circle between files: " + " -> ".join(cycle or [])


# The rooms of pwc_mcp (its sub-packages) and what each may import of the others: a room named
# here imports only itself, the package root (its version) and what its row lists (rooms, or
# single modules); top-level modules not named are the wiring, free to import any room.
ROOM_RULES: dict[str, set[str]] = {
    "config": set(),  # settings and the grammars start-up validates: imports no room
    "storage": set(),
    "serving": set(),
    "ui": set(),
    "sample": {"serving"},  # the offline catalog never imports the server
    "answers": {"params", "failures"},  # pure functions of a payload: no cache, no request, no tool
    "edge": {"config", "storage", "cursors", "failures"},  # never caching, answers, site or tools
    "caching": {"config", "storage", "cursors", "failures"},  # never answers, site, tools, edge
    "site": {"config", "edge.jsonrpc"},  # the protocol versions it advertises
    # the labels it exports: the edge's, the declared routes, the tool and prompt names
    "observability": {"edge.telemetry", "caching.cache_routes", "caching.upstream", "params"}
    | {"tools.prompts"},
    "tools": {
        "answers",
        "caching",
        "catalog",
        "cursors",
        "failures",
        "params",
        "ui",
        "edge.jsonrpc",
    },
}


def room_of(module: str) -> str:
    """`pwc_mcp.edge.guards` -> `edge`; a top-level module is its own name; the root is ""."""
    parts = module.split(".")
    return parts[1] if parts[0] == "pwc_mcp" and len(parts) > 1 else ""


def room_crossings(graph: dict[str, set[str]]) -> list[str]:
    """`importer -> imported` for each import one of ROOM_RULES' rooms may not make."""
    found = []
    for name, imported in sorted(graph.items()):
        rules = ROOM_RULES.get(room_of(name)) if name.startswith("pwc_mcp.") else None
        if rules is None:
            continue
        for target in sorted(imported):
            if not target.startswith("pwc_mcp"):
                continue
            there = room_of(target)
            inner = target.split(".", 1)[1] if "." in target else ""
            allowed = there in ("", room_of(name)) or there in rules
            if not allowed and not any(inner == r or inner.startswith(r + ".") for r in rules):
                found.append(f"{name} -> {target}")
    return found


def test_the_room_check_sees_a_crossing() -> None:
    graph = {
        "pwc_mcp.edge.guards": {"pwc_mcp.caching.cache", "pwc_mcp.config", "pwc_mcp.edge.jsonrpc"},
        "pwc_mcp.site.landing": {"pwc_mcp.edge.jsonrpc", "pwc_mcp.edge.guards", "pwc_mcp"},
        "pwc_mcp.sample.store": {"pwc_mcp.cli", "pwc_mcp.serving.localserver"},
        "pwc_mcp.config": {"pwc_mcp.caching.shared_cache", "pwc_mcp.config.hosts"},
        "pwc_mcp.app": {"pwc_mcp.caching.cache", "pwc_mcp.tools.papers"},
    }
    assert room_crossings(graph) == [
        "pwc_mcp.config -> pwc_mcp.caching.shared_cache",
        "pwc_mcp.edge.guards -> pwc_mcp.caching.cache",
        "pwc_mcp.sample.store -> pwc_mcp.cli",
        "pwc_mcp.site.landing -> pwc_mcp.edge.guards",
    ]


def test_the_rooms_keep_their_rules() -> None:
    """Type-only imports count too: a room that names another's types depends on it."""
    graph = {name: imports_of(name, path, typing=True) for name, path in MODULES.items()}
    rooms = {room_of(name) for name in MODULES if name.startswith("pwc_mcp.")}
    assert set(ROOM_RULES) <= rooms, f"rules for rooms that do not exist: {set(ROOM_RULES) - rooms}"
    assert room_crossings(graph) == []


MAX_TOP_LEVEL = 12


def test_the_server_package_is_rooms_with_a_few_wiring_modules_on_top() -> None:
    top = sorted(path.name for path in (ROOT / "pwc_mcp").glob("*.py"))
    assert len(top) <= MAX_TOP_LEVEL, f"{len(top)} top-level modules in pwc_mcp: {top}"


@pytest.mark.parametrize("name", sorted(MODULES))
def test_imports_come_before_the_code(name: str) -> None:
    """No import after the first top-level def or class (a bottom-of-file import is how a cycle
    is held together: it must run after the names the other module needs exist)."""
    tree = ast.parse(MODULES[name].read_text("utf-8"))
    first = next((node.lineno for node in tree.body if isinstance(node, DEFINITIONS)), None)
    if first is None:
        return
    late = [
        node.lineno
        for node in tree.body
        if node.lineno > first
        and not isinstance(node, DEFINITIONS)
        and any(isinstance(inner, ast.Import | ast.ImportFrom) for inner in ast.walk(node))
    ]
    assert not late, f"{MODULES[name]}: import on line {late[0]} after line {first}"


@pytest.mark.parametrize("name", sorted(MODULES))
def test_module_size(name: str) -> None:
    lines = len(MODULES[name].read_text("utf-8").splitlines())
    assert lines <= MAX_LINES, f"{MODULES[name]} has {lines} lines (split it by concept)"


# Each module is imported with no other module of its package loaded (third-party libraries
# stay loaded: one interpreter for all, as a fresh one per module takes minutes).
_IMPORT_EACH = """
import importlib, json, sys, traceback
names, packages = json.loads(sys.argv[1]), tuple(json.loads(sys.argv[2]))
failures = {}
for name in names:
    for loaded in [m for m in sys.modules if m.split(".")[0] in packages]:
        del sys.modules[loaded]
    try:
        importlib.import_module(name)
    except BaseException:
        failures[name] = traceback.format_exc(limit=-3)
print(json.dumps(failures))
"""


def import_failures(names: list[str], packages: tuple[str, ...], cwd: Path) -> dict[str, str]:
    """Module name -> traceback, for each module that fails to import on its own."""
    done = subprocess.run(
        [sys.executable, "-c", _IMPORT_EACH, json.dumps(names), json.dumps(packages)],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=600,
        check=True,
    )
    failures: dict[str, str] = json.loads(done.stdout.strip().splitlines()[-1])
    return failures


def test_the_importer_sees_an_order_dependent_cycle(tmp_path: Path) -> None:
    package = tmp_path / "cyclic"
    package.mkdir()
    (package / "__init__.py").write_text("from cyclic.app import App\nclass Base: ...\n")
    (package / "app.py").write_text("from cyclic import Base\nclass App(Base): ...\n")
    failures = import_failures(["cyclic", "cyclic.app"], ("cyclic",), tmp_path)
    assert set(failures) == {"cyclic", "cyclic.app"}
    assert "partially initialized module" in failures["cyclic.app"]


def test_every_module_imports_on_its_own() -> None:
    failures = import_failures(sorted(MODULES), PACKAGES, ROOT)
    assert not failures, "\n".join(f"{name}:\n{trace}" for name, trace in failures.items())
