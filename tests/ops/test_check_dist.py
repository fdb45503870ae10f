"""scripts/check_dist.py, the release's install check: its use-the-install steps run here against
this environment's console scripts, its content check against archives made here (the build and
fresh-venv install run in `make dist`)."""

from __future__ import annotations

import io
import shlex
import subprocess
import sys
import tarfile
import tomllib
import zipfile
from pathlib import Path

import pytest

from pwc_mcp import __version__
from tests.helpers.ops import ROOT, load_script, uv_binary

dist = load_script("check_dist")
BIN = Path(sys.executable).parent


def test_the_version_checked_is_the_package_version() -> None:
    assert dist.version() == __version__


def test_versions_and_the_demo_work_from_the_console_scripts(tmp_path: Path) -> None:
    dist.check_versions(BIN, __version__, tmp_path)
    dist.smoke(BIN, tmp_path)  # outside the checkout: the printed hint must still run


def test_a_wrong_version_fails_the_check(tmp_path: Path) -> None:
    with pytest.raises(dist.CheckFailed, match="expected 'pwc 9.9.9'"):
        dist.check_versions(BIN, "9.9.9", tmp_path)


def test_the_app_checked_is_the_one_the_server_binds() -> None:
    from pwc_mcp.ui import LEADERBOARD_URI

    assert dist.APP_URI == LEADERBOARD_URI


def test_a_mistyped_out_directory_is_never_deleted(tmp_path: Path) -> None:
    keep = tmp_path / "notes.txt"
    keep.write_text("someone's work")
    with pytest.raises(dist.CheckFailed, match="not deleting it"):
        dist.clear_out(tmp_path)
    assert keep.read_text() == "someone's work"
    builds = tmp_path / "dist"
    builds.mkdir()
    (builds / "pwc_mcp-0.3.0-py3-none-any.whl").write_bytes(b"old")
    dist.clear_out(builds)
    assert not builds.exists()


def sdist(path: Path, names: list[str]) -> Path:
    """A .tar.gz like uv build's: every member under pwc_mcp-0.3.0/."""
    with tarfile.open(path, "w:gz") as archive:
        for name in names:
            data = b"x"
            info = tarfile.TarInfo(f"pwc_mcp-0.3.0/{name}")
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))
    return path


def wheel(path: Path, names: list[str]) -> Path:
    with zipfile.ZipFile(path, "w") as archive:
        for name in names:
            archive.writestr(name, "x")
    return path


NEEDED = ["PKG-INFO", "pyproject.toml", "README.md", ".gitignore", "pwc_cli/__init__.py",
          "pwc_mcp/__init__.py", "pwc_mcp/ui/leaderboard.html"]  # fmt: skip
WHEEL = ["pwc_cli/__init__.py", "pwc_mcp/__init__.py", "pwc_mcp-0.3.0.dist-info/METADATA"]


def test_an_sdist_with_only_what_the_package_needs_passes(tmp_path: Path) -> None:
    dist.check_contents(
        sdist(tmp_path / "pwc_mcp-0.3.0.tar.gz", NEEDED),
        wheel(tmp_path / "pwc_mcp-0.3.0-py3-none-any.whl", WHEEL),
    )


def test_an_sdist_with_a_stray_hypothesis_directory_is_refused(tmp_path: Path) -> None:
    stray = [".hypothesis/examples/0a1b/2c3d", ".hypothesis/unicode_data/15.0.0/charmap.json.gz"]
    with pytest.raises(dist.CheckFailed) as info:
        dist.check_contents(
            sdist(tmp_path / "pwc_mcp-0.3.0.tar.gz", NEEDED + stray),
            wheel(tmp_path / "pwc_mcp-0.3.0-py3-none-any.whl", WHEEL),
        )
    message = str(info.value)
    assert message.startswith("pwc_mcp-0.3.0.tar.gz holds what the package does not need: ")
    assert ".hypothesis (2 entries)" in message and "\n" not in message


@pytest.mark.parametrize(
    "stray",
    [
        "pwc_mcp/__pycache__/cli.cpython-311.pyc",  # inside an allowed package
        "pwc_cli/views/tables.pyc",
        "pwc_mcp/.pytest_cache/v/cache/nodeids",
        "tests/test_readme.py",  # not something the package needs
        ".venv/bin/python",
        "dist/pwc_mcp-0.2.0.tar.gz",
    ],
)
def test_caches_and_unneeded_entries_are_refused_anywhere(tmp_path: Path, stray: str) -> None:
    with pytest.raises(dist.CheckFailed, match="does not need"):
        dist.check_contents(
            sdist(tmp_path / "pwc_mcp-0.3.0.tar.gz", [*NEEDED, stray]),
            wheel(tmp_path / "pwc_mcp-0.3.0-py3-none-any.whl", WHEEL),
        )


def test_the_wheel_is_held_to_its_packages_too(tmp_path: Path) -> None:
    with pytest.raises(dist.CheckFailed, match=r"\.whl holds .*pwc_mcp/__pycache__ \(1 entry\)"):
        dist.check_contents(
            sdist(tmp_path / "pwc_mcp-0.3.0.tar.gz", NEEDED),
            wheel(
                tmp_path / "pwc_mcp-0.3.0-py3-none-any.whl", [*WHEEL, "pwc_mcp/__pycache__/a.pyc"]
            ),
        )


def test_a_member_outside_the_sdist_root_is_refused() -> None:
    assert dist.strays(["other-1.0/setup.py"], "pwc_mcp-0.3.0", {"pwc_mcp"}) == {
        "other-1.0/setup.py (outside pwc_mcp-0.3.0/)": 1
    }


def test_the_sdist_selects_exactly_the_packages_the_wheel_ships() -> None:
    """pyproject.toml is the one place that says what the sdist holds; check_dist reads it."""
    targets = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["hatch"]["build"]
    selected = targets["targets"]["sdist"]["only-include"]
    assert sorted(selected) == sorted(targets["targets"]["wheel"]["packages"])
    allowed, packages = dist.allowed_entries()
    assert allowed == {"PKG-INFO", "pyproject.toml", "README.md", ".gitignore", *packages}


def test_the_readme_gives_the_wheel_commands_make_dist_runs() -> None:
    """`make dist` runs the install table's `pip install` and `uvx --from` lines on the wheel."""
    wheel = ROOT / "dist" / f"pwc_mcp-{__version__}-py3-none-any.whl"
    name, cwd = dist.as_documented(wheel)
    assert (name, cwd) == (f"dist/{wheel.name}", ROOT)
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for command in (dist.pip_route(name), dist.uvx_route(name)):
        assert f"`{shlex.join(command)}`" in readme


def test_uvx_is_found_or_stands_in_as_uv_tool_run() -> None:
    uv = uv_binary()
    uvx = dist.find_uvx(uv)
    assert uvx == [uv, "tool", "run"] or Path(uvx[0]).name == "uvx"
    assert subprocess.run([*uvx, "--version"], capture_output=True, timeout=60).returncode == 0
