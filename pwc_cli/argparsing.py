"""argparse, the `pwc` way: the contract's error lines (with did-you-mean), negative-looking
values kept as values, an entity's NAME beside its `list` subcommand, shared flags accepted
before the command, and tool values turned into a handler's Namespace by the very same parser
(the MCP server's route).
"""

from __future__ import annotations

import argparse
import ast
import re
import sys
from collections.abc import Collection, Mapping, Sequence
from typing import Any, NoReturn

from pwc_cli.mistyped import choice_hint
from pwc_core.errors import ArgumentError, UsageError
from pwc_core.values import bound_text_by_default

_CHOICE = re.compile(r"^argument (.+?): invalid choice: (.*) \(choose from (.*)\)$")
_COMMAND_WORDS = ("COMMAND", "SUBCOMMAND")  # the metavars of the command levels
_NEGATIVE_LOOKING = re.compile(r"^-\.?\d")  # `-5M`, `-3`, `-.5`
_NAMED = "_pwc_named"  # on a Namespace while the rest after a positional NAME is parsed


class PwcParser(argparse.ArgumentParser):
    """argparse with the contract's error lines: one short usage line of the command that
    failed, then `<prog>: error: <msg>; run '<prog> --help'`."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", argparse.RawDescriptionHelpFormatter)  # examples
        super().__init__(*args, **kwargs)
        bound_text_by_default(self)  # no value without a length bound (pwc_core.values)

    def error(self, message: str) -> NoReturn:
        print(f"usage: {self.short_usage()}", file=sys.stderr)
        self.exit(2, f"{self.prog}: error: {explain(message)}; run '{self.prog} --help'\n")

    def short_usage(self) -> str:
        """`pwc paper info [options] PAPER`: the full usage block is in --help."""
        words = [self.prog]
        if any(a.option_strings for a in self._actions):
            words.append("[options]")
        for action in self._actions:
            if isinstance(action, NamedSubcommands):  # optional: `pwc task` still names none
                words.append(f"[{action.metavar} ...]")
            elif isinstance(action, argparse._SubParsersAction):
                words.append(str(action.metavar) + (" ..." if action.required else " [...]"))
            elif not action.option_strings:
                words.append(str(action.metavar or action.dest))
        return " ".join(words)

    def _parse_optional(self, arg_string: str) -> Any:
        # `-5M`, `-3` or `-.5` is a (bad) value, not an unknown flag: the value's own check
        # then says what is wrong with it instead of "expected one argument".
        if _NEGATIVE_LOOKING.match(arg_string):
            return None
        return super()._parse_optional(arg_string)

    def _check_value(self, action: argparse.Action, value: Any) -> None:
        if isinstance(action, NamedSubcommands):  # a word that is no subcommand is the NAME
            return
        super()._check_value(action, value)

    def _get_values(self, action: argparse.Action, arg_strings: list[str]) -> Any:
        # `--search=--` is the text "--": argparse before 3.13 drops it as if it ended the
        # options, so the flag got [] past its converter.
        if action.option_strings and action.nargs is None and arg_strings == ["--"]:
            value = self._get_value(action, "--")
            self._check_value(action, value)
            return value
        return super()._get_values(action, arg_strings)


class RaisingParser(PwcParser):
    """For in-process use: argument errors raise UsageError instead of exiting, and a refused
    value raises ArgumentError, which carries the option's dest: the CLI names the flag, the
    MCP server its parameter."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("exit_on_error", False)  # argparse's ArgumentError, with its option
        super().__init__(*args, **kwargs)

    def parse_known_args(self, args: Any = None, namespace: Any = None) -> Any:
        try:
            return super().parse_known_args(args, namespace)
        except argparse.ArgumentError as error:
            raise _refused(self, error) from None

    def error(self, message: str) -> NoReturn:
        raise UsageError(message)


def _refused(parser: argparse.ArgumentParser, error: argparse.ArgumentError) -> UsageError:
    """argparse's error as ArgumentError of the action it names (argparse names it, not holds
    it); an error of no one option stays a UsageError."""
    for action in parser._actions:
        if argparse._get_action_name(action) == error.argument_name:
            return ArgumentError(action.dest, flag_of(action), error.message)
    return UsageError(str(error))


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


class NamedSubcommands(argparse._SubParsersAction):
    """An entity's subcommands, where a word that is no subcommand is the entity's NAME:
    `pwc benchmark ImageNet` is `pwc benchmark --name ImageNet` while `pwc benchmark list`
    stays the listing (a name that is literally "list" is `--name list`).

    argparse hands a subcommand every word after it, so the words after a NAME are parsed
    here by the entity's own parser, as they would have been without it."""

    def __init__(self, *args: Any, name_dest: str = "name", **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.name_dest = name_dest

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: Any,
        option_string: str | None = None,
    ) -> None:
        word, rest = values[0], list(values[1:])
        if word in self.choices:
            if getattr(namespace, _NAMED, False):  # `pwc task NAME list`
                parser.error(f"unexpected argument {word!r} after the name")
            super().__call__(parser, namespace, values, option_string)
            return
        # The first such word is the NAME. A later one (a second word, or the value of a
        # mistyped flag: `--max-paramters 1B`) is left unrecognized, for main() to say with
        # the unknown flags, whose did-you-mean is the useful part.
        stray = getattr(namespace, self.name_dest, None) is not None
        if not stray:
            setattr(namespace, self.name_dest, word)
            setattr(namespace, _NAMED, True)
        try:
            _, extras = parser.parse_known_args(rest, namespace)
        finally:
            if not stray:
                delattr(namespace, _NAMED)
        if not stray and getattr(namespace, self.name_dest) != word:
            parser.error(f"the name is given twice: {word!r} and --name")
        _unrecognized(namespace, [word, *extras] if stray else extras)


def _unrecognized(namespace: argparse.Namespace, words: Sequence[str]) -> None:
    """Leave `words` for parse_known_args's extras, as argparse's own subcommands do."""
    if words:
        vars(namespace).setdefault(argparse._UNRECOGNIZED_ARGS_ATTR, []).extend(words)


def hoist(
    parser: argparse.ArgumentParser, argv: Sequence[str], shared: Collection[str]
) -> list[str]:
    """`argv` with the `shared` switches said before the command (`pwc --json search x`, `pwc
    task --json list`) moved after it, where every command declares them: the same meaning
    on either side. Only switches move (no value to carry), and only from among the command
    words; they go before a `--`, after which every word is a value."""
    words, command, moved = list(argv), [], []
    current: argparse.ArgumentParser = parser
    index = 0
    while index < len(words):
        word, subcommands = words[index], _subcommands(current)
        if word in shared:
            moved.append(word)
        elif subcommands is not None and word in subcommands.choices:
            command.append(word)
            current = subcommands.choices[word]
        else:
            break
        index += 1
    if not moved:
        return words
    rest = words[index:]
    end = rest.index("--") if "--" in rest else len(rest)
    return [*command, *rest[:end], *moved, *rest[end:]]


def _subcommands(parser: argparse.ArgumentParser) -> argparse._SubParsersAction | None:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return action
    return None


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
    parser: argparse.ArgumentParser, values: Mapping[str, Any]
) -> argparse.Namespace:
    """A handler's arguments from values keyed by dest, parsed by the command's own parser.

    The values become the argv the CLI would be given (`--flag=value`, once per item of a
    repeatable flag; positionals after `--`), so the defaults, converters, bounds, choices,
    repeat limits and exclusions are the CLI's: there is no second converter. With a
    RaisingParser, a refused value raises ArgumentError, which carries the dest.
    """
    actions = dests(parser)
    unknown = sorted(set(values) - set(actions))
    if unknown:
        raise UsageError(f"unknown option(s) for {parser.prog}: {', '.join(unknown)}")
    options: list[str] = []
    positionals: list[str] = []
    for dest, action in actions.items():  # the parser's order: positionals stay in place
        value = values.get(dest)
        if value is None:
            continue
        if action.nargs == 0:  # a switch takes no text: only a boolean says it is given
            if not isinstance(value, bool):
                flag = flag_of(action)
                raise ArgumentError(dest, flag, f"{flag} expects a boolean")
            options.extend(action.option_strings[:1] if value else [])
            continue
        many = isinstance(action, argparse._AppendAction) and isinstance(value, list | tuple)
        for item in value if many else [value]:
            text = item if isinstance(item, str) else str(item)
            if action.option_strings:  # `=` keeps a value such as `-x` or `--` a value
                options.append(f"{action.option_strings[0]}={text}")
            else:
                positionals.append(text)
    # Fresh lists: the parser (and so each default list) is shared by every call.
    fresh = argparse.Namespace(
        **{dest: list(a.default) for dest, a in actions.items() if isinstance(a.default, list)}
    )
    return parser.parse_args([*options, *(["--", *positionals] if positionals else [])], fresh)


def dests(parser: argparse.ArgumentParser) -> dict[str, argparse.Action]:
    """dest → action of one leaf parser's flags and positionals (no help, no subcommands)."""
    return {
        action.dest: action
        for action in parser._actions
        if not isinstance(action, argparse._HelpAction | argparse._SubParsersAction)
    }


def flag_of(action: argparse.Action) -> str:
    """How the CLI names an option in its messages: the first flag, or a positional's METAVAR."""
    if action.option_strings:
        return action.option_strings[0]
    return str(action.metavar or action.dest)
