"""Value parsers for flags. Each raises argparse.ArgumentTypeError with the contract's message.

They are small callable objects (not closures) so the MCP layer can read their bounds when it
generates tool parameter schemas from the parser.
"""

from __future__ import annotations

import argparse
import datetime as dt
import math
import re
from dataclasses import dataclass

MAX_PARAMETER_SIZE = 9_223_372_036_854_775_806
_DIGITS = r"\d+(?:_\d+)*"
_SIZE = re.compile(rf"^({_DIGITS})(?:\.({_DIGITS}))?([mMbB]?)$")


@dataclass(frozen=True)
class IntRange:
    """An integer option with inclusive bounds; the message names the flag."""

    flag: str
    minimum: int | None = None
    maximum: int | None = None
    __name__ = "integer"

    def __call__(self, text: str) -> int:
        try:
            value = int(str(text).strip())
        except ValueError:
            raise argparse.ArgumentTypeError(f"{self.flag} must be an integer") from None
        if (self.minimum is not None and value < self.minimum) or (
            self.maximum is not None and value > self.maximum
        ):
            raise argparse.ArgumentTypeError(self.describe())
        return value

    def describe(self) -> str:
        if self.minimum is not None and self.maximum is not None:
            return f"{self.flag} must be {self.minimum}-{self.maximum}"
        if self.minimum is not None:
            return f"{self.flag} must be at least {self.minimum}"
        return f"{self.flag} must be at most {self.maximum}"


def iso_date(text: str) -> dt.date:
    try:
        return dt.date.fromisoformat(str(text).strip())
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a date as YYYY-MM-DD, got {text!r}") from None


iso_date.__name__ = "date"


def finite_float(text: str) -> float:
    try:
        return float(str(text).strip())
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number, got {text!r}") from None


def parameter_size(text: str) -> int:
    """`500M`, `1.5B`, `3_000_000_000` → an integer parameter count (inclusive ceiling)."""
    match = _SIZE.match(str(text).strip())
    if not match:
        raise argparse.ArgumentTypeError(
            "expected a positive integer or decimal size with M/B suffix"
        )
    whole, fraction, suffix = match.groups()
    if fraction is not None and not suffix:
        raise argparse.ArgumentTypeError(
            "expected a positive integer or decimal size with M/B suffix"
        )
    scale = {"": 1, "m": 10**6, "b": 10**9}[suffix.lower()]
    digits = whole.replace("_", "")
    frac = (fraction or "").replace("_", "")
    numerator = int(digits + frac) * scale
    denominator = 10 ** len(frac)
    if numerator % denominator:
        raise argparse.ArgumentTypeError("parameter size must resolve to a whole number")
    value = numerator // denominator
    if not 1 <= value <= MAX_PARAMETER_SIZE:
        raise argparse.ArgumentTypeError(
            f"parameter size must be between 1 and {MAX_PARAMETER_SIZE}"
        )
    return value


parameter_size.__name__ = "size"


def metric_list(text: str) -> tuple[str, ...]:
    names = tuple(item.strip() for item in str(text).split(",") if item.strip())
    if not names:
        raise argparse.ArgumentTypeError("metric list must not be empty")
    return names


def metric_threshold(text: str) -> tuple[str, float]:
    name, sep, value = str(text).partition("=")
    if not sep or not name.strip() or not value.strip():
        raise argparse.ArgumentTypeError("expected METRIC=VALUE")
    try:
        number = float(value.strip())
    except ValueError:
        raise argparse.ArgumentTypeError("metric threshold must be numeric") from None
    if math.isnan(number):
        raise argparse.ArgumentTypeError("metric threshold must be numeric")
    return name.strip(), number


def metric_sort(text: str) -> tuple[str, str]:
    raw = str(text)
    if ":" not in raw:
        if not raw.strip():
            raise argparse.ArgumentTypeError("expected METRIC[:asc|desc]")
        return raw.strip(), "desc"
    name, _, direction = raw.rpartition(":")
    if not name.strip() or direction not in ("asc", "desc"):
        raise argparse.ArgumentTypeError("expected METRIC[:asc|desc]")
    return name.strip(), direction


def pareto_objectives(text: str) -> tuple[tuple[str, str], ...]:
    objectives = []
    for item in str(text).split(","):
        name, sep, direction = item.rpartition(":")
        if not sep or not name.strip() or direction.strip() not in ("higher", "lower"):
            raise argparse.ArgumentTypeError("expected METRIC:higher,METRIC:lower")
        objectives.append((name.strip(), direction.strip()))
    if len(objectives) < 2:
        raise argparse.ArgumentTypeError("Pareto selection requires at least two metrics")
    return tuple(objectives)


for _fn, _name in (
    (finite_float, "number"),
    (metric_list, "METRIC[,METRIC]"),
    (metric_threshold, "METRIC=VALUE"),
    (metric_sort, "METRIC[:asc|desc]"),
    (pareto_objectives, "METRIC:higher,METRIC:lower"),
):
    _fn.__name__ = _name
