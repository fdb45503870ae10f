"""Did you mean: the command, subcommand, choice or flag nearest to a mistyped one.

The nearest name is pwc_core.suggest's `nearest` (the bar the tools' parameters use too)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from pwc_core.suggest import nearest


def choice_hint(typed: str, choices: Iterable[str]) -> str:
    """`did you mean 'paper'? ` (to lead a parenthesis), or nothing."""
    meant = nearest(typed, choices)
    return f"did you mean {meant!r}? " if meant else ""


def flag_hint(flags: Iterable[str], extras: Sequence[str]) -> str:
    """` (did you mean --limit?)` for the first unknown flag among `extras` near one of the
    command's own `flags`, or nothing."""
    flags = [flag for flag in flags if flag.startswith("--")]
    for word in extras:
        if word.startswith("--") and len(word) > 2:
            meant = nearest(word.split("=", 1)[0], flags)
            if meant:
                return f" (did you mean {meant}?)"
    return ""
