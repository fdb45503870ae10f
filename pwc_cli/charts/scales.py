"""Axes of a chart: a linear value scale (better up), a log parameter scale and a date scale,
each a domain mapped onto a pixel range with readable ticks. Pure arithmetic."""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Sequence
from dataclasses import dataclass

Tick = tuple[float, str]  # a domain value and its label


def number(value: float) -> str:
    """A metric value as people write it: 88.55, 0.7, 1200 (at most 4 decimals, no `-0`)."""
    if value == 0:
        return "0"
    text = f"{value:.4f}".rstrip("0").rstrip(".")
    return text if abs(value) < 1e6 else f"{value:.4g}"


def parameters(value: float) -> str:
    """A parameter count for an axis: 500k, 2M, 1.5B, 1T."""
    for scale, suffix in ((10**12, "T"), (10**9, "B"), (10**6, "M"), (10**3, "k")):
        if value >= scale:
            return f"{value / scale:.1f}".rstrip("0").rstrip(".") + suffix
    return f"{value:.0f}"


@dataclass(frozen=True)
class Linear:
    """Values onto [start, end] pixels; `start` is where the worst end of the domain goes."""

    low: float
    high: float
    start: float
    end: float
    flip: bool = False  # True: `high` maps to `start` (smaller values are better)

    def __call__(self, value: float) -> float:
        fraction = (value - self.low) / (self.high - self.low)
        if self.flip:
            fraction = 1 - fraction
        return self.start + fraction * (self.end - self.start)

    def ticks(self, count: int = 5) -> list[Tick]:
        step = nice_step((self.high - self.low) / count)
        first = math.ceil(self.low / step - 1e-9)
        decimals = max(0, -math.floor(math.log10(step) + 1e-9))
        found: list[Tick] = []
        k = first
        while k * step <= self.high + step * 1e-9 and len(found) < 4 * count:
            value = round(k * step, decimals)
            found.append((value, f"{value:.{decimals}f}"))
            k += 1
        return found


def nice_step(raw: float) -> float:
    """1, 2 or 5 times a power of ten, at least `raw`."""
    if not raw > 0 or not math.isfinite(raw):
        return 1.0
    power = 10 ** math.floor(math.log10(raw))
    for factor in (1, 2, 5, 10):
        if factor * power >= raw * (1 - 1e-9):
            return factor * power
    return 10 * power


def value_scale(values: Sequence[float], start: float, end: float, direction: str | None) -> Linear:
    """A padded domain around `values`, better values towards `end` (the top of a chart)."""
    low, high = min(values), max(values)
    pad = (high - low) * 0.08 or max(abs(high) * 0.05, 1.0)
    return Linear(low - pad, high + pad, start, end, flip=direction == "lower")


@dataclass(frozen=True)
class Log:
    """Positive numbers onto [start, end] pixels on a base-10 log scale."""

    low: float
    high: float
    start: float
    end: float

    def __call__(self, value: float) -> float:
        span = math.log10(self.high) - math.log10(self.low)
        fraction = (math.log10(value) - math.log10(self.low)) / span
        return self.start + fraction * (self.end - self.start)

    def ticks(self) -> list[Tick]:
        first, last = math.ceil(math.log10(self.low)), math.floor(math.log10(self.high))
        decades = [10.0**k for k in range(first, last + 1)]
        factors = (1,) if len(decades) >= 2 else (1, 2, 5)
        values = sorted(
            f * 10.0**k
            for k in range(first - 1, last + 1)
            for f in factors
            if self.low <= f * 10.0**k <= self.high
        )
        return [(v, parameters(v)) for v in values]


def log_scale(values: Sequence[int], start: float, end: float) -> Log:
    low, high = min(values), max(values)
    return Log(low / 1.6, high * 1.6, start, end)


@dataclass(frozen=True)
class Dates:
    """Dates onto [start, end] pixels; ticks on 1 January, every few years."""

    low: dt.date
    high: dt.date
    start: float
    end: float

    def __call__(self, day: dt.date) -> float:
        span = (self.high - self.low).days
        return self.start + (day - self.low).days / span * (self.end - self.start)

    def ticks(self, count: int = 8) -> list[tuple[dt.date, str]]:
        years = range(self.low.year + 1, self.high.year + 1)
        step = max(1, math.ceil(len(years) / count))
        found = [(dt.date(y, 1, 1), str(y)) for y in years if y % step == 0]
        if not found:  # within one year: the ends, by month
            found = [(d, d.strftime("%Y-%m")) for d in (self.low, self.high)]
        return found


def _shift(day: dt.date, days: int) -> dt.date:
    try:
        return day + dt.timedelta(days=days)
    except OverflowError:  # a date at the calendar's edge: no padding on that side
        return day


def date_scale(days: Sequence[dt.date], start: float, end: float) -> Dates:
    low, high = min(days), max(days)
    pad = max(45, (high - low).days // 20)
    low, high = _shift(low, -pad), _shift(high, pad)
    if low == high:
        low, high = _shift(low, -1), _shift(high, 1)
    return Dates(low, high, start, end)
