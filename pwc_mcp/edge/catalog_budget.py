"""Catalog requests per client per minute: what one identity's calls may cost the catalog
(issue #37; docs/decisions.md, "An upstream budget per client").

Calls are limited per minute, but one call may cause dozens of catalog requests
(`against_sota` 47, a cold 25-row search 26 with its snippets), so the calls alone do not bound
a client's upstream cost. This budget does: each catalog request a call causes (only real
upstream requests: pwc_mcp.caching.upstream charges them where they are made) is one hit of the
client's window, and of its IPv6 /48's (`GROUP_FACTOR` x), under the same identity rules as
every other limit. A request over the budget is not made, and its call ends with the
rate-limit answer; a client whose budget is spent is refused up front (HTTP 429, Retry-After
from the window) until the window has room again.

The windows are this process's, on the limiter's monotonic clock, like the concurrency limits:
the hits come from worker threads (one lock around our moving windows), and charging every
catalog request through a shared storage would add a round trip to each. N replicas let one
client cause up to N x the budget: still bounded by configuration.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from limits import RateLimitItem, RateLimitItemPerMinute

from pwc_mcp.edge.identity import Client
from pwc_mcp.edge.windows import MemoryWindows

KIND = "upstream"


class CatalogBudget:
    """Thread-safe per-client (and per-/48) windows of catalog requests."""

    def __init__(self, limit: int, group_factor: int, clock: Callable[[], float]) -> None:
        self.item: RateLimitItem = RateLimitItemPerMinute(limit)
        self.group_item: RateLimitItem = RateLimitItemPerMinute(limit * group_factor)
        self.windows = MemoryWindows(clock)
        self._lock = threading.Lock()

    def spent(self, client: Client) -> int | None:
        """None while `client` may cause one more catalog request, else the seconds to wait."""
        return self._check(client, record=False)

    def charge(self, client: Client) -> int | None:
        """One catalog request: None when admitted (and counted), else the seconds to wait."""
        return self._check(client, record=True)

    def _check(self, client: Client, *, record: bool) -> int | None:
        # The /48 first without a hit, so a refused client spends nothing of its site's.
        with self._lock:
            if client.group is not None:
                wait = self.windows.check(
                    self.group_item, (f"{KIND}-site", client.group), record=False
                )
                if wait is not None:
                    return wait
            wait = self.windows.check(self.item, (KIND, client.key), record=record)
            if wait is None and record and client.group is not None:
                wait = self.windows.check(
                    self.group_item, (f"{KIND}-site", client.group), record=True
                )
            return wait
