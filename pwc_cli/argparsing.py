"""argparse, the `pwc` way: the contract's error lines, negative-looking values kept as values,
and typed values turned into a handler's Namespace without argv (the MCP server's route).
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Mapping
from typing import Any, NoReturn

from pwc_cli.errors import ArgumentError, UsageError
from pwc_cli.types import bound_text_by_default

_CHOICE = re.compile(
    r"^argument (?:COMMAND|SUBCOMMAND|list): invalid choice: (.*) \(choose from (.*)\)$"
)


class PwcParser(argparse.ArgumentParser):
    """argparse with the contract's error lines: one short usage line of the command that
    failed, then `<prog>: error: <msg>; run '<prog> --help'`."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", argparse.RawDescriptionHelpFormatter)  # examples
        super().__init__(*args, **kwargs)
        bound_text_by_default(self)  # no value without a length bound (pwc_cli.types)

    def error(self, message: str) -> NoReturn:
        print(f"usage: {self.short_usage()}", file=sys.stderr)
        self.exit(2, f"{self.prog}: error: {explain(message)}; run '{self.prog} --help'\n")

    def short_usage(self) -> str:
        """`pwc paper info [options] PAPER`: the full usage block is in --help."""
        words = [self.prog]
        if any(a.option_strings for a in self._actions):
            words.append("[options]")
        for action in self._actions:
            if isinstance(action, argparse._SubParsersAction):
                words.append(str(action.metavar) + (" ..." if action.required else " [...]"))
            elif not action.option_strings:
                words.append(str(action.metavar or action.dest))
        return " ".join(words)

    def _parse_optional(self, arg_string: str) -> Any:
        # `-5M`, `-3` or `-.5` is a (bad) value, not an unknown flag: the value's own check
        # then says what is wrong with it instead of "expected one argument".
        if re.match(r"^-\.?\d", arg_string):
            return None
        return super()._parse_optional(arg_string)


class RaisingParser(PwcParser):
    """For in-process use: argument errors raise UsageError instead of exiting."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(message)


def explain(message: str) -> str:
    """argparse's message for a stray word where a subcommand may stand, in plain words."""
    match = _CHOICE.match(message)
    if match:
        return f"unexpected argument {match.group(1)} (expected one of: {match.group(2)})"
    return message


def blank_positional(parser: argparse.ArgumentParser, args: argparse.Namespace) -> str | None:
    """The name of a required value given blank (`pwc search ""`), so that it is a usage
    error before any request; None when every one has text."""
    for action in parser._actions:
        value = getattr(args, action.dest, None)
        if not action.option_strings and isinstance(value, str) and not value.strip():
            return str(action.metavar or action.dest)
    return None


# --- values without argv --------------------------------------------------------------------


def namespace_from(
    command: str, actions: Mapping[str, argparse.Action], values: Mapping[str, Any]
) -> argparse.Namespace:
    """A handler's arguments from already-typed or textual values keyed by dest.

    Defaults come from the parser; values for typed options go through the option's own
    converter, so the checks are the CLI's. A refused value raises ArgumentError, which
    carries the dest: the CLI says the flag, the MCP server its parameter name.
    """
    unknown = sorted(set(values) - set(actions))
    if unknown:
        raise UsageError(f"unknown option(s) for pwc {command}: {', '.join(unknown)}")
    args = argparse.Namespace(command=command)
    for dest, action in actions.items():
        if isinstance(action, argparse._SubParsersAction):
            continue
        setattr(args, dest, _copy_default(action.default))
    for dest, value in values.items():
        if value is None:
            continue
        setattr(args, dest, _convert(actions[dest], value))
    return args


def _copy_default(value: Any) -> Any:
    return list(value) if isinstance(value, list) else value


def flag_of(action: argparse.Action) -> str:
    """How the CLI names an option in its messages: the first flag, or a positional's METAVAR."""
    if action.option_strings:
        return action.option_strings[0]
    return str(action.metavar or action.dest)


def _convert(action: argparse.Action, value: Any) -> Any:
    if action.nargs == 0:
        if not isinstance(value, bool):
            flag = flag_of(action)
            raise ArgumentError(action.dest, flag, f"{flag} expects a boolean")
        return value
    if action.choices is not None and str(value) not in action.choices:
        choices = ", ".join(repr(c) for c in action.choices)
        raise ArgumentError(
            action.dest, flag_of(action), f"invalid choice: {value!r} (choose from {choices})"
        )
    if isinstance(action, argparse._AppendAction):
        items = value if isinstance(value, list | tuple) else [value]
        return [_typed(action, item) for item in items]
    return _typed(action, value)


def _typed(action: argparse.Action, value: Any) -> Any:
    converter = action.type
    if converter is None:
        return str(value)
    try:
        return converter(value if isinstance(value, str) else str(value))  # type: ignore[operator]
    except argparse.ArgumentTypeError as exc:
        raise ArgumentError(action.dest, flag_of(action), str(exc)) from None
