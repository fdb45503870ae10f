"""The vocabulary of command declarations: one `Command` per research command, with its typed
parameters, help, `--help` examples and MCP tool name.

The declarations (pwc_core/declarations/) are the single source of every command and flag: the
`pwc` argparse tree (pwc_cli.parser) and the MCP tool signatures (pwc_mcp.params) are generated
from them, and `arguments()` turns a tool's typed values into a handler's arguments without a
round trip through argv: a list stays a list, each value is converted once, by its kind.
"""

from __future__ import annotations

import argparse
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from pwc_core.errors import ArgumentError, UsageError
from pwc_core.values import TEXT, Kind
from pwc_core.wording import reason_of

Examples = tuple[str, ...]

# Where a parameter exists: both front ends, the CLI only (presentation: how the answer is
# printed or written), or the tool only (what the CLI has no flag for, handled by the tool).
BOTH, CLI, TOOL = "both", "cli", "tool"
HOSTED_ROWS = 25  # the most rows one tool answer carries (the tools' `limit` ceiling)


@dataclass(frozen=True)
class Param:
    """One parameter: a flag (`flags` holds its spellings, the first is the one messages use)
    or, without flags, a positional; `dest` is the handler's attribute."""

    dest: str
    help: str
    flags: tuple[str, ...] = ()
    kind: Kind = TEXT
    default: Any = None
    metavar: str | None = None
    switch: bool = False  # takes no value: given or not
    repeat: bool = False  # may be given several times (at most kind.max_items): a list
    # A repeat past the bound is refused while parsing, unless the handler says it in the
    # contract's own words (`at most 10 author filters are allowed`).
    cap_repeats: bool = True
    choices: tuple[str, ...] | None = None
    exclusive: str | None = None  # parameters sharing a group name exclude each other
    where: str = BOTH
    tool_required: bool = False  # the tool cannot run without it (an entity's name)
    tool_name: str | None = None  # the MCP parameter's name, when it is not `dest`
    tool_help: str | None = None  # the schema's description ("" none); None: from `help`

    @property
    def name(self) -> str:
        """The MCP parameter's name."""
        return self.tool_name or self.dest

    @property
    def flag(self) -> str:
        """How the CLI names it in a message: the first flag, or a positional's METAVAR."""
        return self.flags[0] if self.flags else (self.metavar or self.dest)

    @property
    def positional(self) -> bool:
        """A CLI positional (a tool-only parameter has no flags and is no positional)."""
        return not self.flags and self.where != TOOL

    def initial(self) -> Any:
        """The value when not given (a fresh list for a repeatable one)."""
        if self.repeat:
            return list(self.default or [])
        return False if self.switch else self.default

    def convert(self, value: Any) -> Any:
        """A typed tool value as the handler expects it; ArgumentTypeError when refused."""
        if self.switch:
            if not isinstance(value, bool):
                raise argparse.ArgumentTypeError(f"{self.flag} expects a boolean")
            return value
        if self.choices is not None:
            value = self.kind.from_json(value)  # `is_open`: a boolean becomes its word
            if value not in self.choices:
                choices = ", ".join(repr(c) for c in self.choices)
                raise argparse.ArgumentTypeError(
                    f"invalid choice: {value!r} (choose from {choices})"
                )
            return value
        if self.repeat and isinstance(value, list | tuple):  # its length is the schema's
            return [self.kind.from_json(item) for item in value]
        return self.kind.from_json(value)


@dataclass(frozen=True)
class Command:
    """A leaf command: `path` is its words after `pwc` ("paper info"); an `entity` command
    (`pwc task NAME`) also takes its NAME as the first word and holds a `list` subcommand."""

    path: str
    help: str
    params: tuple[Param, ...]
    examples: Examples
    tool: str | None = None
    entity: bool = False
    by_dest: dict[str, Param] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if not self.examples:
            raise ValueError(f"pwc {self.path}: declare its --help examples")
        by_dest = {p.dest: p for p in self.params}
        if len(by_dest) != len(self.params):
            raise ValueError(f"pwc {self.path}: a parameter is declared twice")
        object.__setattr__(self, "by_dest", by_dest)

    def cli(self) -> tuple[Param, ...]:
        """The CLI's parameters: everything but the tool-only ones."""
        return tuple(p for p in self.params if p.where != TOOL)

    def research(self) -> tuple[Param, ...]:
        """What the handler's answer depends on: everything but the presentation flags."""
        return tuple(p for p in self.params if p.where != CLI)


@dataclass(frozen=True)
class Group:
    """A command that only holds subcommands (`paper`, `paper lineage`); `dest` names the
    attribute argparse stores the chosen subcommand in."""

    path: str
    help: str
    dest: str
    examples: Examples


def arguments(command: Command, values: Mapping[str, Any]) -> argparse.Namespace:
    """The handler's arguments from typed values keyed by dest (a tool's validated values):
    every parameter not given takes its default, each given one is converted by its kind, and
    exclusive parameters given together are refused. A refused value raises ArgumentError,
    which carries the dest: the server names its parameter."""
    unknown = sorted(set(values) - set(command.by_dest))
    if unknown:
        raise UsageError(f"unknown option(s) for pwc {command.path}: {', '.join(unknown)}")
    result: dict[str, Any] = {"command": command.path}
    chosen: dict[str, Param] = {}
    for param in command.params:
        value = values.get(param.dest)
        if value is None or value is False and param.switch or value == [] and param.repeat:
            result[param.dest] = param.initial()
            continue
        if param.exclusive is not None:
            other = chosen.setdefault(param.exclusive, param)
            if other is not param:
                raise ArgumentError(
                    param.dest, param.flag, f"not allowed with argument {other.flag}"
                )
        try:
            result[param.dest] = param.convert(value)
        except argparse.ArgumentTypeError as error:
            raise ArgumentError(param.dest, param.flag, reason_of(error)) from None
    return argparse.Namespace(**result)
