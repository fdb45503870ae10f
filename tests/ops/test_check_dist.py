"""scripts/check_dist.py, the release's install check: its use-the-install steps run here against
this environment's console scripts (the build and fresh-venv install run in `make dist`)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from pwc_mcp import __version__
from tests.helpers.ops import load_script

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
