"""One upstream fetch shared by every concurrent identical miss (pwc_mcp/caching/cache.py)."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from pwc_core.transport import Reply
from pwc_mcp.caching.shared_values import Miss

if TYPE_CHECKING:
    from pwc_mcp.caching.reads import Stale

Fetch = Callable[[], tuple[Any, int | None, str]]  # (value, size or None: serve only, status)
Codec = tuple[Callable[[Any], bytes], Callable[[bytes], Any]]  # a value as a level-2 payload
Led = tuple[Any, "int | None", "Stale | None"]  # a leader's value, stamp, label when stale


class Flight:
    __slots__ = ("done", "value", "stamp", "stale", "error")

    def __init__(self) -> None:
        self.done = threading.Event()
        self.value: Any = None
        self.stamp: int | None = None  # of the stored answer; None when it was not stored
        self.stale: Stale | None = None  # the value is a last good answer, so labelled
        self.error: BaseException | None = None


def size_of(value: Any) -> int:
    """Bytes a level-1 value is counted as (what `fetch` reports for a fetched one)."""
    if isinstance(value, Miss):
        return len(value.detail.encode()) + 64
    return len(value.body) if isinstance(value, Reply) else len(value)
