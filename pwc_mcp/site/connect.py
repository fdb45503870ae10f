"""How a client connects: the copy-paste set-up snippets, one source for every place showing them.

`snippets(endpoint)` is what the landing page (`/`, pwc_mcp.site.landing) shows for this server's
public endpoint; `markdown(HOSTED_ENDPOINT)` is the README's "Connect a client" block
(tests/test_connect_readme.py keeps the two equal) and scripts/interop.sh runs the Claude Desktop
command (`python -m pwc_mcp.site.connect desktop-command URL`) against a local server with the pinned
`mcp-remote` it installs (`python -m pwc_mcp.site.connect mcp-remote`).
"""

from __future__ import annotations

import json
import shlex
import sys
from dataclasses import dataclass

HOSTED_ENDPOINT = "https://paperswithcode.co/mcp"  # the public deployment (nginx/pwc-mcp.conf)
SERVER_KEY = "pwc"  # the name each client config files this server under
# Pinned, not `mcp-remote` alone: `npx -y` would run whatever version is newest that day, with
# the user's rights (releases before 0.1.16 ran commands from a hostile server's OAuth metadata,
# CVE-2025-6514). This is the version `make interop` bridges to a real server.
MCP_REMOTE = "mcp-remote@0.15.1"


@dataclass(frozen=True)
class Snippet:
    client: str
    where: str  # the file it goes in, or how to run it
    file: bool  # whether `where` names a file (shown as code)
    language: str  # the fenced block's language: "bash" or "json"
    text: str
    note: str = ""  # why this client needs something the others do not


def desktop_command(endpoint: str) -> list[str]:
    """The stdio bridge Claude Desktop starts (it speaks stdio only): command then arguments."""
    return ["npx", "-y", MCP_REMOTE, endpoint]


def snippets(endpoint: str) -> tuple[Snippet, ...]:
    """The four set-ups for `endpoint` (an absolute Streamable HTTP URL), in display order."""
    command, *args = desktop_command(endpoint)
    return (
        Snippet(
            "Claude Code",
            "run in a terminal",
            False,
            "bash",
            shlex.join(["claude", "mcp", "add", "--transport", "http", SERVER_KEY, endpoint]),
        ),
        Snippet(
            "VS Code",
            ".vscode/mcp.json",
            True,
            "json",
            _json({"servers": {SERVER_KEY: {"type": "http", "url": endpoint}}}),
        ),
        Snippet("Cursor", "~/.cursor/mcp.json", True, "json", _json(_servers({"url": endpoint}))),
        Snippet(
            "Claude Desktop",
            "claude_desktop_config.json",
            True,
            "json",
            _json(_servers({"command": command, "args": args})),
            "Desktop speaks stdio, so mcp-remote bridges it",
        ),
    )


def markdown(endpoint: str) -> str:
    """The snippets as README Markdown: a bold client name, where it goes, the fenced block."""
    blocks = []
    for snippet in snippets(endpoint):
        where = f"`{snippet.where}`" if snippet.file else snippet.where
        note = f"; {snippet.note}" if snippet.note else ""
        blocks.append(
            f"**{snippet.client}** ({where}{note}):\n\n```{snippet.language}\n{snippet.text}\n```\n"
        )
    return "\n".join(blocks)


def _servers(entry: dict[str, object]) -> dict[str, object]:
    return {"mcpServers": {SERVER_KEY: entry}}


def _json(value: object) -> str:
    return json.dumps(value, indent=2, ensure_ascii=False)


def main(argv: list[str]) -> int:
    """`mcp-remote`: the pinned package; `desktop-command URL`: one word a line;
    `readme`: the README block for the hosted endpoint."""
    match argv:
        case ["mcp-remote"]:
            print(MCP_REMOTE)
        case ["desktop-command", endpoint]:
            print("\n".join(desktop_command(endpoint)))
        case ["readme"]:
            print(markdown(HOSTED_ENDPOINT), end="")
        case _:
            print(
                "usage: python -m pwc_mcp.site.connect mcp-remote | desktop-command URL | readme",
                file=sys.stderr,
            )
            return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
