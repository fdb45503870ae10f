"""The MCP Server Card (SEP-2127 draft): who this server is and where to connect, for machines.

Served at `<endpoint>/server-card` (`/mcp/server-card`, the location the draft reserves; the
media type is what hf-mcp-server and other peers publish) and linked from `/.well-known/mcp` as
`server_card_url`. The card names no tools, resources or prompts, as the draft asks: those stay
with `tools/list` and `/docs`. Its identity fields are also what the landing page and the
well-known document say, so the three cannot disagree.
"""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import urlsplit

from pwc_mcp import __version__
from pwc_mcp.edge.jsonrpc import SUPPORTED_PROTOCOLS
from pwc_mcp.site.representations import Representation

MEDIA_TYPE = "application/mcp-server-card+json"
SCHEMA = "https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json"
# The MCP Registry's server.json format (API v0.1) that the registry entry follows.
REGISTRY_SCHEMA = "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json"
PATH = "/server-card"  # appended to the Streamable HTTP endpoint
NAMESPACE = "co.paperswithcode"  # reverse DNS of the hosted domain
TITLE = "Papers With Code"
DESCRIPTION = "Anonymous, read-only research catalog: papers, tasks, benchmarks"
# A JSON document is never a page: no sniffing it into HTML, whatever a client makes of it.
HEADERS = {"X-Content-Type-Options": "nosniff"}


def card(origin: str, endpoint_path: str, server_name: str) -> dict[str, Any]:
    """The card for a server at `origin` (scheme://host[:port]) whose MCP endpoint is
    `endpoint_path`; `server_name` is its `serverInfo.name`."""
    return {
        "$schema": SCHEMA,
        "name": f"{NAMESPACE}/{server_name}",
        "version": __version__,
        "title": TITLE,
        "description": DESCRIPTION,
        "websiteUrl": f"{origin}/",  # the landing page: set-up for each client, every tool
        "remotes": [
            {
                "type": "streamable-http",
                "url": f"{origin}{endpoint_path}",
                "supportedProtocolVersions": list(SUPPORTED_PROTOCOLS),
            }
        ],
    }


def registry_entry(endpoint: str, server_name: str) -> dict[str, Any]:
    """The MCP Registry's `server.json` for the hosted `endpoint`: the card's identity and remote,
    in the registry's format (its remotes carry no protocol versions)."""
    url = urlsplit(endpoint)
    entry = card(f"{url.scheme}://{url.netloc}", url.path, server_name)
    entry["$schema"] = REGISTRY_SCHEMA
    for remote in entry["remotes"]:
        del remote["supportedProtocolVersions"]
    return entry


def representation(origin: str, endpoint_path: str, server_name: str) -> Representation:
    body = json.dumps(card(origin, endpoint_path, server_name), ensure_ascii=False).encode()
    return Representation(body, MEDIA_TYPE)
