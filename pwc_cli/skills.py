"""`pwc skills add`: write the agent skill (pwc_core.skill) where coding agents look for it.

`.agents/skills/pwc/SKILL.md` under the current directory, or under the home directory with
`--global`; `--claude` also links `.claude/skills/pwc` to it (a relative link, so the project
can move); `--dest DIR` writes `DIR/pwc/SKILL.md` instead. An installed skill is kept unless
`--force`. Every refusal is a usage error (exit 2) in one line; nothing asks the catalog."""

from __future__ import annotations

import argparse
import os
from pathlib import Path

from pwc_core import skill
from pwc_core.errors import UsageError

AGENTS = Path(".agents", "skills")
CLAUDE = Path(".claude", "skills")


class SkillError(UsageError):
    """The skill cannot be installed as asked (exit 2)."""


def places(args: argparse.Namespace, cwd: Path, home: Path) -> tuple[Path, Path | None]:
    """The skill's directory and, with `--claude`, the link to it."""
    if args.dest is not None:
        if args.global_ or args.claude:
            raise SkillError("--dest cannot be combined with --global or --claude")
        return Path(args.dest).expanduser() / skill.NAME, None
    base = home if args.global_ else cwd
    link = base / CLAUDE / skill.NAME if args.claude else None
    return base / AGENTS / skill.NAME, link


def install(
    args: argparse.Namespace, cwd: Path | None = None, home: Path | None = None
) -> list[str]:
    """Write the skill as `args` asks; the lines that say what was done."""
    folder, link = places(args, cwd or Path.cwd(), home or Path.home())
    target = folder / skill.FILE
    if link is not None and link.is_dir() and not link.is_symlink():
        raise SkillError(f"{link} is a directory; remove it or install with --dest")
    if not args.force:
        for existing in (target, link):
            if existing is not None and (existing.exists() or existing.is_symlink()):
                raise SkillError(
                    f"skill already exists at {existing}; rerun with --force to overwrite"
                )
    try:
        folder.mkdir(parents=True, exist_ok=True)
        target.write_text(skill.markdown(), encoding="utf-8")
    except OSError as error:
        raise SkillError(f"cannot write the skill to {target}: {error.strerror or error}") from None
    done = [f"Installed '{skill.NAME}' to {target}"]
    if link is not None:
        _link(link, folder)
        done.append(f"Linked '{skill.NAME}' for Claude at {link}")
    return done


def _link(link: Path, folder: Path) -> None:
    """`link` -> `folder`, relative; an old link or file there is replaced."""
    try:
        link.parent.mkdir(parents=True, exist_ok=True)
        if link.exists() or link.is_symlink():
            link.unlink()
        link.symlink_to(os.path.relpath(folder, link.parent), target_is_directory=True)
    except OSError as error:
        raise SkillError(f"cannot link the skill at {link}: {error.strerror or error}") from None
