"""Value parsers for flags. Each raises argparse.ArgumentTypeError with the contract's message.

They are small callable objects (not closures) that carry their bounds, so the MCP layer reads
the same bounds when it generates tool parameter schemas from the parser: every text value has a
`max_length`, every list or repeatable flag a `max_items` (repeats are counted by
`BoundedAppend`). The bounds are sized for real use and keep the cost of one call small.
"""

from __future__ import annotations

import argparse
import datetime as dt
import math
import re
from dataclasses import dataclass
from typing import Any

from pwc_core.metrics import aliases_of

MAX_PARAMETER_SIZE = 9_223_372_036_854_775_806
MAX_TEXT = 500  # a name, slug, ID, URL, title or query
MAX_METRIC_NAME = 100  # leaderboard metric names are a few words
MAX_METRICS = 8  # metrics in one list, thresholds of one kind, Pareto objectives
MAX_AUTHORS = 10
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


@dataclass(frozen=True)
class Text:
    """Free text (a name, slug, reference or query) of at most `max_length` characters; with
    `max_items`, the bound of a flag that repeats (`action="append"`)."""

    max_length: int = MAX_TEXT
    max_items: int | None = None
    __name__ = "text"

    def __call__(self, text: str) -> str:
        return _within(text, self.max_length, "text")


def _within(text: Any, limit: int, what: str) -> str:
    value = str(text)
    if len(value) > limit:
        raise argparse.ArgumentTypeError(f"{what} must be at most {limit} characters")
    return value


TEXT = Text()  # every flag declared without a type (see BoundedStore)
AUTHOR = Text(max_items=MAX_AUTHORS)


@dataclass(frozen=True)
class IsoDate:
    max_length: int = len("YYYY-MM-DD")
    __name__ = "date"

    def __call__(self, text: str) -> dt.date:
        raw = str(text)
        try:
            if len(raw) > self.max_length:
                raise ValueError
            return dt.date.fromisoformat(raw.strip())
        except ValueError:
            shown = repr(raw) if len(raw) <= self.max_length else "a longer text"
            raise argparse.ArgumentTypeError(
                f"expected a date as YYYY-MM-DD, got {shown}"
            ) from None


iso_date = IsoDate()


def finite_float(text: str) -> float:
    try:
        number = float(str(text).strip())
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number, got {text!r}") from None
    if not math.isfinite(number):  # `nan` compares false with everything: a filter that lies
        raise argparse.ArgumentTypeError(f"expected a finite number, got {text!r}")
    return number


@dataclass(frozen=True)
class ParameterSize:
    """`500M`, `1.5B`, `3_000_000_000` → an integer parameter count (inclusive ceiling)."""

    max_length: int = 32
    __name__ = "size"

    def __call__(self, text: str) -> int:
        return _parameter_count(_within(text, self.max_length, "parameter size"))


def _parameter_count(text: str) -> int:
    match = _SIZE.match(str(text).strip())
    if not match or (match.group(2) is not None and not match.group(3)):  # `1.5` needs M/B
        raise argparse.ArgumentTypeError(
            "expected a positive integer or decimal size with M/B suffix "
            f"(500M, 1.5B, 3_000_000_000), got {str(text)!r}"
        )
    whole, fraction, suffix = match.groups()
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


parameter_size = ParameterSize()


def _items(text: str, max_items: int, item_length: int, what: str) -> list[str]:
    """Comma-separated items, counted and measured before any is parsed."""
    items = str(text).split(",")
    if sum(1 for item in items if item.strip()) > max_items:
        raise argparse.ArgumentTypeError(f"at most {max_items} {what} are allowed")
    if any(len(item) > item_length for item in items):
        raise argparse.ArgumentTypeError(
            f"each of the {what} must be at most {item_length} characters"
        )
    return items


@dataclass(frozen=True)
class MetricList:
    max_items: int = MAX_METRICS
    item_length: int = MAX_METRIC_NAME
    __name__ = "METRIC[,METRIC]"

    def __call__(self, text: str) -> tuple[str, ...]:
        items = _items(text, self.max_items, self.item_length, "metrics")
        names = tuple(item.strip() for item in items if item.strip())
        if not names:
            raise argparse.ArgumentTypeError("metric list must not be empty")
        return names


metric_list = MetricList()


@dataclass(frozen=True)
class MetricThreshold:
    """`METRIC=VALUE`; the flag repeats at most `max_items` times."""

    max_items: int = MAX_METRICS
    name_length: int = MAX_METRIC_NAME
    __name__ = "METRIC=VALUE"

    def __call__(self, text: str) -> tuple[str, float]:
        # The value is a number and never holds "=": split at the last one, so a metric name
        # with "=" in it (a tool's {name: value} object) stays whole.
        name, sep, value = str(text).rpartition("=")
        if not sep or not value.strip():
            raise argparse.ArgumentTypeError("expected METRIC=VALUE")
        if not name.strip():
            raise argparse.ArgumentTypeError("a metric name must not be blank")
        _within(name, self.name_length, "a metric name")
        try:
            number = float(value.strip())
        except ValueError:
            raise argparse.ArgumentTypeError("metric threshold must be numeric") from None
        if not math.isfinite(number):  # NaN passes no comparison; inf is no threshold
            raise argparse.ArgumentTypeError(
                f"metric threshold must be a finite number, got {value.strip()!r}"
            )
        return name.strip(), number


metric_threshold = MetricThreshold()


@dataclass(frozen=True)
class MetricSort:
    """`METRIC[:asc|desc|higher|lower]` -> (metric, word or None). No word: best first when the
    direction is known (pwc_core.leaderboard.sort_order); `higher`/`lower` state the direction;
    a colon followed by anything else is part of the name."""

    max_length: int = MAX_METRIC_NAME + len(":higher")
    __name__ = "METRIC[:asc|desc|higher|lower]"

    def __call__(self, text: str) -> tuple[str, str | None]:
        raw = _within(text, self.max_length, "a sort metric")
        name, sep, word = raw.rpartition(":")
        if sep and word.strip() in SORT_WORDS:
            if not name.strip():
                raise argparse.ArgumentTypeError("expected METRIC[:asc|desc|higher|lower]")
            return name.strip(), word.strip()
        if not raw.strip():
            raise argparse.ArgumentTypeError("expected METRIC[:asc|desc|higher|lower]")
        return raw.strip(), None


SORT_WORDS = ("asc", "desc", "higher", "lower")
metric_sort = MetricSort()


@dataclass(frozen=True)
class ParetoObjectives:
    min_items: int = 2
    max_items: int = MAX_METRICS
    item_length: int = MAX_METRIC_NAME + len(":higher")
    __name__ = "METRIC:higher,METRIC:lower"

    def __call__(self, text: str) -> tuple[tuple[str, str], ...]:
        objectives = []
        for item in _items(text, self.max_items, self.item_length, "Pareto objectives"):
            name, sep, direction = item.rpartition(":")
            if not sep or not name.strip() or direction.strip() not in ("higher", "lower"):
                raise argparse.ArgumentTypeError("expected METRIC:higher,METRIC:lower")
            objectives.append((name.strip(), direction.strip()))
        if len(objectives) < self.min_items:
            raise argparse.ArgumentTypeError("Pareto selection requires at least two metrics")
        seen: dict[str, str] = {}
        for name, _ in objectives:  # one metric both higher and lower is no trade-off
            key = _metric_key(name)
            if key in seen:
                raise argparse.ArgumentTypeError(
                    f"each Pareto objective must be a different metric; {seen[key]!r} and "
                    f"{name!r} are the same metric"
                    if seen[key] != name
                    else f"each Pareto objective must be a different metric; {name!r} repeats"
                )
            seen[key] = name
        return tuple(objectives)


def _metric_key(name: str) -> str:
    """One key for the names of one metric: case-insensitive, aliases (Top-1, Top 1 Accuracy)
    folded together by the leaderboard's alias table."""
    wanted = " ".join(name.split()).casefold()
    return min([wanted, *aliases_of(wanted)])


pareto_objectives = ParetoObjectives()


# --- actions: no flag without a bound ---------------------------------------------------------


class BoundedStore(argparse._StoreAction):
    """The default action; a flag declared without a type takes bounded TEXT."""

    def __init__(self, option_strings: list[str], dest: str, type: Any = None, **kw: Any) -> None:
        super().__init__(option_strings, dest, type=TEXT if type is None else type, **kw)


class BoundedAppend(argparse._AppendAction):
    """`action="append"` repeated at most `type.max_items` times, refused while parsing."""

    def __call__(self, parser: Any, namespace: Any, values: Any, option_string: Any = None) -> None:
        limit = self.type.max_items  # type: ignore[union-attr]
        if len(getattr(namespace, self.dest, None) or ()) >= limit:
            raise argparse.ArgumentError(self, f"may be given at most {limit} times")
        super().__call__(parser, namespace, values, option_string)


def bound_text_by_default(parser: argparse.ArgumentParser) -> None:
    """A flag this parser gets without `action=` or `type=` takes bounded TEXT."""
    parser.register("action", None, BoundedStore)
    parser.register("action", "store", BoundedStore)


finite_float.__name__ = "number"
