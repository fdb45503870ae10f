"""What a failure may tell a client: one stable, prefixed message per failure class.

Upstream text never reaches a client raw. A 400/422 `detail` in a wording we know is re-said in
our own words from its parsed parts; anything else is cut to one short, printable line with
every URL, address and path removed.
"""

from __future__ import annotations

import argparse
import json
import logging
import re

from pwc_core.commands import FILTER_FLAGS
from pwc_core.commands.filter_names import filter_values
from pwc_core.errors import (
    AmbiguousError,
    ArgumentError,
    HTTPStatusError,
    NotFoundError,
    PwcError,
    RefusedRequest,
    ResponseTooLarge,
    UnconfirmedFilter,
    UpstreamShapeError,
    UpstreamTimeout,
    UsageError,
)
from pwc_mcp.answers.tool_words import ambiguity_said, argument_said, said, upstream_line
from pwc_mcp.answers.tool_words import (
    in_tool_words as in_tool_words,  # pwc_mcp.tools.sections says it too
)
from pwc_mcp.failures import Failure, Kind
from pwc_mcp.params import RENAMES, parameter_names

log = logging.getLogger("pwc_mcp.catalog")
REJECTED = "the catalog rejected the request"
# Failures said in our own words (never upstream text), by type: what the catalog answered
# wrong, or what the user must change. Any other error (a bare ResponseError, an undecodable
# body, an unreachable catalog) is the generic line below, so nothing unvetted is shown.
OWN_WORDS: dict[type[PwcError], Kind] = {
    UpstreamShapeError: Kind.UPSTREAM_ERROR,
    UnconfirmedFilter: Kind.UPSTREAM_ERROR,
    ResponseTooLarge: Kind.UPSTREAM_ERROR,
    RefusedRequest: Kind.INVALID_ARGUMENT,
}
FAILED = "the Papers With Code catalog request failed"  # the generic line: nothing unvetted


def tool_error(
    error: BaseException, command: str | None = None, args: argparse.Namespace | None = None
) -> Failure:
    """The one place a core error (pwc_core.errors) becomes a Failure: its kind by the error's
    type, one stable, content-safe message per failure class. With the `command` that failed
    (and its `args`), options are named as its tool names them, not as CLI flags. A Failure
    already typed passes through unchanged."""
    if isinstance(error, Failure):
        return error
    upstream = error.__cause__ or error.__context__
    if isinstance(error, AmbiguousError):
        if error.ambiguity is not None:
            return Failure(Kind.AMBIGUOUS, ambiguity_said(error.ambiguity, command))
        return Failure(Kind.AMBIGUOUS, said(error, command))
    if isinstance(error, NotFoundError):
        listed = None
        if isinstance(upstream, HTTPStatusError) and command and args is not None:
            listed = missing_filter(upstream, command, args)
            if listed and error.closest:
                listed += f"; closest names: {', '.join(error.closest)}"
        return Failure(Kind.NOT_FOUND, listed or said(error, command))
    if isinstance(error, UsageError):
        if isinstance(upstream, HTTPStatusError):  # the CLI's words around an upstream answer
            if upstream.status in (400, 422):
                return Failure(Kind.INVALID_ARGUMENT, rejection(upstream.detail))
            return Failure(Kind.INVALID_ARGUMENT, upstream_line(str(error)))
        if isinstance(error, ArgumentError) and command:
            return Failure(Kind.INVALID_ARGUMENT, argument_said(error, command))
        return Failure(Kind.INVALID_ARGUMENT, said(error, command))
    if isinstance(error, UpstreamTimeout):
        return Failure(Kind.UPSTREAM_TIMEOUT, "the Papers With Code catalog timed out")
    if isinstance(error, HTTPStatusError):
        if error.status == 404:
            return Failure(Kind.NOT_FOUND, "the requested catalog record does not exist")
        if error.status in (400, 422):
            return Failure(Kind.INVALID_ARGUMENT, rejection(error.detail))
        if error.status == 429:
            return Failure(
                Kind.RATE_LIMITED, "the Papers With Code catalog is rate limiting; retry later"
            )
        return Failure(Kind.UPSTREAM_ERROR, FAILED)
    for cls, kind in OWN_WORDS.items():
        if isinstance(error, cls):
            return Failure(kind, said(error, command))
    log.warning("generic catalog error type=%s", type(error).__name__)
    return Failure(Kind.UPSTREAM_ERROR, FAILED)


# --- a listing's filters the catalog does not hold ---------------------------------------

_NOT_FOUND = re.compile(r"(?P<kind>[A-Za-z]{1,20}) not found: (?P<value>.{1,500})")


def missing_filter(upstream: HTTPStatusError, command: str, args: argparse.Namespace) -> str | None:
    """A catalog 404 for a listing's filters, said as the tool's parameter and the value asked:
    `task 'no-such-task' is not in the catalog`. The catalog's own detail picks which filter
    (its wording is parsed, never shown); None when no filter was given."""
    names = parameter_names(command)
    asked = [
        (dest, str(item))
        for dest in FILTER_FLAGS
        for item in filter_values(getattr(args, dest, None))
        if dest in names
    ]
    if not asked:
        return None
    found = _NOT_FOUND.fullmatch(_detail_text(upstream.detail).strip())
    if found:
        kind, value = found["kind"].casefold(), found["value"].strip().casefold()
        named = [(d, v) for d, v in asked if d == kind and v.strip().casefold() == value]
        asked = named or asked
    said = ", ".join(f"{names[dest]} {value!r}" for dest, value in asked)
    if len(asked) == 1:
        return f"{said} is not in the catalog"
    return f"no catalog record matches {said}"


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
_UPSTREAM_NAMES = {**RENAMES, "q": "query"}


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
