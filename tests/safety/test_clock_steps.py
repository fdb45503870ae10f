"""Limits that ignore the wall clock (#37): the in-process windows run on the monotonic clock, so
stepping the wall clock back an hour neither locks a client out nor stops the clean-up, and
their memory has one cap over every identity (the oldest idle go first)."""

from __future__ import annotations

import anyio
from limits import RateLimitItemPerMinute

from pwc_mcp.edge.windows import MemoryWindows, Windows
from tests.helpers.safety import FakeTime

HOUR = 3600.0


def test_a_wall_clock_step_back_changes_no_limit_and_stops_no_sweep(clock: FakeTime) -> None:
    """The attack: a client uses its 60 requests, the wall clock steps back an hour; it was
    told Retry-After 3,660 s (3,595 s a minute later) and 5,002 stale entries stayed."""
    windows = Windows("memory://")
    item = RateLimitItemPerMinute(60)

    async def scenario() -> None:
        for _ in range(60):
            assert await windows.hit(item, "request", "client") is None
        for n in range(5_001):  # a crowd, once each
            await windows.hit(item, "request", f"once {n}")
        clock.step_wall(-HOUR)
        assert await windows.hit(item, "request", "client") == 61  # the window's own wait
        clock.advance(60)
        clock.step_wall(-HOUR)
        assert await windows.hit(item, "request", "client") == 1
        clock.advance(1 + MemoryWindows.SWEEP_SECONDS)
        assert await windows.hit(item, "request", "client") is None
        assert len(windows.memory) == 1  # the sweep ran: only the key just counted

    anyio.run(scenario)


def test_the_windows_memory_has_one_cap_and_the_oldest_idle_go_first() -> None:
    clock = FakeTime()
    windows = MemoryWindows(clock.monotonic, max_hits=100)
    item = RateLimitItemPerMinute(5)
    for _ in range(5):
        assert windows.check(item, ("request", "busy"), record=True) is None
    for n in range(200):  # newcomers flood past the cap while "busy" keeps asking (refused)
        clock.advance(0.01)
        windows.check(item, ("request", f"new {n}"), record=True)
        assert windows.check(item, ("request", "busy"), record=True) is not None
    assert sum(len(h) for h in windows._hits.values()) <= 100  # noqa: SLF001 - the cap itself
    assert windows.evicted == 105  # the idle newcomers, oldest first; "busy" never
    assert ("5", "60", "request", "new 0") not in windows._hits  # noqa: SLF001
    assert ("5", "60", "request", "new 199") in windows._hits  # noqa: SLF001
