"""``python -m pwc_mcp.sample [--host H] [--port P] [--latency-ms N]``: serve the sample catalog."""

from __future__ import annotations

import argparse

from pwc_mcp.sample import serve


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m pwc_mcp.sample",
        description="Serve the offline Papers With Code sample catalog (API v1) on loopback.",
    )
    parser.add_argument("--host", default="127.0.0.1", help="bind address (default: 127.0.0.1)")
    parser.add_argument(
        "--port", type=int, default=8765, help="port, 0 for a free one (default: 8765)"
    )
    parser.add_argument(
        "--latency-ms", type=float, default=0.0, help="delay added to every response"
    )
    args = parser.parse_args(argv)
    serve(args.host, args.port, args.latency_ms / 1000.0)


if __name__ == "__main__":
    main()
