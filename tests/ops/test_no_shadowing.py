"""No project module hides a dependency when a package directory is first on ``sys.path``.

``fastmcp run|inspect|dev pwc_mcp/dev.py:mcp`` puts ``pwc_mcp/`` itself on ``sys.path``, so a
module there named like a dependency's top-level package (``pwc_mcp/limits.py`` once hid the
``limits`` distribution) breaks the documented route with a circular-import error.
"""

from __future__ import annotations

import functools
import importlib.metadata
import json
import re
import subprocess
import sys
import sysconfig
import tomllib
from pathlib import Path

import pytest
from packaging.requirements import Requirement

from tests.helpers import PACKAGES, ROOT

PACKAGE_DIRS = tuple(ROOT / package for package in PACKAGES)
# Run in a fresh interpreter: import each name with the package directory first on sys.path and
# report where it came from (every location of a namespace package).
PROBE = """
import importlib, json, sys
sys.path.insert(0, sys.argv[1])
found = {}
for name in json.loads(sys.argv[2]):
    try:
        module = importlib.import_module(name)
    except Exception as error:
        found[name] = {"error": f"{type(error).__name__}: {error}"}
        continue
    paths = [module.__file__] if getattr(module, "__file__", None) else []
    found[name] = {"paths": paths or list(getattr(module, "__path__", []))}
print(json.dumps(found))
"""


def canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _closure() -> dict[str, importlib.metadata.Distribution]:
    """Every installed distribution the project's runtime dependencies (extras too) pull in."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    pending = [Requirement(text) for text in project["dependencies"]]
    for extra in project.get("optional-dependencies", {}).values():
        pending += [Requirement(text) for text in extra]
    found: dict[str, importlib.metadata.Distribution] = {}
    wanted_extras: dict[str, set[str]] = {}
    while pending:
        requirement = pending.pop()
        name = canonical(requirement.name)
        extras = wanted_extras.setdefault(name, set())
        if name in found and requirement.extras <= extras:
            continue
        extras |= requirement.extras
        try:
            found[name] = importlib.metadata.distribution(requirement.name)
        except importlib.metadata.PackageNotFoundError:
            continue  # a marker-excluded or optional requirement that is not installed
        for text in found[name].requires or []:
            child = Requirement(text)
            environments = [{"extra": extra} for extra in extras] or [{"extra": ""}]
            if child.marker is None or any(child.marker.evaluate(e) for e in environments):
                pending.append(child)
    return found


@functools.cache
def dependency_modules() -> frozenset[str]:
    """Top-level import names of every distribution in the closure."""
    names = {canonical(name) for name in _closure()}
    owners = importlib.metadata.packages_distributions()
    return frozenset(
        module
        for module, distributions in owners.items()
        if module.isidentifier() and names & {canonical(d) for d in distributions}
    )


def project_modules(directory: Path) -> set[str]:
    """What `import NAME` finds in ``directory``: its modules and subpackages."""
    return {path.stem for path in directory.glob("*.py")} | {
        path.name for path in directory.iterdir() if (path / "__init__.py").is_file()
    }


def test_the_dependency_closure_is_read() -> None:
    # A closure that lost its transitive step would make the checks below vacuous.
    assert {"limits", "fastmcp", "mcp", "starlette", "h11", "pydantic_core"} <= dependency_modules()


@pytest.mark.parametrize("directory", PACKAGE_DIRS, ids=lambda p: f"{p.name}/")
def test_no_project_module_is_named_like_a_dependency(directory: Path) -> None:
    clashes = project_modules(directory) & dependency_modules()
    assert not clashes, f"{directory.name}/ shadows dependencies: {sorted(clashes)}"


@pytest.mark.parametrize("directory", PACKAGE_DIRS, ids=lambda p: f"{p.name}/")
def test_every_dependency_imports_the_installed_distribution(
    directory: Path, tmp_path: Path
) -> None:
    names = sorted(dependency_modules())
    probe = subprocess.run(  # -I: only the directory under test is added to sys.path
        [sys.executable, "-I", "-c", PROBE, str(directory), json.dumps(names)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        cwd=tmp_path,
    )
    assert probe.returncode == 0, probe.stderr
    found = json.loads(probe.stdout)
    sites = {Path(sysconfig.get_paths()[key]).resolve() for key in ("purelib", "platlib")}
    wrong = {}
    for name in names:
        result = found[name]
        paths = [Path(p).resolve() for p in result.get("paths", [])]
        if "error" in result or not paths:
            wrong[name] = result.get("error", "no location")
        elif not all(any(p.is_relative_to(site) for site in sites) for p in paths):
            wrong[name] = ", ".join(map(str, paths))
    assert not wrong, f"with {directory.name}/ first on sys.path: {wrong}"
