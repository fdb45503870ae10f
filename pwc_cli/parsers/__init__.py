"""The `pwc` parser tree by domain, like `commands/` and `views/`: each module here adds its
commands to the tree through a `Builder`, and `pwc_cli.parser` assembles them in order.

Every command is declared with its `--help` examples (`examples=`): real command lines that the
tests run against the sample catalog, so a command cannot be added without them; and a command
the MCP server exposes names its tool there (`tool=`), which pwc_mcp.params derives its tool
table from."""

from __future__ import annotations

import argparse
from typing import Any

from pwc_cli import flags
from pwc_cli.argparsing import NamedSubcommands, PwcParser
from pwc_cli.help import epilog

Examples = tuple[str, ...]


class Builder:
    """Creates parsers and records leaf parsers and every path's examples under their path."""

    def __init__(self, parser_class: type[PwcParser]) -> None:
        self.parser_class = parser_class
        self.commands: dict[str, argparse.ArgumentParser] = {}
        self.examples: dict[str, Examples] = {}
        self.tools: dict[str, str] = {}  # MCP tool -> command, in declaration order

    def epilog(self, command: str, examples: Examples) -> str:
        """Record `command`'s examples (a parser path: "" is the root) and render its epilog."""
        if command in self.examples:
            raise ValueError(f"pwc {command}: declared twice")
        self.examples[command] = tuple(examples)
        return epilog(self.examples[command])

    def leaf(
        self,
        subparsers: Any,
        name: str,
        command: str,
        help_text: str,
        *,
        examples: Examples,
        tool: str | None = None,
        **kw: Any,
    ) -> argparse.ArgumentParser:
        parser = subparsers.add_parser(
            name,
            help=help_text,
            description=help_text,
            epilog=self.epilog(command, examples),
            **kw,
        )
        parser.set_defaults(command=command)
        self.commands[command] = parser
        if tool is not None:
            if tool in self.tools:
                raise ValueError(f"tool {tool}: declared by two commands")
            self.tools[tool] = command
        return parser

    def group(
        self,
        subparsers: Any,
        name: str,
        command: str,
        help_text: str,
        dest: str,
        *,
        examples: Examples,
    ) -> Any:
        """A command that only holds subcommands (`paper`, `paper lineage`): their subparsers."""
        parser = subparsers.add_parser(
            name, help=help_text, description=help_text, epilog=self.epilog(command, examples)
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
        examples: Examples,
        list_examples: Examples,
        tool: str,
        list_tool: str,
        json_flag: bool = True,
    ) -> tuple[argparse.ArgumentParser, argparse.ArgumentParser]:
        """An entity command (`NAME` or `--name NAME` detail) and its optional nested `list`
        subcommand; a word that is not `list` is the NAME (pwc_cli.argparsing.NamedSubcommands),
        which adds no tool parameter: the tool has `name`."""
        parser = self.leaf(top, name, name, help_text, examples=examples, tool=tool)
        flags.name(parser, name_help)
        if json_flag:
            flags.json(parser)
        nested = parser.add_subparsers(
            dest=f"{name}_command",
            metavar="NAME | list",
            parser_class=self.parser_class,
            action=NamedSubcommands,
            help=f"{name_help} (the same as --name), or list",
        )
        listing = self.leaf(
            nested, "list", f"{name} list", list_help, examples=list_examples, tool=list_tool
        )
        return parser, listing
