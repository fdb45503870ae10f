"""The start-up line for a catalog that is not there: an offline `make run` printed its endpoint
and then answered every call with `upstream_error`, with nothing on the console to say why.

When the first readiness probe fails, one line on stderr names the catalog URL (configuration,
shown without credentials) and the failure in closed words: a connection error's own text (from
the operating system, not the upstream), an HTTP status, or an error class; never a body.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable

from pwc_core.errors import (
    UNREACHABLE_HINT,
    CatalogUnreachable,
    HTTPStatusError,
    UpstreamTimeout,
    shown_url,
)

log = logging.getLogger("pwc_mcp")
REASON_CHARS = 200
Probe = Callable[[], bool]


def reporting_first_failure(probe: Probe, url: str, logger: logging.Logger = log) -> Probe:
    """`probe`, which logs one line if its first run fails (later runs are /health's business:
    a catalog that comes and goes must not fill the log)."""
    first = threading.Event()

    def run() -> bool:
        if first.is_set():
            return probe()
        first.set()
        try:
            ok = probe()
        except Exception as error:
            logger.error(_line(url, failure(error)))
            raise
        if not ok:
            logger.error(_line(url, "the answer was not a task list"))
        return ok

    return run


def failure(error: BaseException) -> str:
    """Why a probe failed, in words that carry no upstream content."""
    if isinstance(error, CatalogUnreachable):
        text = " ".join(error.reason.split())  # one line, whatever the resolver said
        return text[:REASON_CHARS] or type(error.__cause__ or error).__name__
    if isinstance(error, UpstreamTimeout):
        return "timed out"
    if isinstance(error, HTTPStatusError):
        return f"HTTP {error.status}"
    return type(error).__name__


def _line(url: str, reason: str) -> str:
    return (
        f"catalog {shown_url(url)} failed the first readiness probe ({reason}); /health says "
        f"unavailable until it answers; {UNREACHABLE_HINT}"
    )
