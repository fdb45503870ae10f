"""The `pwc` parser: the single source of truth for every command and flag.

The commands are declared by domain in `pwc_cli.parsers` (papers, taxonomy, benchmarks) and
assembled here. Each leaf command (e.g. "paper info", "task list") records its parser in
`COMMANDS`, every parser path its `--help` examples in `EXAMPLES`, every MCP tool its command
in `TOOL_COMMANDS` (declared with the command), and `PRESENTATION_FLAGS`
names the flags that only change rendering, so the MCP server can generate tool parameters from
exactly the research flags.
"""

from __future__ import annotations

import argparse
from collections.abc import Mapping
from typing import Any

from pwc_cli.argparsing import PwcParser, RaisingParser, dests, namespace_from
from pwc_cli.parsers import Builder, benchmarks, papers, taxonomy
from pwc_core import __version__

# `chart` writes a file: a tool never gets it, so the server never writes files
PRESENTATION_FLAGS = frozenset({"json", "flat", "implementation_coverage", "chart"})
VERSION_LINE = f"pwc {__version__} (API v1)"  # one line, no tab: read by people, not cut
ROOT_EXAMPLES = (
    'pwc search "vision transformer" --limit 5',
    "pwc paper info 1706.03762",
    'pwc benchmark --name ImageNet --max-parameters 100M --min "Top 1 Accuracy=83"',
)


def _build(parser_class: type[PwcParser]) -> tuple[PwcParser, Builder]:
    """The root and every domain's commands, in the order `pwc --help` lists them."""
    b = Builder(parser_class)
    root = parser_class(
        prog="pwc",
        description="Read-only client for the Papers With Code research catalog (API v1).",
        epilog=b.epilog("", ROOT_EXAMPLES),
    )
    root.add_argument("--version", action="version", version=VERSION_LINE)
    top = root.add_subparsers(dest="group", metavar="COMMAND", parser_class=parser_class)
    top.required = True
    for domain in (papers, taxonomy, benchmarks):
        domain.add(b, top)
    b.leaf(top, "version", "version", "Print the CLI version.", examples=("pwc version",))
    return root, b


def build_parser() -> tuple[PwcParser, dict[str, argparse.ArgumentParser]]:
    """Build the whole tree for the CLI: argument errors print usage and exit 2."""
    root, built = _build(PwcParser)
    return root, built.commands


# The in-process tree (argument errors raise): the tool table, the tests and `namespace_for`.
_, _BUILT = _build(RaisingParser)
COMMANDS = _BUILT.commands
# Every parser path ("" is the root, "paper" a group) -> its --help examples, as declared.
EXAMPLES: dict[str, tuple[str, ...]] = _BUILT.examples
RESEARCH_COMMANDS = tuple(name for name in COMMANDS if name != "version")
# MCP tool -> the command it runs, declared with the command (`tool=`), in declaration order.
TOOL_COMMANDS: dict[str, str] = _BUILT.tools


def _shared_switches() -> frozenset[str]:
    """The switches every research command declares (`--json`), so also accepted before the
    command (pwc_cli.argparsing.hoist); help is the root's own."""
    per_command = [
        {o for a in COMMANDS[c]._actions if a.nargs == 0 for o in a.option_strings}
        for c in RESEARCH_COMMANDS
    ]
    return frozenset(set.intersection(*per_command) - {"-h", "--help"})


SHARED_FLAGS = _shared_switches()


def research_actions(command: str) -> list[argparse.Action]:
    """The research flags and positionals of one leaf command (no help, no presentation)."""
    return [a for a in dests(COMMANDS[command]).values() if a.dest not in PRESENTATION_FLAGS]


def namespace_for(command: str, values: Mapping[str, Any]) -> argparse.Namespace:
    """Arguments for a handler from tool values keyed by dest, through the command's own parser
    (pwc_cli.argparsing.namespace_from); a refused value raises ArgumentError."""
    return namespace_from(COMMANDS[command], values)
