"""The `pwc-mcp` entry point, kept light: `--help` and `--version` never import FastMCP.

`--version` also says what uvicorn runs on (pwc_mcp.serving.runtime: uvloop and httptools when both
import, else asyncio and h11), the same choice `pwc-mcp` then serves with.

Start-up order: parse, validate the configuration, bind the socket(s) (a taken port fails here,
before FastMCP is imported), build the app, run its start-up, and only then listen: the port accepts
connections once every request on it is answered at once (issue #27), and the endpoint is printed
at that moment.
"""

from __future__ import annotations

import argparse
import contextlib
import errno
import logging
import os
import shlex
import signal
import sys
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

from pwc_mcp import __version__
from pwc_mcp.serving.arguments import OneLineParser, port_number

if TYPE_CHECKING:
    import socket

    from pwc_mcp.config import Settings

log = logging.getLogger("pwc_mcp")
SAMPLE_PORT_ENV = "PWC_SAMPLE_PORT"
# The form that works everywhere, `make run` and `make demo` included (they pass no flags).
PORT_HINT = "set PORT=<free port>, or PORT=0 for any free port (PORT=0 make demo)"


class VersionAction(argparse.Action):
    """`--version`: the version, then the event loop and HTTP parser, decided only when asked
    (`--help` and every start-up stay free of the imports it takes)."""

    def __init__(self, option_strings: list[str], dest: str, **kwargs: object) -> None:
        super().__init__(
            option_strings, dest, nargs=0, default=argparse.SUPPRESS, help="show version and exit"
        )

    def __call__(self, parser: argparse.ArgumentParser, *args: object) -> NoReturn:
        from pwc_mcp.serving import runtime

        print(f"pwc-mcp {__version__}\n{runtime.current().describe()}")  # stdout, as argparse's
        parser.exit(0)


def build_parser() -> argparse.ArgumentParser:
    from pwc_mcp.config.environment_help import environment_help

    parser = OneLineParser(
        prog="pwc-mcp",
        description="Serve the Papers With Code MCP endpoint (stateless Streamable HTTP at /mcp).",
        epilog=environment_help(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action=VersionAction)
    parser.add_argument("--host", help="bind address (default $PWC_MCP_HOST or 127.0.0.1)")
    parser.add_argument(
        "--port", type=port_number, help="port, 0 for a free one (default $PORT or 7860)"
    )
    parser.add_argument(
        "--sample-catalog",
        action="store_true",
        help="serve the bundled offline sample catalog on loopback and use it",
    )
    parser.add_argument(
        "--sample-port",
        type=port_number,
        help=f"the sample catalog's port (default ${SAMPLE_PORT_ENV} or a free one)",
    )
    return parser


def _busy(what: str, host: str, port: int, hint: str, error: OSError) -> str:
    """One line instead of a traceback: a taken port says how to choose another."""
    if error.errno == errno.EADDRINUSE:
        return f"pwc-mcp: {what} port {port} on {host} is already in use; {hint}"
    return f"pwc-mcp: cannot listen on {host}:{port} for the {what}: {error.strerror or error}"


def pwc_hint() -> str:
    """How to run `pwc` from here, as printed: the console script next to this interpreter."""
    script = Path(sys.executable).with_name("pwc")
    if not script.exists():
        return "uv run pwc"
    with contextlib.suppress(ValueError):
        relative = script.relative_to(Path.cwd())  # `.venv/bin/pwc` from the checkout
        return shlex.quote(str(relative) if relative.parent != Path() else f"./{relative}")
    return shlex.quote(str(script))


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    sample_port = args.sample_port
    if sample_port is None and os.environ.get(SAMPLE_PORT_ENV, "").strip():
        try:
            sample_port = port_number(os.environ[SAMPLE_PORT_ENV].strip())
        except argparse.ArgumentTypeError as error:
            print(f"pwc-mcp: {SAMPLE_PORT_ENV} {error}", file=sys.stderr)
            return 2
    if sample_port is not None and not args.sample_catalog:
        parser.error("--sample-port needs --sample-catalog")

    from pwc_mcp.config import ConfigError, Settings

    env = dict(os.environ)
    if args.sample_catalog:
        env.pop("PWC_API_URL", None)  # replaced by the sample catalog's URL once it is bound
    try:
        settings = Settings.from_env(env)
    except ConfigError as error:
        for problem in error.problems:
            print(f"pwc-mcp: {problem}", file=sys.stderr)
        return 2
    host = args.host if args.host is not None else settings.host
    port = args.port if args.port is not None else settings.port

    from pwc_mcp.serving.localserver import bind

    try:
        sock = bind(host, port, listen=False)  # uvicorn listens once the app is ready
    except OSError as error:
        print(_busy("MCP", host, port, PORT_HINT, error), file=sys.stderr)
        return 2
    with contextlib.ExitStack() as stack:
        stack.callback(sock.close)
        sample_url = None
        if args.sample_catalog:
            from pwc_mcp.sample import start_sample_catalog

            try:
                sample = stack.enter_context(start_sample_catalog(port=sample_port or 0))
            except OSError as error:
                hint = f"set {SAMPLE_PORT_ENV}=<free port> or --sample-port (0 = any free port)"
                print(
                    _busy("sample catalog", "127.0.0.1", sample_port, hint, error), file=sys.stderr
                )
                return 2
            sample_url = sample.url
            settings = Settings(**{**settings.__dict__, "api_url": sample_url})
        bound = {"host": host, "port": sock.getsockname()[1]}
        return _serve(Settings(**{**settings.__dict__, **bound}), sock, sample_url=sample_url)


def _serve(settings: Settings, sock: socket.socket, *, sample_url: str | None) -> int:
    from pwc_mcp.app import create_app
    from pwc_mcp.edge.drain import FINAL_SECONDS, Drain, window
    from pwc_mcp.edge.telemetry import configure_logging
    from pwc_mcp.serving.localserver import AnnouncingServer, config
    from pwc_mcp.serving.runtime import cap_arenas, settle_heap

    cap_arenas()  # before the first thread
    configure_logging(settings.log_level)
    # The sample catalog is a local demo: its cursors never need to outlive the process.
    if settings.cursor_key_ephemeral and sample_url is None:
        log.warning(
            "PWC_MCP_CURSOR_KEY_CURRENT is not set: using an ephemeral key; read_paper "
            "cursors will not survive a restart (set it in production)"
        )
    drain = Drain(window(settings.call_timeout))
    app = create_app(settings, drain=drain)
    lines = _banner(settings, sample_url)

    def serving() -> None:
        settle_heap()  # start-up is over: what it built lives as long as the process
        print("\n".join(lines), flush=True)

    # Asked to stop, the server first drains (pwc_mcp.edge.drain): calls in flight run to their
    # end while the port still answers ("draining"); uvicorn's own shutdown comes after.
    server = AnnouncingServer(
        config(app, host=settings.host, port=settings.port, graceful_seconds=FINAL_SECONDS),
        on_serving=serving,
        on_stop=drain.run,
    )
    # uvicorn restores the handlers it found and re-raises each signal once it has stopped, and
    # a terminal's Ctrl+C often arrives twice (`uv run` and `make` forward it too). Handlers that
    # only record the stop mean no KeyboardInterrupt can land inside the event loop's teardown or
    # the sample catalog's, and a container's SIGTERM ends the process with 0, its clean-up
    # done: shutdown is always clean.
    # A signal before uvicorn takes over its signals stops the server the same way.
    for stop in (signal.SIGINT, signal.SIGTERM):
        signal.signal(stop, lambda signum, frame: setattr(server, "should_exit", True))
    try:
        server.run(sockets=[sock])
    except OSError as error:
        if server.started:
            raise
        # Bound but not yet listening, the port can still be taken by another server that
        # listened first (two starting at once): the same one line as a busy port at bind.
        print(_busy("MCP", settings.host, settings.port, PORT_HINT, error), file=sys.stderr)
        return 2
    return 0


def _banner(settings: Settings, sample_url: str | None) -> list[str]:
    """The lines printed once the port serves: the endpoint, and for the demo how to use it."""
    from pwc_mcp.serving.localserver import origin

    url = origin(settings.host, settings.port)
    lines = []
    if sample_url is not None:
        lines += [
            f"Sample catalog: PWC_API_URL={sample_url}",
            f"  try: PWC_API_URL={sample_url} {pwc_hint()} search transformer",
            f"Limits per client: {settings.request_limit} requests/min, "
            f"{settings.semantic_limit} semantic searches/min, "
            f"{settings.concurrency_limit} concurrent (PWC_MCP_REQUEST_LIMIT, "
            "PWC_MCP_SEMANTIC_LIMIT, PWC_MCP_CONCURRENCY_LIMIT)",
        ]
    return [*lines, f"MCP endpoint: {url}/mcp  (health: {url}/health, docs: {url}/docs)"]


def entry() -> None:
    try:
        code = main()
    except KeyboardInterrupt:  # Ctrl+C during start-up: no traceback for a deliberate stop
        code = 130
    raise SystemExit(code)


if __name__ == "__main__":
    entry()
