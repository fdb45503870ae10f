"""Error classes of the `pwc` contract: each carries its stable CLI exit code."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from urllib.parse import urlsplit

from pwc_core.scrub import without_internals
from pwc_core.wording import Ambiguity, Words

# The `pwc` exit codes, a stable contract: each error class below carries one (`exit_code`).
EXIT_CODES = {
    0: "success",
    2: "invalid usage",
    3: "network/server failure",
    4: "unusable API response or not found",
}
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]+")
DETAIL_LIMIT = 200
# Said wherever the catalog cannot be reached: by `pwc` on a connection failure and by
# `pwc-mcp` when its first readiness probe fails. An offline `make run` looked healthy.
UNREACHABLE_HINT = (
    "to work offline run `make demo` or `pwc-mcp --sample-catalog` (the sample catalog; it "
    "prints the PWC_API_URL to use), or set PWC_API_URL to a reachable catalog"
)


class PwcError(Exception):
    """Base of every handled error; `str(err)` is the one-line user message (the CLI's).
    Raised with Words, it keeps them: the MCP server says them in its tools' words."""

    exit_code = 1
    words: Words | None = None

    def __init__(self, message: str | Words = "") -> None:
        if isinstance(message, Words):
            self.words = message
        super().__init__(str(message))


class TransportError(PwcError):
    """The catalog could not be reached or answered with a failure status (exit 3)."""

    exit_code = 3

    def __init__(self, reason: str) -> None:
        super().__init__(f"API request failed: {reason}")
        self.reason = reason


class CatalogUnreachable(TransportError):
    """No connection to the catalog at all (a name that does not resolve, a refused connection,
    no route): the message names the catalog and how to work without it (exit 3)."""

    def __init__(self, reason: str, url: str) -> None:
        PwcError.__init__(self, f"API request failed: {reason}; {unreachable(url)}")
        self.reason = reason
        self.url = url


def unreachable(url: str) -> str:
    """The clause that names an unreachable catalog and the way out, for the CLI and the server
    alike; the URL is configuration, shown without any credentials, query or fragment."""
    return f"the catalog at {shown_url(url)} cannot be reached: {UNREACHABLE_HINT}"


def shown_url(url: str) -> str:
    parts = urlsplit(url)
    return parts._replace(netloc=parts.netloc.rpartition("@")[2], query="", fragment="").geturl()


class UpstreamTimeout(TransportError):
    """The catalog did not answer whole within the request's deadline (or the tool call's)."""

    def __init__(self) -> None:
        super().__init__("timed out")


class HTTPStatusError(TransportError):
    """A non-2xx answer; `detail` is at most the first 4096 bytes of its body."""

    def __init__(self, status: int, detail: str) -> None:
        PwcError.__init__(self, f"API request failed ({status}): {detail}")
        self.reason = detail
        self.status = status
        self.detail = detail


class ResponseError(PwcError):
    """The catalog's answer is unusable or a lookup failed (exit 4)."""

    exit_code = 4


class NotFoundError(ResponseError):
    """A named paper or entity does not exist in the catalog; `closest` holds the catalog names
    offered instead where the message's words cannot carry them to every front end (a
    listing filter's, pwc_core.commands.filter_names)."""

    def __init__(self, message: str | Words = "", closest: Sequence[str] = ()) -> None:
        super().__init__(message)
        self.closest = tuple(closest)


# Each condition below has its own class so that callers (the MCP server's error categories)
# decide by type, never by a message's wording. A bare ResponseError is a condition nobody named.


class UpstreamShapeError(ResponseError):
    """The catalog answered, but not in the form its contract promises: invalid JSON, an object
    without its list or ID, a Markdown chunk that does not continue the last one."""


class UnconfirmedFilter(ResponseError):
    """The catalog did not confirm (or visibly ignored) a filter that was asked for, as an
    older API would; unfiltered results are refused rather than shown as filtered."""


class ResponseTooLarge(ResponseError):
    """The answer exceeded the client's byte limit (announced or decoded)."""


class UndecodableResponse(ResponseError):
    """The answer's content coding is stacked, unsupported or corrupt."""


class RefusedRequest(ResponseError):
    """A request that cannot be answered as asked: nothing to look up (an empty paper
    reference) or more rows to scan than the safety limit allows. The user changes the request;
    the contract keeps it at exit 4."""


class UsageError(PwcError):
    """Option values that parse but cannot be used (together), or that the catalog rejects
    (exit 2)."""

    exit_code = 2


class ArgumentError(UsageError):
    """One option's value refused: `dest` lets each caller name the option its own way (the
    CLI its flag, the MCP server its parameter); `reason` is the sentence without the name."""

    def __init__(self, dest: str, flag: str, reason: str | Words) -> None:
        super().__init__(f"argument {flag}: {reason}")
        self.dest = dest
        self.flag = flag
        self.reason = reason


class AmbiguousError(UsageError):
    """A name matches several records; the message lists the candidates. The user fixes it by
    naming one of them, so it is a usage error like an unknown name (exit 2). `ambiguity`
    holds the candidates and what tells them apart, for a tool's message."""

    def __init__(self, message: str | Words, ambiguity: Ambiguity | None = None) -> None:
        super().__init__(message)
        self.ambiguity = ambiguity


def upstream_detail(raw: str) -> str:
    """The catalog's own reason from an error body, one line and bounded: the `detail`
    sentence of a JSON body or the first line of plain text; never JSON or HTML itself, and
    never the addresses, host names or paths it names."""
    try:
        body = json.loads(raw)
    except ValueError:  # a short plain-text reason is kept; an HTML page is not
        first = raw.strip().splitlines()[0] if raw.strip() else ""
        return "" if first.startswith("<") else _cleaned(first)
    detail = body.get("detail") if isinstance(body, dict) else None
    if isinstance(detail, list):  # FastAPI-style validation errors: their messages only
        detail = "; ".join(str(d["msg"]) for d in detail if isinstance(d, dict) and "msg" in d)
    return _cleaned(detail) if isinstance(detail, str) else ""


def _cleaned(text: str) -> str:
    # Cut after cleaning, so that no cut leaves the start of an address behind.
    return without_internals(_CONTROL.sub(" ", text))[:DETAIL_LIMIT]
