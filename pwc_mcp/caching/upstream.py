"""Whom a call's catalog requests are charged to (issue #37): the calling client's account.

The server's tool-call layer (pwc_mcp.server.ToolCalls) opens one `Account` per tool call or
resource read, for the client the request is counted against, and keeps it in a contextvar:
the worker threads the call hands to (anyio's, the snippet readers) inherit it. `Metered` wraps
the one upstream client under the caches, so exactly the requests that reach the catalog are
charged (a cache hit, level 1 or 2, or a coalesced wait charges nothing). Each request is
charged before it is made; once the client's budget is spent the request is not made
(`BudgetSpent`) and the call ends with the rate-limit answer (docs/decisions.md, "An upstream
budget per client"). The snippet readers share their pool fairly by the account's `client`.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable, Iterator
from contextvars import ContextVar

from pwc_core.errors import HTTPStatusError, UpstreamTimeout
from pwc_core.transport import CatalogClient, Params, Reply
from pwc_mcp.caching.cache_routes import route

# One catalog request made: (route label, status class, seconds). Every value is content-free:
# the declared route (cache_routes), "2xx".."5xx", "timeout" or "error".
Observe = Callable[[str, str, float], None]
Charge = Callable[[], int | None]  # one catalog request: None when admitted, else seconds to wait


class BudgetSpent(Exception):
    """The calling client's catalog request budget is spent; retry in `wait` seconds."""

    def __init__(self, wait: int) -> None:
        super().__init__(f"catalog request budget spent; retry in {wait} s")
        self.wait = wait


class Account:
    """One call's catalog requests, charged to its client (`client`: a hashed identity)."""

    def __init__(self, client: str, charge: Charge | None = None) -> None:
        self.client = client
        self.charge = charge
        self.requests = 0  # requests made (charged and admitted)
        self.refused: int | None = None  # seconds to wait, once a request was refused
        self._lock = threading.Lock()

    def spend(self) -> None:
        """Charge one catalog request, or raise BudgetSpent (and remember the wait)."""
        wait = None if self.charge is None else self.charge()
        with self._lock:
            if wait is not None:
                self.refused = max(self.refused or 0, wait)
            else:
                self.requests += 1
        if wait is not None:
            raise BudgetSpent(wait)


CURRENT: ContextVar[Account | None] = ContextVar("pwc_upstream_account", default=None)


@contextlib.contextmanager
def charged_to(account: Account) -> Iterator[Account]:
    """Charge the block's catalog requests (its worker threads' too) to `account`."""
    token = CURRENT.set(account)
    try:
        yield account
    finally:
        CURRENT.reset(token)


def current_client() -> str:
    """The client the current call is for; "" outside a call (the CLI, tests, start-up)."""
    account = CURRENT.get()
    return "" if account is None else account.client


class Metered(CatalogClient):
    """The upstream client, each request charged to the current call's account before it is
    made (none outside a call: the readiness probe and the CLI are not charged), and each
    request made timed for `observe` (the app's /metrics) when set."""

    observe: Observe | None = None

    def get(self, path: str, params: Params = None) -> Reply:
        account = CURRENT.get()
        if account is not None:
            account.spend()
        if self.observe is None:
            return super().get(path, params)
        started, outcome = self.clock(), "error"
        try:
            reply = super().get(path, params)
            outcome = status_class(reply.status)
            return reply
        except HTTPStatusError as error:
            outcome = status_class(error.status)
            raise
        except UpstreamTimeout:
            outcome = "timeout"
            raise
        finally:
            self.observe(route(path)[0], outcome, self.clock() - started)


def status_class(status: int) -> str:
    return f"{status // 100}xx" if 100 <= status <= 599 else "error"
