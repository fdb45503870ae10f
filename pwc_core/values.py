"""The kinds of parameter values. Each raises argparse.ArgumentTypeError with the contract's
message.

A kind is a small object (not a closure) with two doors: called with the CLI's text it parses it
(argparse's `type=`), and `from_json` takes the typed JSON value of a tool argument, whose types
and bounds the tool's schema has already checked, and makes of it what the handler expects,
without a trip through text: a list item may hold a comma. Both doors share one rule per kind.
Each kind carries its bounds, so the tool schemas (pwc_mcp.params) state the same ones: every
text value has a `max_length`, every list or repeatable value a `max_items`. The bounds are sized
for real use and keep the cost of one call small.
"""

from __future__ import annotations

import argparse
import datetime as dt
import math
import re
from dataclasses import dataclass
from typing import Any, Protocol

from pwc_core.metrics import aliases_of

MAX_PARAMETER_SIZE = 9_223_372_036_854_775_806
MAX_TEXT = 500  # a name, slug, ID, URL, title or query
MAX_METRIC_NAME = 100  # leaderboard metric names are a few words
MAX_METRICS = 8  # metrics in one list, thresholds of one kind, Pareto objectives
MAX_AUTHORS = 10
_DIGITS = r"\d+(?:_\d+)*"
_SIZE = re.compile(rf"^({_DIGITS})(?:\.({_DIGITS}))?([mMbB]?)$")


class Kind(Protocol):
    """What a declaration needs of a value kind."""

    __name__: str

    @property
    def max_items(self) -> int | None: ...

    def __call__(self, text: str) -> Any: ...

    def from_json(self, value: Any) -> Any: ...


class _Same:
    """A kind whose JSON value is already what the handler takes (its schema says it all)."""

    max_items: int | None = None

    def from_json(self, value: Any) -> Any:
        return value


@dataclass(frozen=True)
class IntRange(_Same):
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
class Text(_Same):
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


TEXT = Text()  # a parameter declared without a kind (pwc_core.declare.Param)
AUTHOR = Text(max_items=MAX_AUTHORS)


@dataclass(frozen=True)
class IsoDate(_Same):
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


@dataclass(frozen=True)
class FiniteFloat:
    """A number; NaN and the infinities are refused (`nan` compares false with everything: a
    filter that lies), from text and from JSON alike."""

    max_items: int | None = None
    __name__ = "number"

    def __call__(self, text: str) -> float:
        try:
            number = float(str(text).strip())
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a number, got {text!r}") from None
        return self.from_json(number, text)

    def from_json(self, value: Any, text: Any = None) -> float:
        if not math.isfinite(value):
            shown = str(value) if text is None else text
            raise argparse.ArgumentTypeError(f"expected a finite number, got {shown!r}")
        return float(value)


finite_float = FiniteFloat()


@dataclass(frozen=True)
class ParameterSize:
    """`500M`, `1.5B`, `3_000_000_000` → an integer parameter count (inclusive ceiling)."""

    max_length: int = 32
    __name__ = "size"

    max_items = None

    def __call__(self, text: str) -> int:
        return _parameter_count(_within(text, self.max_length, "parameter size"))

    def from_json(self, value: Any) -> int:
        """A size as text ("1.5B") or as a JSON number (1500000000, 1.5e9)."""
        return self(self.text_of(value))

    @staticmethod
    def text_of(value: Any) -> Any:
        """A size sent as a JSON number (what a model naturally writes) as the text this kind
        reads, so the tool schema keeps one portable type, "string"; a non-integral or
        non-finite number becomes text the kind refuses by name."""
        if isinstance(value, bool) or not isinstance(value, int | float):
            return value
        if isinstance(value, float) and math.isfinite(value) and value.is_integer():
            return str(int(value))
        return str(value)


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
        return self.from_json(_items(text, self.max_items, self.item_length, "metrics"))

    def from_json(self, value: Any) -> tuple[str, ...]:
        """The names, each whole (a name may hold a comma); blank ones are left out."""
        names = tuple(str(item).strip() for item in value if str(item).strip())
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
        # with "=" in it stays whole.
        name, sep, value = str(text).rpartition("=")
        if not sep or not value.strip():
            raise argparse.ArgumentTypeError("expected METRIC=VALUE")
        try:
            number = float(value.strip())
        except ValueError:
            raise argparse.ArgumentTypeError("metric threshold must be numeric") from None
        return self.threshold(name, number, value.strip())

    def threshold(self, name: str, number: float, shown: Any) -> tuple[str, float]:
        if not name.strip():
            raise argparse.ArgumentTypeError("a metric name must not be blank")
        _within(name, self.name_length, "a metric name")
        if not math.isfinite(number):  # NaN passes no comparison; inf is no threshold
            raise argparse.ArgumentTypeError(
                f"metric threshold must be a finite number, got {shown!r}"
            )
        return name.strip(), number

    def from_json(self, value: Any) -> list[tuple[str, float]]:
        """A tool's {metric name: value} object: every threshold of one kind."""
        if len(value) > self.max_items:
            raise argparse.ArgumentTypeError(f"at most {self.max_items} metrics are allowed")
        return [self.threshold(str(k), float(v), v) for k, v in value.items()]


metric_threshold = MetricThreshold()


@dataclass(frozen=True)
class MetricSort:
    """`METRIC[:asc|desc|higher|lower]` -> (metric, word or None). No word: best first when the
    direction is known (pwc_core.leaderboard.sort_order); `higher`/`lower` state the direction;
    a colon followed by anything else is part of the name."""

    max_length: int = MAX_METRIC_NAME + len(":higher")
    __name__ = "METRIC[:asc|desc|higher|lower]"

    max_items = None

    def from_json(self, value: Any) -> tuple[str, str | None]:
        return self(value)

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
        return self.from_json(_items(text, self.max_items, self.item_length, "Pareto objectives"))

    def from_json(self, value: Any) -> tuple[tuple[str, str], ...]:
        """Each item `METRIC:higher|lower`, whole (a metric name may hold a comma)."""
        objectives = []
        for item in value:
            name, sep, direction = str(item).rpartition(":")
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


@dataclass(frozen=True)
class FilePath(_Same):
    """A file to write (`--chart FILE.svg`): a usable path string; the filesystem is checked
    when the file is written."""

    max_length: int = 4096  # bytes of the path's UTF-8, as the filesystem counts
    __name__ = "path"

    def __call__(self, text: str) -> str:
        if not text.strip():
            raise argparse.ArgumentTypeError("must not be empty")
        if "\x00" in text or len(text.encode("utf-8", "surrogateescape")) > self.max_length:
            raise argparse.ArgumentTypeError(
                f"not a file path (at most {self.max_length} bytes, no NUL)"
            )
        if text == "-":
            raise argparse.ArgumentTypeError("needs a file path: stdout keeps the table")
        return text


file_path = FilePath()


@dataclass(frozen=True)
class YesNo(_Same):
    """`true`/`false` as the CLI spells it (its choices); a tool sends a boolean."""

    max_length: int = len("false")
    __name__ = "true|false"

    def __call__(self, text: str) -> str:
        return str(text)

    def from_json(self, value: Any) -> Any:
        if isinstance(value, bool):
            return "true" if value else "false"
        return value


yes_no = YesNo()
