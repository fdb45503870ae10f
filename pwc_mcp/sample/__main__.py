"""``python -m pwc_mcp.sample [--host H] [--port P] [--latency-ms N]``: serve the sample catalog.

Its expected failures (a taken port, a bad argument) are one line on stderr and exit 2, like
``pwc-mcp``'s; Ctrl+C is the normal way to stop it.
"""

from __future__ import annotations

import argparse
import contextlib
import errno
import math
import sys

from pwc_mcp.sample import serve
from pwc_mcp.serving.arguments import OneLineParser, port_number

PROG = "python -m pwc_mcp.sample"


def _latency_ms(text: str) -> float:
    # float() takes "nan" and "inf", which would make every response wait forever.
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not (math.isfinite(value) and 0 <= value <= 60_000):
        raise argparse.ArgumentTypeError("must be a number of milliseconds from 0 to 60000")
    return value


def _cannot_listen(host: str, port: int, error: OSError) -> str:
    if error.errno == errno.EADDRINUSE:
        return f"{PROG}: port {port} on {host} is already in use; pass --port <free port> (0 = any)"
    return f"{PROG}: cannot listen on {host}:{port}: {error.strerror or error}"


def main(argv: list[str] | None = None) -> int:
    parser = OneLineParser(
        prog=PROG,
        description="Serve the offline Papers With Code sample catalog (API v1) on loopback.",
    )
    parser.add_argument("--host", default="127.0.0.1", help="bind address (default: 127.0.0.1)")
    parser.add_argument(
        "--port", type=port_number, default=8765, help="port, 0 for a free one (default: 8765)"
    )
    parser.add_argument(
        "--latency-ms", type=_latency_ms, default=0.0, help="delay added to every response"
    )
    args = parser.parse_args(argv)
    try:
        # uvicorn re-raises Ctrl+C once it has shut down: a deliberate stop, not a failure.
        with contextlib.suppress(KeyboardInterrupt):
            serve(args.host, args.port, args.latency_ms / 1000.0)
    except OSError as error:  # binding happens before anything is served
        print(_cannot_listen(args.host, args.port, error), file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
