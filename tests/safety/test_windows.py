"""The in-process moving windows (pwc_mcp.edge.windows.MemoryWindows) against two oracles: a
brute-force count over every admitted hit, and ``limits``' own memory moving window (the
implementation they replace), on random schedules of hits and clock moves.

``limits`` drops a hit exactly `expiry` old in a timer thread but still counts it when it is
hit, so its answer at that very instant depends on the thread's timing: the schedules compared
with it step off the whole seconds; the brute-force count, which decides, also gets them."""

from __future__ import annotations

import math
import random

import limits.storage.memory as limits_memory
import pytest
from limits import RateLimitItemPerMinute, RateLimitItemPerSecond
from limits.storage import storage_from_string
from limits.strategies import MovingWindowRateLimiter

from pwc_mcp.edge.windows import MemoryWindows
from tests.helpers.safety import FakeTime


def brute_force(admitted: list[float], now: float, limit: int, expiry: float) -> int | None:
    """None if a hit now is admitted, else the seconds to wait: every admitted hit counts while
    it is at most `expiry` old; the slot frees when the oldest of those leaves."""
    inside = [t for t in admitted if t >= now - expiry]
    if len(inside) < limit:
        return None
    return max(1, math.floor(min(inside) + expiry - now) + 1)


EXACT_STEPS = (0.0, 0.5, 1.0, 7.0, 30.0, 59.0, 60.0, 61.0)  # window edges hit exactly
OFF_GRID_STEPS = (0.0, 0.37, 1.13, 7.9, 29.3, 58.7, 61.1)


@pytest.mark.parametrize("seed", range(20))
@pytest.mark.parametrize("steps", [EXACT_STEPS, OFF_GRID_STEPS], ids=["exact", "off-grid"])
def test_windows_agree_with_a_brute_force_count_and_with_limits(
    seed: int, steps: tuple[float, ...], monkeypatch: pytest.MonkeyPatch
) -> None:
    rng = random.Random(seed)
    clock = FakeTime()
    monkeypatch.setattr(limits_memory, "time", clock)
    ours = MemoryWindows(clock.time)
    theirs = MovingWindowRateLimiter(storage_from_string("memory://"))
    item = RateLimitItemPerMinute(rng.randint(1, 6))
    admitted: dict[str, list[float]] = {"a": [], "b": []}
    for _ in range(300):
        clock.advance(rng.choice(steps))
        key = rng.choice("ab")
        record = rng.random() < 0.8
        expected = brute_force(admitted[key], clock.now, item.amount, 60)
        got = ours.check(item, ("request", key), record=record)
        assert got == expected
        theirs_admits = (theirs.hit if record else theirs.test)(item, "ns", key)
        if steps is OFF_GRID_STEPS:
            assert theirs_admits == (expected is None)
        if record and got is None:
            admitted[key].append(clock.now)


def test_a_flooding_key_holds_only_its_limit_and_idle_keys_are_swept() -> None:
    clock = FakeTime()
    windows = MemoryWindows(clock.time)
    item = RateLimitItemPerMinute(5)
    results = [windows.check(item, ("request", "flood"), record=True) for _ in range(10_000)]
    assert results.count(None) == 5 and results[5] == 61  # refused: the oldest leaves in 61 s
    for n in range(1_000):  # a crowd of newcomers, each once
        windows.check(item, ("request", f"newcomer {n}"), record=True)
    assert len(windows) == 1_001
    assert max(len(h) for h in windows._hits.values()) == 5  # noqa: SLF001 - the bound itself
    clock.advance(60 + MemoryWindows.SWEEP_SECONDS)
    assert windows.check(item, ("request", "flood"), record=True) is None  # any call may sweep
    assert len(windows) == 1  # only the key this call counted


def test_windows_of_different_lengths_and_limits_are_separate() -> None:
    clock = FakeTime()
    windows = MemoryWindows(clock.time)
    per_second, per_minute = RateLimitItemPerSecond(1), RateLimitItemPerMinute(1)
    assert windows.check(per_second, ("k",), record=True) is None
    assert windows.check(per_minute, ("k",), record=True) is None  # its own window
    assert windows.check(per_second, ("k",), record=True) == 2  # 1 s, then strictly after
    clock.advance(1.5)
    assert windows.check(per_second, ("k",), record=True) is None
    assert windows.check(per_minute, ("k",), record=True) == 59
    clock.advance(60 + MemoryWindows.SWEEP_SECONDS)
    windows.check(per_second, ("other",), record=False)  # sweeps by the longest window seen
    assert windows.check(per_minute, ("k",), record=True) is None
