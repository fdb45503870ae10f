"""The Host grammar shared by the allowlist check (pwc_mcp.edge.guards) and start-up validation
(pwc_mcp.config): one definition, so a setting that passes validation is one the guard accepts."""

from __future__ import annotations

import re

HOST_ENTRY = re.compile(r"(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(?::([0-9]{1,5}|\*))?")


def split_host(value: str, *, entry: bool) -> tuple[str, str | None] | None:
    """("host", "port" | "*" | None) from a Host header or an allowlist entry; None if malformed.

    Only an allowlist ``entry`` may use the ``*`` port."""
    match = HOST_ENTRY.fullmatch(value.strip().lower())
    if match is None or (match.group(2) == "*" and not entry):
        return None
    return match.group(1), match.group(2)
