"""The one typed failure of the server: a kind from a closed set and a message in our words.

A tool says it as an isError result with the text `<kind>: <message>` (a `Failure` is FastMCP's
`ToolError`); a resource read or a prompt maps its `kind` to a JSON-RPC error
(pwc_mcp.server). Nothing parses the text back: rewording a message never changes its kind.
"""

from __future__ import annotations

from enum import StrEnum

from fastmcp.exceptions import ToolError


class Kind(StrEnum):
    """The stable prefixes a client may switch on (README: "MCP tools, resources and prompts")."""

    NOT_FOUND = "not_found"
    AMBIGUOUS = "ambiguous"
    INVALID_ARGUMENT = "invalid_argument"
    RATE_LIMITED = "rate_limited"
    UPSTREAM_TIMEOUT = "upstream_timeout"
    UPSTREAM_ERROR = "upstream_error"
    PAPER_CHANGED = "paper_changed"  # read_paper: the text changed under a cursor
    NO_MARKDOWN = "no_markdown"  # read_paper: the catalog holds no text for the paper


class Failure(ToolError):
    """A failure of one kind; `str()` is the text a client reads, `message` the part after the
    kind."""

    def __init__(self, kind: Kind, message: str) -> None:
        super().__init__(f"{kind}: {message}")
        self.kind = kind
        self.message = message
