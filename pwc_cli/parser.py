"""The `pwc` argparse tree, generated from the command declarations (pwc_core.declarations), the
single source of every command and flag; this module adds only what is the CLI's own: `--help`
epilogs, the version line, short usage lines and which words may come before a command."""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from typing import Any

from pwc_cli.argparsing import BoundedAppend, PwcParser, prepare
from pwc_cli.help import epilog
from pwc_core import __version__
from pwc_core.declarations import (
    COMMANDS,
    DECLARED,
    DESCRIPTION,
    EXAMPLES,
    RESEARCH_COMMANDS,
)
from pwc_core.declare import Command, Group, Param

PROG = "pwc"
VERSION_LINE = f"{PROG} {__version__} (API v1)"  # one line, no tab: read by people, not cut


def _add(parser: argparse.ArgumentParser, param: Param, groups: dict[str, Any]) -> None:
    target: Any = parser
    if param.exclusive is not None:
        if param.exclusive not in groups:
            groups[param.exclusive] = parser.add_mutually_exclusive_group()
        target = groups[param.exclusive]
    kw: dict[str, Any] = {"help": param.help}
    if param.switch:
        kw["action"] = "store_true"
    else:
        kw.update(type=param.kind, default=param.default)
        if param.choices is not None:
            kw["choices"] = list(param.choices)
        if param.repeat:
            kw.update(action=BoundedAppend if param.cap_repeats else "append")
            kw["default"] = list(param.default or [])
        if param.metavar:
            kw["metavar"] = param.metavar
    if param.positional:
        target.add_argument(param.dest, **kw)
    else:
        target.add_argument(*param.flags, dest=param.dest, **kw)


def _usage(prog: str, command: Command | None, subcommands: str | None) -> str:
    """`pwc paper info [options] PAPER`: the short usage line an error prints."""
    words = [prog, "[options]"]
    if command is not None:
        words += [p.flag for p in command.cli() if p.positional]
    if subcommands:
        words.append(subcommands)
    return " ".join(words)


@dataclass
class Tree:
    root: PwcParser
    parsers: dict[str, PwcParser]  # every path ("" the root) -> its parser


def build_tree() -> Tree:
    """The whole tree, in declaration order (the order `pwc --help` lists the commands)."""
    root = PwcParser(prog=PROG, description=DESCRIPTION, epilog=epilog(EXAMPLES[""]))
    root.add_argument("--version", action="version", version=VERSION_LINE)
    holders: dict[str, Any] = {"": _subcommands(root, "group", "COMMAND", True)}
    root.short = _usage(PROG, None, "COMMAND ...")
    parsers: dict[str, PwcParser] = {"": root}
    for declared in DECLARED:
        parent, _, word = declared.path.rpartition(" ")
        parser = holders[parent].add_parser(
            word, help=declared.help, description=declared.help, epilog=epilog(declared.examples)
        )
        parsers[declared.path] = parser
        if isinstance(declared, Group):
            holders[declared.path] = _subcommands(parser, declared.dest, "SUBCOMMAND", True)
            parser.short = _usage(parser.prog, None, "SUBCOMMAND ...")
            continue
        parser.set_defaults(command=declared.path)
        groups: dict[str, Any] = {}
        for param in declared.cli():
            _add(parser, param, groups)
        listing = None
        if declared.entity:
            holders[declared.path] = _subcommands(
                parser,
                f"{word}_command",
                "NAME | list",
                False,
                help=f"{declared.by_dest['name'].help} (the same as --name), or list",
            )
            listing = "[NAME | list ...]"
        parser.short = _usage(parser.prog, declared, listing)
    return Tree(root, parsers)


def _subcommands(
    parser: argparse.ArgumentParser, dest: str, metavar: str, required: bool, **kw: Any
) -> Any:
    holder = parser.add_subparsers(dest=dest, metavar=metavar, parser_class=PwcParser, **kw)
    holder.required = required
    return holder


def build_parser() -> tuple[PwcParser, dict[str, PwcParser]]:
    """The root parser and every leaf command's parser by command path."""
    tree = build_tree()
    return tree.root, {path: tree.parsers[path] for path in COMMANDS}


def children(path: str) -> dict[str, str]:
    """The subcommand words of a path ("" the root) -> their paths."""
    prefix = f"{path} " if path else ""
    return {
        d.path[len(prefix) :]: d.path
        for d in DECLARED
        if d.path.startswith(prefix) and " " not in d.path[len(prefix) :]
    }


def _shared_switches() -> frozenset[str]:
    """The switches every research command declares (`--json`), so also accepted before the
    command (pwc_cli.argparsing.prepare)."""
    per_command = [
        {f for p in COMMANDS[c].cli() if p.switch for f in p.flags} for c in RESEARCH_COMMANDS
    ]
    return frozenset(set.intersection(*per_command))


SHARED_FLAGS = _shared_switches()


def words_of(argv: list[str]) -> tuple[list[str], list[str]]:
    """The words the generated tree reads for a command line, and its stray words
    (pwc_cli.argparsing.prepare); a WordError when the line is refused before parsing."""
    return prepare(argv, children, COMMANDS, SHARED_FLAGS, PROG)
