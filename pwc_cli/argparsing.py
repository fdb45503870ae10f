"""argparse, the `pwc` way, through its public interface only: the contract's error lines (with
did-you-mean), and the words of a command line prepared before argparse reads them, from the
declarations: shared switches said before the command move after it, an entity's NAME becomes
its `--name`, and a negative-looking value (`--max-parameters -5M`) stays a value.
"""

from __future__ import annotations

import argparse
import ast
import re
import shlex
import sys
from collections.abc import Callable, Collection, Sequence
from typing import Any, NoReturn

from pwc_cli.mistyped import choice_hint
from pwc_core.declare import Command, Param
from pwc_core.suggest import nearest

_CHOICE = re.compile(r"^argument (.+?): invalid choice: (.*) \(choose from (.*)\)$")
_COMMAND_WORDS = ("COMMAND", "SUBCOMMAND")  # the metavars of the command levels
_NEGATIVE_LOOKING = re.compile(r"^-\.?\d")  # `-5M`, `-3`, `-.5`
# `--search=--` is the text "--", but argparse before 3.13 drops a "--" value as if it ended
# the options. The word is handed over as this stand-in and restored after parsing.
_DASHES = "\ue000--"


class PwcParser(argparse.ArgumentParser):
    """argparse with the contract's error lines: one short usage line of the command that
    failed, then `<prog>: error: <msg>; run '<prog> --help'`."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", argparse.RawDescriptionHelpFormatter)  # examples
        super().__init__(*args, **kwargs)
        self.short = self.prog  # the short usage line; pwc_cli.parser sets it from the declaration

    def error(self, message: str) -> NoReturn:
        print(f"usage: {self.short}", file=sys.stderr)
        message = explain(message.replace(_DASHES, "--"))
        self.exit(2, f"{self.prog}: error: {message}; run '{self.prog} --help'\n")

    def parse_known_args(self, args: Any = None, namespace: Any = None) -> Any:
        parsed, extras = super().parse_known_args(args, namespace)
        for dest, value in vars(parsed).items():
            if value == _DASHES:
                setattr(parsed, dest, "--")
            elif isinstance(value, list) and _DASHES in value:
                setattr(parsed, dest, ["--" if v == _DASHES else v for v in value])
        return parsed, extras


class BoundedAppend(argparse.Action):
    """A repeatable flag (a list), given at most `type.max_items` times: refused while
    parsing, before any request."""

    def __call__(self, parser: Any, namespace: Any, values: Any, option_string: Any = None) -> None:
        items = list(getattr(namespace, self.dest, None) or [])
        limit = getattr(self.type, "max_items", None)
        if limit is not None and len(items) >= limit:
            raise argparse.ArgumentError(self, f"may be given at most {limit} times")
        setattr(namespace, self.dest, [*items, values])


def explain(message: str) -> str:
    """argparse's message for a stray word where a subcommand may stand, in plain words; an
    invalid choice (a command, a subcommand or a flag's value) names the nearest one."""
    match = _CHOICE.match(message)
    if not match:
        return message
    argument, typed, choices = match.groups()
    try:  # argparse writes the text and the choices as Python literals: `'papr'`
        hint = choice_hint(ast.literal_eval(typed), ast.literal_eval(f"({choices},)"))
    except (ValueError, SyntaxError):
        hint = ""
    if argument in _COMMAND_WORDS:
        return f"unexpected argument {typed} ({hint}expected one of: {choices})"
    return f"argument {argument}: invalid choice: {typed} ({hint}choose from {choices})"


class WordError(Exception):
    """A command line refused before argparse reads it, said by the command at `path`."""

    def __init__(self, path: str, message: str) -> None:
        super().__init__(message)
        self.path = path


def flag_of(command: Command, word: str) -> Param | None:
    """The parameter a flag word names: exactly, or by a unique prefix (as argparse allows)."""
    params = [p for p in command.cli() if p.flags]
    for param in params:
        if word in param.flags:
            return param
    matches = {p.dest: p for p in params for f in p.flags if f.startswith(word)}
    return next(iter(matches.values())) if len(matches) == 1 and word.startswith("--") else None


def prepare(
    argv: Sequence[str],
    children: Callable[[str], dict[str, str]],
    commands: dict[str, Command],
    shared: Collection[str],
    prog: str,
) -> tuple[list[str], list[str]]:
    """The words argparse reads, and the stray words it should report as unrecognized; a
    WordError for a line refused before argparse reads it (one word short included)."""
    words, path, index = list(argv), "", 0
    moved = []
    while index < len(words):  # the command words, with shared switches among them
        word = words[index]
        if word in shared:
            moved.append(word)
            del words[index]
            continue
        path_of = children(path)
        if word not in path_of:
            break
        path = path_of[word]
        index += 1
    command = commands.get(path)
    if command is None:
        meant = one_word_short(path, words[index:], children, commands)
        if meant is not None:
            line = shlex.join([prog, *words[:index], meant, *words[index:], *moved])
            choices = ", ".join(repr(word) for word in children(path))
            raise WordError(
                path,
                f"unexpected argument {words[index]!r} (did you mean {line!r}? "
                f"expected one of: {choices})",
            )
        return words[:index] + moved + words[index:], []
    rest, strays = _rewrite(command, words[index:], children, commands)
    end = rest.index("--") if "--" in rest else len(rest)
    return [*words[:index], *rest[:end], *moved, *rest[end:]], strays


def one_word_short(
    group: str,
    rest: Sequence[str],
    children: Callable[[str], dict[str, str]],
    commands: dict[str, Command],
) -> str | None:
    """The subcommand word missing before `rest` (`list` in `paper lineage BERT`): when the
    group's next word is no subcommand nor a misspelt one (argparse names that), and exactly
    one of its subcommands would take the rest's values as its own (as many as its
    positionals; an entity command's one NAME); else None."""
    subcommands = children(group)
    if not rest or rest[0].startswith("-") or nearest(rest[0], subcommands):
        return None
    fits = [
        word
        for word, path in subcommands.items()
        if path in commands and _takes(commands[path], rest)
    ]
    return fits[0] if len(fits) == 1 else None


def _takes(command: Command, rest: Sequence[str]) -> bool:
    """Whether `rest` gives `command` exactly the values it takes by position."""
    wanted = 1 if command.entity else sum(1 for p in command.cli() if p.positional)
    values, index = 0, 0
    while index < len(rest):
        word = rest[index]
        index += 1
        param = flag_of(command, word) if word.startswith("-") else None
        if param is not None and not param.switch and "=" not in word:
            index += 1  # the flag's value
        elif not word.startswith("-") or _NEGATIVE_LOOKING.match(word):
            values += 1
    return wanted > 0 and values == wanted


def _rewrite(
    command: Command,
    rest: list[str],
    children: Callable[[str], dict[str, str]],
    commands: dict[str, Command],
) -> tuple[list[str], list[str]]:
    out: list[str] = []
    strays: list[str] = []
    trailing: list[str] = []  # negative-looking positional words: after a `--`
    named: str | None = None
    name_flag = False
    index = 0
    while index < len(rest):
        word = rest[index]
        index += 1
        if word == "--":
            out.extend(["--", *trailing, *rest[index:]])
            return out, strays
        flag, sep, value = word.partition("=")
        param = flag_of(command, flag) if word.startswith("-") and sep else None
        param = param or (flag_of(command, word) if word.startswith("-") else None)
        if param is not None:
            name_flag = name_flag or param.dest == "name"
            if sep:
                out.append(f"{flag}={_DASHES}" if value == "--" else word)
            elif not param.switch and index < len(rest) and rest[index] != "--":
                following = rest[index]
                index += 1
                joined = _NEGATIVE_LOOKING.match(following)
                out.extend([f"{word}={following}"] if joined else [word, following])
            else:
                out.append(word)
            continue
        if word.startswith("-") and not _NEGATIVE_LOOKING.match(word):
            out.append(word)  # an unknown flag: argparse reports it, with its did-you-mean
            continue
        if command.entity:
            sub = children(command.path).get(word)
            if sub is not None and named is None:
                out.append(word)
                listed, stray = _rewrite(commands[sub], rest[index:], children, commands)
                return out + listed, strays + stray
            if sub is not None:
                raise WordError(command.path, f"unexpected argument {word!r} after the name")
            if named is None and not name_flag:  # after `--name x`, a word is a stray
                named = word
                out.append(f"--name={word}")
            else:
                strays.append(word)
            continue
        if _NEGATIVE_LOOKING.match(word):
            trailing.append(word)
        else:
            out.append(word)
    if named is not None and name_flag:
        raise WordError(command.path, f"the name is given twice: {named!r} and --name")
    return out + (["--", *trailing] if trailing else []), strays


def blank_positional(command: Command, args: argparse.Namespace) -> str | None:
    """The name of a required value given blank (`pwc search ""`), so that it is a usage
    error before any request; None when every one has text."""
    for param in command.params:
        value = getattr(args, param.dest, None)
        text = value if isinstance(value, str) else "x"
        if param.positional and not text.strip():
            return param.flag
    return None
