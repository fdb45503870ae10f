"""Upstream error text without the internals it may name: URLs, IP addresses (IPv6 with zone
IDs, compressed, exploded, IPv4-mapped or bracketed with a port; IPv4 with a port), host names,
host:port pairs and file paths (POSIX, Windows, UNC). The CLI's messages and the MCP server's
errors both clean upstream text here (issue #24)."""

from __future__ import annotations

import ipaddress
import re

# The lookbehind starts a match only where a scheme starts: without it the engine retries from
# every letter of a long word, quadratic in its length (32,000 letters took 4 s).
_URL = re.compile(r"(?<![a-z0-9+.\-])[a-z][a-z0-9+.\-]*://\S*", re.IGNORECASE)
# A run of hex digits, dots and at least two colons, with an optional zone ID, brackets and
# port: checked with `ipaddress`, so `12:30:00` stays while `fe80::1%eth0` goes.
_IPV6 = re.compile(
    r"(?<![0-9a-f:.])\[?(?P<address>[0-9a-f.]*:[0-9a-f.]*:[0-9a-f:.]*)"
    r"(?:%[\w.\-]+)?\]?(?::\d{1,5})?",
    re.IGNORECASE,
)
_OTHERS = re.compile(
    r"(?<![\d.])\d{1,3}(?:\.\d{1,3}){3}(?::\d{1,5})?(?:/\S*)?"  # IPv4[:port][/path]
    # host.name[:port][/path]: a last label of 2+ characters that starts with a letter
    r"|(?<![\w.\-])(?:[a-z0-9_](?:[a-z0-9_\-]*[a-z0-9_])?\.)+[a-z][a-z0-9\-]*[a-z0-9]"
    r"(?::\d{1,5})?(?:/\S*)?"
    r"|\blocalhost\b(?::\d{1,5})?"
    r"|(?<![\w.\-])[a-z][\w\-]*:\d{2,5}\b"  # host:port
    r"|(?<![\w/.:])(?:~|\.{1,2})?/[\w.\-]+(?:/[\w.\-]*)*"  # /file/system/paths
    r"|\\\\\S+|\b[a-z]:[\\/]\S*",  # Windows shares and paths
    re.IGNORECASE,
)
_SPACE = re.compile(r"\s+")


def without_internals(text: str) -> str:
    """`text` with every URL, address, host name and path replaced by a space, in one line."""
    text = _URL.sub(" ", text)
    text = _IPV6.sub(_unless_ordinary, text)
    text = _OTHERS.sub(" ", text)
    return _SPACE.sub(" ", text).strip()


def _unless_ordinary(found: re.Match[str]) -> str:
    address = found["address"]  # a sentence may go on right after it with `.` or `:`
    spellings = (address, address.rstrip("."), address.rstrip(".:"))
    if address.count(":") >= 3 or any(_is_ipv6(a) for a in spellings):
        return " "
    return found[0]  # two colons between numbers (a time, a ratio): no address


def _is_ipv6(text: str) -> bool:
    try:
        ipaddress.IPv6Address(text)
    except ValueError:
        return False
    return True
