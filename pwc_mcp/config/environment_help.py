"""The environment variables as `pwc-mcp --help` lists them, rendered from the settings table.

The same declarations as the README's configuration table (`SETTINGS`, `READ_ELSEWHERE`), in
plain text: a terminal shows no Markdown, so code spans lose their backticks and a link keeps its
words only (a parenthesised link to another README section is dropped).
"""

from __future__ import annotations

import re
import textwrap

from pwc_mcp.config import READ_ELSEWHERE, SETTINGS

WIDTH = 100  # columns, the width of the project's own text
_SECTION_LINK = re.compile(r"\s*\(\[[^\]]*\]\(#[^)]*\)\)")
_LINK = re.compile(r"\[([^\]]*)\]\([^)]*\)")


def plain(markdown: str) -> str:
    return _LINK.sub(r"\1", _SECTION_LINK.sub("", markdown)).replace("`", "")


def environment_help() -> str:
    """One line per variable: its name, what it means and its default."""
    rows = [(s.env, s.meaning, s.default_text()) for s in SETTINGS]
    rows += [(d.env, d.meaning, d.shown) for d in READ_ELSEWHERE]
    width = max(len(name) for name, _, _ in rows)
    lines = [
        textwrap.fill(
            f"{plain(meaning)} (default: {plain(default)})",
            WIDTH,
            initial_indent=f"  {name:<{width}}  ",
            subsequent_indent=" " * (width + 4),
            break_on_hyphens=False,
        )
        for name, meaning, default in rows
    ]
    return "environment variables:\n" + "\n".join(lines)
