"""The Host grammar shared by the allowlist check (pwc_mcp.edge.guards) and start-up validation
(pwc_mcp.config): one definition, so a setting that passes validation is one the guard accepts;
and the URL checks the settings built on it."""

from __future__ import annotations

import re
from urllib.parse import urlsplit

HOST_ENTRY = re.compile(r"(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(?::([0-9]{1,5}|\*))?")


def split_host(value: str, *, entry: bool) -> tuple[str, str | None] | None:
    """("host", "port" | "*" | None) from a Host header or an allowlist entry; None if malformed.

    Only an allowlist ``entry`` may use the ``*`` port."""
    match = HOST_ENTRY.fullmatch(value.strip().lower())
    if match is None or (match.group(2) == "*" and not entry):
        return None
    return match.group(1), match.group(2)


def has_host(url: str) -> bool:
    try:
        return bool(urlsplit(url).hostname)
    except ValueError:  # e.g. an unclosed IPv6 bracket
        return False


def origin_of(value: str) -> str | None:
    """``scheme://host[:port]`` (lower-cased) from an http(s) origin, or None if it is not one."""
    try:
        url = urlsplit(value)
        url.port  # noqa: B018  (raises ValueError on a bad port)
    except ValueError:
        return None
    if (
        url.scheme not in ("http", "https")
        or url.username is not None
        or url.password is not None
        or url.path not in ("", "/")
        or url.query
        or url.fragment
        or split_host(url.netloc, entry=False) is None
    ):
        return None
    return f"{url.scheme}://{url.netloc.lower()}"
