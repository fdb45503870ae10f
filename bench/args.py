"""What the `python -m bench...` entry points share: a parser whose usage errors are one line,
argument types that refuse what would fail later with a traceback, and one-line failures."""

from __future__ import annotations

import argparse
import math
import sys
from collections.abc import Callable

from pwc_mcp.serving.arguments import OneLineParser, port_number

__all__ = ["OneLineParser", "clients", "guarded", "one_line", "port", "positive", "positive_int"]

port = port_number  # the same rule as pwc-mcp's --port: 0-65535, no digits argparse would mangle
MAX_LINE = 300  # a log line can be a whole JSON body


def positive_int(text: str) -> int:
    # 0 rounds would measure nothing and then divide by it; a huge one would never end.
    if not (text.isascii() and text.isdigit() and 0 < len(text) <= 6 and int(text) > 0):
        raise argparse.ArgumentTypeError("must be a whole number from 1 to 999999")
    return int(text)


def positive(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not (math.isfinite(value) and value > 0):  # "nan" and "inf" pass float()
        raise argparse.ArgumentTypeError("must be a positive number")
    return value


def clients(text: str) -> list[int]:
    """`1,4,16`: the concurrency levels, each a positive whole number."""
    try:
        levels = [positive_int(part.strip()) for part in text.split(",") if part.strip()]
    except argparse.ArgumentTypeError:
        levels = []
    if not levels:
        raise argparse.ArgumentTypeError("must be positive whole numbers separated by commas")
    return levels


def one_line(error: BaseException) -> str:
    """An expected failure's message on one line: its first line (what failed) and, when it
    carries a server's log tail, the tail's last line (why)."""
    lines = [line.strip() for line in str(error).splitlines() if line.strip()]
    if not lines:
        return type(error).__name__
    head = lines[0].rstrip(":")
    text = head if len(lines) == 1 else f"{head}: {lines[-1]}"
    return text if len(text) <= MAX_LINE else text[: MAX_LINE - 1] + "…"


def guarded(prog: str, work: Callable[[], int]) -> int:
    """Run an entry point's work: its expected failures (a server that does not start, a
    refused measurement, a file that cannot be written, Ctrl+C) are one line on stderr and exit
    1 (130 for Ctrl+C); anything else is a bug and keeps its traceback."""
    try:
        return work()
    except (RuntimeError, OSError) as error:  # bench.load.BenchFailure is a RuntimeError
        print(f"{prog}: FAILED: {one_line(error)}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print(f"{prog}: interrupted", file=sys.stderr)
        return 130
