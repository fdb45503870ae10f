"""The `pwc` parser tree by domain, like `commands/` and `views/`: each module here adds its
commands to the tree through a `Builder`, and `pwc_cli.parser` assembles them in order."""

from __future__ import annotations

import argparse
from typing import Any

from pwc_cli import flags
from pwc_cli.argparsing import PwcParser
from pwc_cli.help import epilog


class Builder:
    """Creates leaf parsers and records them under their command path."""

    def __init__(self, parser_class: type[PwcParser]) -> None:
        self.parser_class = parser_class
        self.commands: dict[str, argparse.ArgumentParser] = {}

    def leaf(
        self, subparsers: Any, name: str, command: str, help_text: str, **kw: Any
    ) -> argparse.ArgumentParser:
        parser = subparsers.add_parser(
            name, help=help_text, description=help_text, epilog=epilog(command), **kw
        )
        parser.set_defaults(command=command)
        self.commands[command] = parser
        return parser

    def group(self, subparsers: Any, name: str, command: str, help_text: str, dest: str) -> Any:
        """A command that only holds subcommands (`paper`, `paper lineage`): their subparsers."""
        parser = subparsers.add_parser(
            name, help=help_text, description=help_text, epilog=epilog(command)
        )
        nested = parser.add_subparsers(
            dest=dest, metavar="SUBCOMMAND", parser_class=self.parser_class
        )
        nested.required = True
        return nested

    def entity(
        self,
        top: Any,
        name: str,
        help_text: str,
        name_help: str,
        *,
        list_help: str,
        json_flag: bool = True,
    ) -> tuple[argparse.ArgumentParser, argparse.ArgumentParser]:
        """An entity command (`--name` detail) and its optional nested `list` subcommand."""
        parser = self.leaf(top, name, name, help_text)
        flags.name(parser, name_help)
        if json_flag:
            flags.json(parser)
        nested = parser.add_subparsers(
            dest=f"{name}_command", metavar="list", parser_class=self.parser_class
        )
        return parser, self.leaf(nested, "list", f"{name} list", list_help)
