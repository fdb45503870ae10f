"""What a failure may tell a client: one stable, prefixed message per failure class.

Upstream text never reaches a client raw. A 400/422 `detail` in a wording we know is re-said in
our own words from its parsed parts; anything else is cut to one short, printable line with
every URL, address and path removed.
"""

from __future__ import annotations

import json
import logging
import re

from fastmcp.exceptions import ToolError

from pwc_cli.errors import (
    AmbiguousError,
    HTTPStatusError,
    NotFoundError,
    ResponseError,
    UpstreamTimeout,
    UsageError,
)
from pwc_mcp.params import RENAMES

log = logging.getLogger("pwc_mcp.catalog")
DETAIL_CHARS = 120
REJECTED = "the catalog rejected the request"


def tool_error(error: BaseException) -> ToolError:
    """One stable, prefixed, content-safe message per failure class."""
    if isinstance(error, ToolError):
        return error
    if isinstance(error, AmbiguousError):
        return ToolError(f"ambiguous: {error}")
    if isinstance(error, NotFoundError):
        return ToolError(f"not_found: {error}")
    if isinstance(error, UsageError):
        upstream = error.__cause__ or error.__context__
        if isinstance(upstream, HTTPStatusError):  # the CLI's words around an upstream answer
            if upstream.status in (400, 422):
                return ToolError(f"invalid_argument: {rejection(upstream.detail)}")
            return ToolError(f"invalid_argument: {upstream_line(str(error))}")
        return ToolError(f"invalid_argument: {error}")
    if isinstance(error, UpstreamTimeout):
        return ToolError("upstream_timeout: the Papers With Code catalog timed out")
    if isinstance(error, HTTPStatusError):
        if error.status == 404:
            return ToolError("not_found: the requested catalog record does not exist")
        if error.status in (400, 422):
            return ToolError(f"invalid_argument: {rejection(error.detail)}")
        if error.status == 429:
            return ToolError(
                "rate_limited: the Papers With Code catalog is rate limiting; retry later"
            )
        return ToolError("upstream_error: the Papers With Code catalog request failed")
    if isinstance(error, ResponseError):
        message = str(error)
        if message.startswith(_USER_PREFIXES):
            return ToolError(f"invalid_argument: {message}")
        if message in _SAFE_RESPONSE or message.startswith(_SAFE_PREFIXES):
            return ToolError(f"upstream_error: {message}")
    log.warning("generic catalog error type=%s", type(error).__name__)
    return ToolError("upstream_error: the Papers With Code catalog request failed")


# --- upstream 400/422 details -------------------------------------------------------------

_NAME = r"(?P<name>[a-z][a-z0-9_]{0,39})"
_INT = r"-?\d{1,12}"
# Wordings of the catalog API v1 (and the sample catalog): pattern → our sentence. Only the
# parsed parameter name and numbers are carried over; `name` is shown as the tool calls it.
_KNOWN: list[tuple[re.Pattern[str], str]] = [
    (
        re.compile(rf"{_NAME} must be between (?P<low>{_INT}) and (?P<high>{_INT})"),
        "{name} must be between {low} and {high}",
    ),
    (re.compile(rf"{_NAME} must be at least (?P<low>{_INT})"), "{name} must be at least {low}"),
    (re.compile(rf"{_NAME} must be an integer"), "{name} must be an integer"),
    (re.compile(rf"{_NAME} must be a number"), "{name} must be a number"),
    (re.compile(rf"{_NAME} must be true or false"), "{name} must be true or false"),
    (
        re.compile(rf"{_NAME} must be a date in YYYY-MM-DD format"),
        "{name} must be a date in YYYY-MM-DD format",
    ),
    (re.compile(rf"{_NAME} must be one of: .*"), "{name} is not one of the accepted values"),
    (re.compile(rf"{_NAME} is required"), "{name} is required"),
    (
        re.compile(r"start_date must be on or before end_date"),
        "published_after must be on or before published_before",
    ),
    (
        re.compile(rf"at most (?P<low>{_INT}) author filters are allowed"),
        "at most {low} author filters are allowed",
    ),
]
_UPSTREAM_NAMES = {**RENAMES, "page_size": "limit", "q": "query"}

# URLs, host names, addresses and file paths: the internals a detail must not leak.
_INTERNALS = re.compile(
    r"[a-z][a-z0-9+.\-]*://\S*"  # any URL with a scheme
    r"|\[[0-9a-f:.]+\](?::\d+)?\S*"  # [IPv6]:port
    r"|\b\d{1,3}(?:\.\d{1,3}){3}(?::\d+)?\S*"  # IPv4[:port][/path]
    r"|\b(?:[a-z0-9\-]+\.)+[a-z]{2,}(?::\d+)?(?:/\S*)?"  # host.name[:port][/path]
    r"|\b[\w\-]+:\d{2,5}\b\S*"  # host:port
    r"|(?:~|\.{1,2})?(?:/[\w.\-]+){2,}/?"  # /file/system/paths
    r"|\\\\\S+|\b[a-z]:\\\S*",  # Windows shares and paths
    re.IGNORECASE,
)
_SPACE = re.compile(r"\s+")


def rejection(raw: str) -> str:
    """Our own sentence for a 400/422 body: a known wording re-said, else a cleaned line."""
    detail = _detail_text(raw)
    for pattern, sentence in _KNOWN:
        found = pattern.fullmatch(detail.strip())
        if found:
            parts = found.groupdict()
            if "name" in parts:
                parts["name"] = _UPSTREAM_NAMES.get(parts["name"], parts["name"])
            return sentence.format(**parts)
    return upstream_line(detail) or REJECTED


def upstream_line(text: str) -> str:
    """One short printable line of upstream text, without URLs, addresses or paths."""
    text = _INTERNALS.sub(" ", text)
    text = "".join(ch if ch.isprintable() else " " for ch in text)
    text = _SPACE.sub(" ", text).strip(" \t:;,-(")
    if len(text) > DETAIL_CHARS:
        text = text[:DETAIL_CHARS].rsplit(" ", 1)[0].rstrip(" :;,-(") + " …"
    return text


def _detail_text(raw: str) -> str:
    """The `detail` string of a JSON error body, or the first line of a plain-text one; cut
    JSON (bodies are read up to 4 KiB) or markup is no sentence to show."""
    try:
        body = json.loads(raw)
    except ValueError:
        text = raw.strip()
        return "" if text.startswith(("{", "[", "<")) else (text.splitlines() or [""])[0]
    detail = body.get("detail") if isinstance(body, dict) else None
    return detail if isinstance(detail, str) else ""  # structured: nothing we could re-say


# Our own wording (never upstream text): safe and useful to show.
_SAFE_RESPONSE = frozenset(
    {
        "API returned invalid JSON",
        "API returned an unexpected response shape",
        "API response did not contain a result list",
        "API response exceeded the client byte limit",
    }
)
_SAFE_PREFIXES = (
    "Papers API did not confirm",
    "parameter filtering requires",
    "API returned a model outside",
    "API returned invalid evaluation pagination",
    "Papers API returned",
    "Papers API Markdown",
    "task page API",
    "benchmark trends API",
    "API response did not contain benchmark trends",
    "framework catalog returned",
    "Paper response did not contain an ID",
)
_USER_PREFIXES = (
    "metric selection requires scanning",
    "Paper reference cannot be empty",
    "task inspection requires",
    "method inspection requires",
    "benchmark inspection requires",
)
