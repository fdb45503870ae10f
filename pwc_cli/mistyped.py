"""Did you mean: the command, subcommand, choice or flag nearest to a mistyped one.

The ranking is the one catalog names get (pwc_core.suggest `closest`), with a stricter bar for
saying it: a catalog name that is half alike is worth offering, a command that is half alike
("frobnicate" and "conference") is not what anyone meant."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from pwc_core.suggest import MIN_WORD, closest, normal, similarity

NEAR = 0.7  # difflib ratio of a word one or two typos from another ("limtt"/"limit": 0.8)
_CONTAINED = 2  # suggest.similarity's kind for a name that contains (or begins with) the text


def nearest(typed: str, names: Iterable[str]) -> str | None:
    """The name `typed` most likely meant, or None when none is near enough to say so: it
    begins with or contains the text (3+ characters), has each typed word (a typo allowed in
    each), or is a typo or two away as a whole."""
    for name in closest(typed, names, shown=1):
        kind, coverage, ratio = similarity(typed, name)
        contained = kind >= _CONTAINED and len(normal(typed)) >= MIN_WORD
        if contained or coverage == 1.0 or ratio >= NEAR:
            return name
    return None


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
