"""The shared storage's time one call may spend: a budget carried in a contextvar.

A call that reads many catalog answers (a 1,000-row leaderboard is dozens of pages) asks the
shared cache once or twice for each. Each operation is bounded on its own (the socket timeout,
and a slow reply degrades the storage: pwc_mcp/storage/health.py), but many operations each just
under those bounds would add up. So a call (`CachedCatalog.reading()`) runs `per_call()`: the
seconds its operations took, measured on the storage's monotonic clock, are spent from one
budget shared by the worker threads it hands to (anyio copies the context, the budget object
is the same); once it is spent, the rest of the call proceeds as if there were no shared storage
(its own cache and the upstream), counted `over_budget`. Outside a call nothing is bounded.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator
from contextvars import ContextVar

CALL_SECONDS = 0.5


class Budget:
    """Seconds of shared-storage time left to one call; thread-safe."""

    def __init__(self, seconds: float) -> None:
        self.left = seconds
        self._lock = threading.Lock()

    def spend(self, seconds: float) -> None:
        with self._lock:
            self.left -= seconds


_CURRENT: ContextVar[Budget | None] = ContextVar("pwc_storage_budget", default=None)


@contextlib.contextmanager
def per_call(seconds: float = CALL_SECONDS) -> Iterator[Budget]:
    """Bound the block's shared-storage time to `seconds` (an enclosing budget stays in force:
    a nested block spends from it)."""
    outer = _CURRENT.get()
    if outer is not None:
        yield outer
        return
    budget = Budget(seconds)
    token = _CURRENT.set(budget)
    try:
        yield budget
    finally:
        _CURRENT.reset(token)


def affordable() -> bool:
    """Whether this context may still use the shared storage."""
    budget = _CURRENT.get()
    return budget is None or budget.left > 0


def spend(seconds: float) -> None:
    budget = _CURRENT.get()
    if budget is not None:
        budget.spend(seconds)
