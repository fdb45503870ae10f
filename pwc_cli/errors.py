"""Error classes of the `pwc` contract: each carries its stable CLI exit code."""

from __future__ import annotations


class PwcError(Exception):
    """Base of every handled error; `str(err)` is the one-line user message."""

    exit_code = 1


class TransportError(PwcError):
    """The catalog could not be reached or answered with a failure status (exit 3)."""

    exit_code = 3

    def __init__(self, reason: str) -> None:
        super().__init__(f"API request failed: {reason}")
        self.reason = reason


class UpstreamTimeout(TransportError):
    """The catalog did not answer within the timeout (connect or read)."""

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
    """A named paper or entity does not exist in the catalog."""


class AmbiguousError(ResponseError):
    """A name matches several records; the message lists the candidates."""


class UsageError(PwcError):
    """Option values that parse but cannot be used together (exit 2)."""

    exit_code = 2
