"""One version source: pyproject.toml; both packages and both console scripts report it."""

from __future__ import annotations

import ast
import importlib.metadata
import tomllib
from pathlib import Path

import pwc_cli
import pwc_mcp
from pwc_core import package_version
from tests.helpers import PACKAGES, ROOT


def states_a_version(path: Path) -> bool:
    """Whether the module assigns a text to `__version__` (read as syntax)."""
    return any(
        isinstance(node, ast.Assign | ast.AnnAssign)
        and isinstance(node.value, ast.Constant)
        and isinstance(node.value.value, str)
        and any(
            isinstance(target, ast.Name) and target.id == "__version__"
            for target in (node.targets if isinstance(node, ast.Assign) else [node.target])
        )
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
    )


def test_the_packages_report_pyprojects_version_and_state_none() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert pwc_cli.__version__ == pwc_mcp.__version__ == project["version"]
    stated = [
        path.relative_to(ROOT)
        for package in PACKAGES
        for path in (ROOT / package).rglob("*.py")
        if states_a_version(path)
    ]
    assert not stated, f"a second version source: {stated}"


def test_a_checkout_reads_its_pyproject_so_a_bump_needs_no_reinstall(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "pwc-mcp"\nversion = "9.9.9"\n')
    assert package_version(tmp_path) == "9.9.9"


def test_an_installed_package_reads_its_metadata(tmp_path: Path) -> None:
    installed = importlib.metadata.version("pwc-mcp")
    assert package_version(tmp_path) == installed  # site-packages holds no pyproject.toml
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "other"\nversion = "9.9.9"\n')
    assert package_version(tmp_path) == installed  # nor would another project's count
    (tmp_path / "pyproject.toml").write_text("not toml [")
    assert package_version(tmp_path) == installed
