"""Command-line arguments every `python -m` entry point of the project shares (`pwc-mcp`, the
sample catalog, the benchmarks): usage errors in one line, and a port number parsed strictly."""

from __future__ import annotations

import argparse
from typing import NoReturn


def port_number(text: str) -> int:
    # isdigit() alone passes "²" and 5,000-digit strings, which int() refuses with a traceback.
    digits = text.lstrip("0") or "0"
    if not (text.isascii() and text.isdigit() and len(digits) <= 5) or int(digits) > 65535:
        raise argparse.ArgumentTypeError("must be an integer between 0 and 65535 (0 = a free port)")
    return int(digits)


class OneLineParser(argparse.ArgumentParser):
    """argparse whose usage errors are one line on stderr (exit 2): the full usage block is in
    --help, and a wrapped usage line above the error would bury it. Every `python -m` entry point
    of the project uses it (the sample catalog, the benchmarks)."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message}; run '{self.prog} --help'\n")
