"""Every dependency pyproject.toml declares is imported by the packages, and no other is."""

from __future__ import annotations

import ast
import importlib.metadata
import re
import sys
import tomllib
from collections.abc import Mapping

from tests.helpers import PACKAGES, ROOT

# Declared and used, never imported by name: the reason is the documentation.
USED_WITHOUT_IMPORT = {"redis": "limits loads it for a redis:// PWC_MCP_RATE_LIMIT_STORAGE"}
# Imported distribution -> the declared one that pins it exactly and is used through it
# (fastmcp is a meta-distribution: its code ships in fastmcp-slim).
PINNED_BY = {"fastmcp-slim": "fastmcp", "mcp-types": "mcp", "pydantic-core": "pydantic"}
_NAME = re.compile(r"\s*([A-Za-z0-9._-]+)\s*(\[[^\]]*\])?\s*(==)?")


def canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def requirement(text: str) -> tuple[str, bool]:
    """(canonical distribution name, pinned exactly) of a requirement string."""
    match = _NAME.match(text)
    assert match, text
    return canonical(match[1]), match[3] is not None


def declared() -> set[str]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    requirements = list(project["dependencies"])
    for extra in project.get("optional-dependencies", {}).values():
        requirements += extra
    return {requirement(text)[0] for text in requirements}


class _RuntimeImports(ast.NodeVisitor):
    """Modules imported at run time (`if TYPE_CHECKING:` bodies do not count), dotted as
    written (`from a import b` counts `a.b`: b may be a module)."""

    def __init__(self) -> None:
        self.modules: set[str] = set()

    def visit_If(self, node: ast.If) -> None:
        if getattr(node.test, "id", None) != "TYPE_CHECKING":
            self.generic_visit(node)
            return
        for statement in node.orelse:
            self.visit(statement)

    def visit_Import(self, node: ast.Import) -> None:
        self.modules |= {alias.name for alias in node.names}

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        if node.level == 0 and node.module:
            self.modules |= {f"{node.module}.{alias.name}" for alias in node.names}


def owners_of(module: str, owners: Mapping[str, list[str]]) -> set[str]:
    """The distributions `module` comes from. A top-level name several distributions share (a
    namespace package: opentelemetry) is the one whose files hold the deepest part of it."""
    candidates = owners.get(module.split(".")[0], [module.split(".")[0]])
    if len(candidates) == 1:
        return {candidates[0]}
    parts = module.split(".")
    for depth in range(len(parts), 1, -1):
        stem = "/".join(parts[:depth])
        found = {
            dist
            for dist in candidates
            if any(
                str(f) in (f"{stem}.py", f"{stem}/__init__.py")
                for f in importlib.metadata.files(dist) or ()
            )
        }
        if found:
            return found
    return set(candidates)


def imported() -> set[str]:
    """Distributions whose modules the packages import."""
    visitor = _RuntimeImports()
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            visitor.visit(ast.parse(path.read_text(encoding="utf-8")))
    owners = importlib.metadata.packages_distributions()
    local = set(sys.stdlib_module_names) | set(PACKAGES)
    third_party = {m for m in visitor.modules if m.split(".")[0] not in local}
    return {canonical(dist) for module in third_party for dist in owners_of(module, owners)}


def test_every_declared_dependency_is_imported() -> None:
    used = imported() | {PINNED_BY[dist] for dist in imported() & set(PINNED_BY)}
    unused = declared() - used - set(USED_WITHOUT_IMPORT)
    assert not unused, f"declared but never imported by {PACKAGES}: {sorted(unused)}"


def test_every_imported_distribution_is_declared() -> None:
    undeclared = imported() - declared() - set(PINNED_BY)
    assert not undeclared, f"imported by {PACKAGES} but not declared: {sorted(undeclared)}"
    for dist, owner in PINNED_BY.items():
        pins = [requirement(text) for text in importlib.metadata.requires(owner) or []]
        assert owner in declared() and (dist, True) in pins, f"{owner} no longer pins {dist}"
