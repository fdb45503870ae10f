"""A stop that never cuts a call: the drain between a stop signal and uvicorn's own shutdown.

On SIGTERM (or Ctrl+C) `pwc-mcp` first drains (pwc_mcp.cli): the port stays open, `/health`
answers "draining" (503) so a load balancer stops sending, every new POST /mcp is refused at once
with a JSON-RPC error (503, ``Retry-After``, ``Connection: close``; nginx passes it to another
replica), and the calls already admitted run to their end. The drain ends when none is left, or
after `window(call_timeout)`: the longest an admitted request can still take (its body, then its
call). Only then does uvicorn close the port and, after `FINAL_SECONDS`, cancel what still runs,
which the response bound answers as a JSON-RPC error too (pwc_mcp.edge.guards), never a
plain-text 500 or a traceback. `stop_seconds` is the whole of it: what a container engine must
wait before it kills the process (deploy/compose.yaml's `stop_grace_period`).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from starlette.types import ASGIApp, Receive, Scope, Send

from pwc_mcp.edge.admission import BODY_SECONDS, is_mcp_post
from pwc_mcp.edge.jsonrpc import INTERNAL_ERROR, send_error

ANSWER_SECONDS = 3.0  # after its deadline, a call's own answer: the error it ends with, sent
FINAL_SECONDS = 2  # uvicorn's graceful shutdown: the last responses and connection closes
POLL_SECONDS = 0.1  # how often the drain looks for a second Ctrl+C (uvicorn's own tick)
RETRY_AFTER = b"1"  # another replica answers now; this one, once restarted
# What a refusal during the drain and a call cut at its very end say: both safe to repeat.
STOPPING = "server restarting: the request was not run; retry it"
CUT = "server restarting: the call was stopped before its answer; retry it"
STOP_HEADERS = ((b"retry-after", RETRY_AFTER), (b"connection", b"close"))


def window(call_timeout: float, body_seconds: float = BODY_SECONDS) -> float:
    """The longest a request admitted before the stop may still take: its body, its call, the
    answer."""
    return body_seconds + call_timeout + ANSWER_SECONDS


def stop_seconds(call_timeout: float) -> float:
    """From the stop signal to the process's end, at most: the drain, then uvicorn's shutdown."""
    return window(call_timeout) + FINAL_SECONDS


class Drain:
    """The calls in flight and whether the server is stopping; one per process (per event loop:
    the counts are only touched on it)."""

    def __init__(self, window_seconds: float) -> None:
        self.window = window_seconds
        self.draining = False
        self.in_flight = 0
        self._idle = asyncio.Event()
        self._idle.set()

    def enter(self) -> None:
        self.in_flight += 1
        self._idle.clear()

    def leave(self) -> None:
        self.in_flight -= 1
        if self.in_flight == 0:
            self._idle.set()

    async def run(self, forced: Callable[[], bool]) -> bool:
        """Drain: refuse new calls and wait for those in flight, at most `window` seconds or
        until `forced()` (a second Ctrl+C). True when none was left running."""
        self.draining = True
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.window
        while self.in_flight and not forced() and (left := deadline - loop.time()) > 0:
            try:
                await asyncio.wait_for(self._idle.wait(), min(POLL_SECONDS, left))
            except TimeoutError:
                continue
        return self.in_flight == 0


class DrainGate:
    """POST /mcp while draining: refused before it spends anything; otherwise counted in flight
    until its response is sent."""

    def __init__(self, app: ASGIApp, drain: Drain, *, mcp_path: str) -> None:
        self.app = app
        self.drain = drain
        self.mcp_path = mcp_path

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if not is_mcp_post(scope, self.mcp_path):
            await self.app(scope, receive, send)
            return
        if self.drain.draining:
            await send_error(send, 503, INTERNAL_ERROR, STOPPING, headers=STOP_HEADERS)
            return
        self.drain.enter()
        try:
            await self.app(scope, receive, send)
        finally:
            self.drain.leave()
