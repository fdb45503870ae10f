"""A module-level server for FastMCP's developer tools (`fastmcp dev inspector`, `fastmcp inspect`).

It is the same FastMCP instance the app serves, built against $PWC_API_URL, but without the HTTP
safety layer, which those tools do not run.
"""

from __future__ import annotations

from pwc_mcp.app import build_catalog
from pwc_mcp.config import Settings
from pwc_mcp.server import build_server

mcp = build_server(build_catalog(Settings.from_env()))
