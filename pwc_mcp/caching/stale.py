"""Stale if error: a key's last good answer, served while the catalog fails for that key.

An answer is kept past its family's TTL until it is `max_stale` seconds old
(`PWC_MCP_MAX_STALE_SECONDS`, default 24 hours; 0 keeps none): in level 1 as the same entry,
stale (pwc_mcp/caching/bounded_cache.py: it counts against the ceilings and is the first to
make room), in level 2 as the same value, its expiry that much later (a value with no more than
that grace left is stale: pwc_mcp/caching/leases.py). A stale entry is never a hit: a call that
finds one asks the catalog, as for a miss. Only when the catalog then fails for the key (a
timeout, a transport error, a 429 or 5xx, a body that fails its shape check) does the last good
answer stand in, labelled with a `Stale` (when it was fetched, its age, the failure's label),
recorded in the call's reads (pwc_mcp/caching/reads.py): a call that used one is never
remembered (pwc_mcp/caching/memo.py) nor stored anywhere as fresh, so the next call after the
catalog recovers is fresh. An answer of the catalog (404, 409, 422: `failed` says no) is never
masked. Every replica must run with the same bound: level 2 tells fresh from stale by it.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from pwc_mcp.caching.answer_checks import failed, status_label
from pwc_mcp.caching.bounded_cache import BoundedTTLCache
from pwc_mcp.caching.reads import Stale, noted
from pwc_mcp.caching.shared_cache import Found
from pwc_mcp.caching.shared_values import Miss

__all__ = ["LastGood", "Stale", "grace", "noted", "oldest", "reason"]  # the label is the call's


def grace(ttl: float, max_stale: float) -> float:
    """Seconds an answer of this TTL is kept past it: until it is `max_stale` old."""
    return max(0.0, max_stale - ttl)


def reason(error: BaseException) -> str | None:
    """The failure's label when a last good answer may stand in for it; None for an answer
    of the catalog (404, 409, 422: never masked) and for anything but an Exception."""
    if not isinstance(error, Exception):
        return None
    label = status_label(error)
    return label if failed(label) else None


def oldest(stales: list[Stale]) -> Stale | None:
    """The label of a call that used several stale answers: the oldest one's."""
    return min(stales, key=lambda s: s.as_of) if stales else None


class LastGood:
    """Finds the last good answer of a key when the catalog failed for it."""

    def __init__(self, max_stale: float, wall: Callable[[], float] = time.time) -> None:
        self.max_stale = max_stale
        self.wall = wall

    def find(
        self,
        cache: BoundedTTLCache,
        key: str,
        error: BaseException,
        shared: tuple[Found | None, Callable[[bytes], Any]] | None = None,
    ) -> tuple[Any, Stale] | None:
        """(value, label) of the stale answer kept for `key` in level 1, else in level 2
        (`shared`: the stale value found there, if any, and its decoder), or None: no such
        answer, or `error` is an answer of the catalog."""
        why = reason(error) if self.max_stale > 0 else None
        if why is None:
            return None
        aged = cache.lookup_stale(key)
        if aged is not None:
            value, age = aged[0], aged[2]
        elif shared is not None and shared[0] is not None:
            value = shared[1](shared[0].payload)
            age = cache.ttl + cache.grace - shared[0].ttl
        else:
            return None
        if value is None or isinstance(value, Miss) or age > self.max_stale:
            return None  # a kept "not found" stays the catalog's answer, never labelled
        return value, Stale(as_of=self.wall() - age, age_s=int(age), reason=why)
