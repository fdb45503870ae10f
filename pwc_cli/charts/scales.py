"""The chart model's axes (pwc_core.chart_axes: domains, orientation, ticks) onto SVG pixels.
Pure arithmetic; the app (pwc_mcp/ui/leaderboard.js) maps the same axes the same way."""

from __future__ import annotations

import datetime as dt
import math
from dataclasses import dataclass

from pwc_core.chart_axes import Axis, DateAxis, Tick, number, parameters

__all__ = ["Dates", "Scale", "number", "parameters"]


@dataclass(frozen=True)
class Scale:
    """An axis onto [start, end] pixels: `start` is where its low end goes unless reversed."""

    axis: Axis
    start: float
    end: float

    def __call__(self, value: float) -> float:
        low, high = self.axis.low, self.axis.high
        if self.axis.scale == "log":
            span = math.log10(high) - math.log10(low)
            fraction = (math.log10(value) - math.log10(low)) / span
        else:
            fraction = (value - low) / (high - low)
        if self.axis.reversed:
            fraction = 1 - fraction
        return self.start + fraction * (self.end - self.start)

    def ticks(self) -> tuple[Tick, ...]:
        return self.axis.ticks


@dataclass(frozen=True)
class Dates:
    """A date axis onto [start, end] pixels."""

    axis: DateAxis
    start: float
    end: float

    def __call__(self, day: dt.date) -> float:
        span = (self.axis.high - self.axis.low).days
        return self.start + (day - self.axis.low).days / span * (self.end - self.start)

    def ticks(self) -> tuple[tuple[dt.date, str], ...]:
        return self.axis.ticks
