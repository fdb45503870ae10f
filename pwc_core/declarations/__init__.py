"""Every `pwc` command, declared once, by domain (papers, taxonomy, benchmarks), in the order
`pwc --help` lists them. The CLI's argparse tree (pwc_cli.parser) and the MCP tools' parameters
(pwc_mcp.params) are generated from these tables."""

from __future__ import annotations

from pwc_core.declarations import benchmarks, papers, skills, taxonomy
from pwc_core.declare import CLI, Command, Examples, Group

DESCRIPTION = "Read-only client for the Papers With Code research catalog (API v1)."
ROOT_EXAMPLES: Examples = (
    'pwc search "vision transformer" --limit 5',
    "pwc paper info 1706.03762",
    'pwc benchmark --name ImageNet --max-parameters 100M --min "Top 1 Accuracy=83"',
)
VERSION = Command("version", "Print the CLI version.", (), ("pwc version",))

DECLARED: tuple[Command | Group, ...] = (
    *papers.DECLARED,
    *taxonomy.DECLARED,
    *benchmarks.DECLARED,
    *skills.DECLARED,
    VERSION,
)
COMMANDS: dict[str, Command] = {d.path: d for d in DECLARED if isinstance(d, Command)}
GROUPS: dict[str, Group] = {d.path: d for d in DECLARED if isinstance(d, Group)}
# The CLI's own commands: they ask the catalog nothing, so no tool runs them.
OWN_COMMANDS = frozenset(
    {VERSION.path, *(d.path for d in skills.DECLARED if isinstance(d, Command))}
)
RESEARCH_COMMANDS = tuple(path for path in COMMANDS if path not in OWN_COMMANDS)
# Every parser path ("" is the root, "paper" a group) -> its --help examples.
EXAMPLES: dict[str, Examples] = {"": ROOT_EXAMPLES, **{d.path: d.examples for d in DECLARED}}
# MCP tool -> the command it runs, in declaration order.
TOOL_COMMANDS: dict[str, str] = {c.tool: path for path, c in COMMANDS.items() if c.tool}
# What only changes how the CLI shows an answer (or where it writes it): never a tool's.
PRESENTATION = frozenset(
    p.dest for path in RESEARCH_COMMANDS for p in COMMANDS[path].params if p.where == CLI
)


def check(declared: tuple[Command | Group, ...]) -> None:
    """A declaration table's own rules: each path and tool once, parents first."""
    paths = [d.path for d in declared]
    if len(set(paths)) != len(paths):
        raise ValueError("a command is declared twice")
    tools = [d.tool for d in declared if isinstance(d, Command) and d.tool]
    if len(set(tools)) != len(tools):
        raise ValueError("a tool is declared by two commands")
    for path in paths:
        parent = path.rpartition(" ")[0]
        if parent and parent not in paths[: paths.index(path)]:
            raise ValueError(f"pwc {path}: its parent {parent!r} is not declared before it")


check(DECLARED)
