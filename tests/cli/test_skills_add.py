"""`pwc skills add` in a temporary project (HOME a temporary directory for `--global`): where the
skill lands, what it refuses and how (one `pwc:` line, exit 2), and that the file it writes is
the generated skill (pwc_core.skill)."""

from __future__ import annotations

import io
import os
from pathlib import Path

import pytest

from pwc_cli.main import main
from pwc_core import skill

SKILL = Path(".agents", "skills", "pwc", "SKILL.md")


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The current directory, a fresh HOME beside it, and a catalog address that would be
    refused if anything asked the catalog (`skills add` never does)."""
    (tmp_path / "project").mkdir()
    (tmp_path / "home").mkdir()
    monkeypatch.chdir(tmp_path / "project")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("PWC_API_URL", "ftp://refused.invalid")
    return tmp_path / "project"


def pwc(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(["skills", "add", *argv], stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def test_installs_the_generated_skill_under_the_project(project: Path) -> None:
    code, out, err = pwc()
    assert (code, err) == (0, "")
    assert out == f"Installed 'pwc' to {project / SKILL}\n"
    assert (project / SKILL).read_text(encoding="utf-8") == skill.markdown()
    assert not (project / ".claude").exists()


def test_an_installed_skill_is_kept_unless_forced(project: Path) -> None:
    (project / SKILL).parent.mkdir(parents=True)
    (project / SKILL).write_text("mine\n")
    code, out, err = pwc()
    assert code == 2 and out == ""
    assert err == (
        f"pwc: skill already exists at {project / SKILL}; rerun with --force to overwrite\n"
    )
    assert (project / SKILL).read_text() == "mine\n"
    assert pwc("--force")[0] == 0
    assert (project / SKILL).read_text(encoding="utf-8") == skill.markdown()


@pytest.mark.parametrize("flag", ["--global", "-g"])
def test_global_installs_under_home(project: Path, flag: str) -> None:
    home = Path(os.environ["HOME"])
    code, out, _ = pwc(flag)
    assert code == 0 and out == f"Installed 'pwc' to {home / SKILL}\n"
    assert (home / SKILL).read_text(encoding="utf-8") == skill.markdown()
    assert not (project / ".agents").exists()


def test_claude_links_the_skill_where_claude_code_looks(project: Path) -> None:
    code, out, _ = pwc("--claude")
    link = project / ".claude" / "skills" / "pwc"
    assert code == 0
    assert out.splitlines() == [
        f"Installed 'pwc' to {project / SKILL}",
        f"Linked 'pwc' for Claude at {link}",
    ]
    assert link.is_symlink() and not os.path.isabs(os.readlink(link))  # the project can move
    assert (link / "SKILL.md").read_text(encoding="utf-8") == skill.markdown()
    assert pwc("--claude")[0] == 2  # the link is part of the install: kept unless forced
    assert pwc("--claude", "--force")[0] == 0 and link.is_symlink()


def test_claude_refuses_to_replace_a_directory(project: Path) -> None:
    (project / ".claude" / "skills" / "pwc").mkdir(parents=True)
    code, _, err = pwc("--claude", "--force")
    assert code == 2 and err.startswith("pwc: ") and err.count("\n") == 1
    assert "is a directory" in err
    assert not (project / SKILL).exists()  # refused before writing anything


def test_dest_writes_into_the_named_directory(project: Path) -> None:
    code, out, _ = pwc("--dest", "tools/skills")
    target = project / "tools" / "skills" / "pwc" / "SKILL.md"
    assert code == 0 and out == f"Installed 'pwc' to {Path('tools/skills/pwc/SKILL.md')}\n"
    assert target.read_text(encoding="utf-8") == skill.markdown()


@pytest.mark.parametrize("other", ["--global", "--claude"])
def test_dest_takes_no_other_place(project: Path, other: str) -> None:
    code, out, err = pwc("--dest", "x", other)
    assert (code, out) == (2, "")
    assert err == "pwc: --dest cannot be combined with --global or --claude\n"
    assert list(project.iterdir()) == []


def test_an_unwritable_place_is_one_clear_line(project: Path) -> None:
    (project / "taken").write_text("a file, not a directory\n")
    code, out, err = pwc("--dest", "taken")
    assert (code, out) == (2, "")
    assert err.startswith("pwc: cannot write the skill to taken/pwc/SKILL.md: ")
    assert err.count("\n") == 1


def test_help_shows_the_flags_and_examples(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["skills", "add", "--help"]) == 0
    shown = capsys.readouterr().out
    for flag in ("--dest DIR", "--global, -g", "--claude", "--force"):
        assert flag in shown
    assert "examples:\n  pwc skills add\n" in shown
