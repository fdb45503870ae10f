"""The agent skill for `pwc` (Agent Skills format: YAML front matter with `name` and
`description`, then Markdown instructions), generated from the command declarations
(pwc_core.declarations) so it cannot drift from the CLI: every research command with its flags,
examples and MCP tool, the exit codes and when to prefer `--json`.

`pwc skills add` writes it to disk (pwc_cli.skills); the MCP server serves the same text as the
resource `skill://pwc/SKILL.md` (pwc_mcp.tools.skills)."""

from __future__ import annotations

import json

from pwc_core import __version__
from pwc_core.declarations import COMMANDS, DESCRIPTION, RESEARCH_COMMANDS
from pwc_core.declare import Command, Param
from pwc_core.errors import EXIT_CODES
from pwc_core.transport import DEFAULT_BASE_URL

NAME = "pwc"  # the skill's name: its directory, the last segment of its skill:// URI
FILE = "SKILL.md"
URI = f"skill://{NAME}/{FILE}"
MIME_TYPE = "text/markdown"
SUMMARY = (
    "Search and read the Papers With Code research catalog with the read-only pwc CLI: "
    "papers (details, full text, evaluations, lineage), tasks, methods, conferences, "
    "organizations, frameworks and benchmark leaderboards with constraints. Use it when a task "
    "needs research papers, state-of-the-art results or leaderboard comparisons."
)
JSON_ADVICE = (
    "Prefer `--json` whenever you will read fields rather than show the output to a person: it "
    'prints one line `{"schema_version": "v1", "data": ...}` with the catalog\'s answer exactly '
    "as it came, while the default output is a table or text for people (aligned columns in a "
    "terminal; TSV or Markdown when piped), cut to fit. Keep the default for `paper read` (the "
    "paper's Markdown) and when a person reads the result."
)


def usage(command: Command) -> str:
    """`pwc paper info PAPER [options]`; an entity command takes its NAME as the first word."""
    words = ["pwc", command.path]
    if command.entity:
        words.append("NAME")
    words += [p.flag for p in command.cli() if p.positional]
    if any(p.flags for p in command.cli()):
        words.append("[options]")
    return " ".join(words)


def spelled(param: Param) -> str:
    """How the flag is given: `--limit N` (`--page-size N`), `--mode {hybrid,keyword,semantic}`."""
    if param.switch:
        value = ""
    elif param.choices is not None:
        value = " {" + ",".join(param.choices) + "}"
    else:
        value = " " + (param.metavar or param.dest.upper())
    return ", ".join(f"`{flag}{value}`" for flag in param.flags)


def section(command: Command) -> list[str]:
    """One command: its usage, help, arguments and flags, examples and MCP tool."""
    lines = [f"### `{usage(command)}`", "", command.help, ""]
    if command.entity:
        lines.append(f"- `NAME`: {command.by_dest['name'].help} (the same as `--name NAME`)")
    for param in command.cli():
        if param.positional:
            lines.append(f"- `{param.flag}`: {param.help}")
    for param in command.cli():
        if param.flags:
            repeat = " (repeatable)" if param.repeat and "repeatable" not in param.help else ""
            lines.append(f"- {spelled(param)}: {param.help}{repeat}")
    lines += ["", "```bash", *command.examples, "```", ""]
    if command.tool:
        lines += [
            f"On an MCP connection to the pwc server, the same is the tool `{command.tool}`.",
            "",
        ]
    return lines


def markdown() -> str:
    """The whole SKILL.md."""
    codes = [f"- `{code}`: {meaning}" for code, meaning in EXIT_CODES.items()]
    lines = [
        "---",
        f"name: {NAME}",
        f"description: {json.dumps(SUMMARY)}",  # a JSON string is a YAML scalar, any colon
        "---",
        "",
        f"# {NAME}: the Papers With Code research catalog",
        "",
        f"{DESCRIPTION} Generated from the commands of pwc {__version__}; rerun "
        "`pwc skills add --force` after upgrading pwc.",
        "",
        "## How to use it",
        "",
        "- Run `pwc <command> --help` for a command's flags and examples.",
        "- Find a paper with `pwc search`, then pass its arXiv ID to the `paper` commands: an "
        "ID is exact, a title may be ambiguous.",
        "- Read a paper's outline first (`pwc paper read PAPER --outline`), then only the "
        "sections you need (`--section`).",
        "- Ask a benchmark's leaderboard with constraints (`--max-parameters`, `--min`, "
        "`--pareto`) rather than filtering rows yourself.",
        f"- The catalog is `$PWC_API_URL` (default {DEFAULT_BASE_URL}); pwc only reads it.",
        "",
        "## Output: when to prefer `--json`",
        "",
        JSON_ADVICE,
        "",
        "## Exit codes",
        "",
        "Errors are one `pwc: <message>` line on stderr; stdout stays empty.",
        "",
        *codes,
        "",
        "## Commands",
        "",
    ]
    for path in RESEARCH_COMMANDS:
        lines += section(COMMANDS[path])
    return "\n".join(lines).rstrip("\n") + "\n"
