"""The axes of a chart in data units: a padded domain, which way it runs and readable ticks.

Better is up on a y axis and left on an x axis (the cheap, small end of a parameter axis is
on the left), whatever the metric's direction: a "lower is better" y axis and a "higher is
better" x axis are reversed. Pure arithmetic; the pixels are the renderers' (pwc_cli/charts
for the SVG, pwc_mcp/ui/leaderboard.js for the app), so both draw the same ticks.
"""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

Tick = tuple[float, str]  # a domain value and its label
LOG_SPAN = 100.0  # an x metric whose values span this factor or more is drawn on a log scale


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


def nice_step(raw: float) -> float:
    """1, 2 or 5 times a power of ten, at least `raw`."""
    if not raw > 0 or not math.isfinite(raw):
        return 1.0
    power = 10 ** math.floor(math.log10(raw))
    for factor in (1, 2, 5, 10):
        if factor * power >= raw * (1 - 1e-9):
            return factor * power
    return 10 * power


@dataclass(frozen=True)
class Axis:
    """One axis of the scatter: what it plots and, once there are points, its domain."""

    metric: str | None  # the catalog's spelling; `Parameters` is the parameter count
    direction: str | None  # "higher", "lower", or None when unknown
    scale: Literal["linear", "log"]
    reversed: bool  # values fall along the axis (rightwards, upwards) so that better is up/left
    low: float = 0.0
    high: float = 1.0
    ticks: tuple[Tick, ...] = ()


def reversed_axis(direction: str | None, along: Literal["x", "y"]) -> bool:
    return direction == ("lower" if along == "y" else "higher")


def linear_ticks(low: float, high: float, count: int = 5) -> tuple[Tick, ...]:
    step = nice_step((high - low) / count)
    first = math.ceil(low / step - 1e-9)
    decimals = max(0, -math.floor(math.log10(step) + 1e-9))
    found: list[Tick] = []
    k = first
    while k * step <= high + step * 1e-9 and len(found) < 4 * count:
        value = round(k * step, decimals)
        found.append((value, f"{value:.{decimals}f}"))
        k += 1
    return tuple(found)


def log_ticks(low: float, high: float, size: bool) -> tuple[Tick, ...]:
    """Decades (1, 2 and 5 of each when fewer than two decades show)."""
    first, last = math.ceil(math.log10(low)), math.floor(math.log10(high))
    decades = [10.0**k for k in range(first, last + 1)]
    factors = (1,) if len(decades) >= 2 else (1, 2, 5)
    values = sorted(
        f * 10.0**k
        for k in range(first - 1, last + 1)
        for f in factors
        if low <= f * 10.0**k <= high
    )
    label = parameters if size else number
    return tuple((v, label(v)) for v in values)


def axis_for(
    metric: str | None,
    direction: str | None,
    values: Sequence[float],
    along: Literal["x", "y"],
    size: bool = False,
) -> Axis:
    """The axis of `values`: a parameter count (`size`) on a log scale, and so an x metric (a
    cost such as GFLOPs) whose positive values span two decades; any other on a padded linear
    scale."""
    flipped = reversed_axis(direction, along)
    if not values:
        return Axis(metric, direction, "log" if size else "linear", flipped)
    low, high = min(values), max(values)
    if low > 0 and (size or (along == "x" and high / low >= LOG_SPAN)):
        low, high = low / 1.6, high * 1.6
        return Axis(metric, direction, "log", flipped, low, high, log_ticks(low, high, size))
    pad = (high - low) * 0.08 or max(abs(high) * 0.05, 1.0)
    low, high = low - pad, high + pad
    return Axis(metric, direction, "linear", flipped, low, high, linear_ticks(low, high))


@dataclass(frozen=True)
class DateAxis:
    """Publication dates, padded; ticks on 1 January, every few years."""

    low: dt.date
    high: dt.date
    ticks: tuple[tuple[dt.date, str], ...]


def _shift(day: dt.date, days: int) -> dt.date:
    try:
        return day + dt.timedelta(days=days)
    except OverflowError:  # a date at the calendar's edge: no padding on that side
        return day


def date_ticks(low: dt.date, high: dt.date, count: int = 8) -> tuple[tuple[dt.date, str], ...]:
    years = range(low.year + 1, high.year + 1)
    step = max(1, math.ceil(len(years) / count))
    found = [(dt.date(y, 1, 1), str(y)) for y in years if y % step == 0]
    if not found:  # within one year: the ends, by month
        found = [(d, d.strftime("%Y-%m")) for d in (low, high)]
    return tuple(found)


def date_axis(days: Sequence[dt.date]) -> DateAxis:
    low, high = min(days), max(days)
    pad = max(45, (high - low).days // 20)
    low, high = _shift(low, -pad), _shift(high, pad)
    if low == high:
        low, high = _shift(low, -1), _shift(high, 1)
    return DateAxis(low, high, date_ticks(low, high))
