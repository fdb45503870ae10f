"""Degraded answers: a handler says when part of its result was cut, skipped or failed.

A handler that still answers after a deadline, a bounded scan that stopped early or a lookup
that failed calls `note(reason)`. Whoever runs the handler may `watch()` the call and learn
whether anything in it was degraded: the server's result memo keeps only results that were not
(docs/decisions.md, "Remembered tool results"). The record is a contextvar, so it crosses into
worker threads with the context (anyio copies it) and concurrent calls never share one.
"""

from __future__ import annotations

import contextvars
from collections.abc import Iterator
from contextlib import contextmanager

_CURRENT: contextvars.ContextVar[list[str] | None] = contextvars.ContextVar(
    "pwc_degraded", default=None
)


def note(reason: str) -> None:
    """Record that the answer being built is degraded (a no-op when nobody watches)."""
    record = _CURRENT.get()
    if record is not None and reason not in record:
        record.append(reason)


@contextmanager
def watch() -> Iterator[list[str]]:
    """The reasons noted inside the block (empty when the answer is whole)."""
    record: list[str] = []
    token = _CURRENT.set(record)
    try:
        yield record
    finally:
        _CURRENT.reset(token)
