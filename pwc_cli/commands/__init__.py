"""Command handlers: pure functions `(args, client) -> payload` registered by command path.

Handlers never print and never exit; the CLI renders their payload and the MCP server runs
the very same functions in-process.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any, Protocol

from pwc_cli.errors import UsageError


class Catalog(Protocol):
    """What a handler needs of the transport (the CLI client or the server's cached one)."""

    def get_json(self, path: str, params: Any = None) -> Any: ...

    def get(self, path: str, params: Any = None) -> Any: ...


Handler = Callable[[argparse.Namespace, Catalog], Any]
HANDLERS: dict[str, Handler] = {}


def handler(command: str) -> Callable[[Handler], Handler]:
    def register(fn: Handler) -> Handler:
        HANDLERS[command] = fn
        return fn

    return register


def load_all() -> dict[str, Handler]:
    """Import every domain module so that all handlers are registered."""
    from pwc_cli.commands import benchmarks, papers, taxonomy  # noqa: F401

    return HANDLERS


def run(args: argparse.Namespace, client: Catalog) -> Any:
    fn = load_all().get(args.command)
    if fn is None:
        raise UsageError(f"pwc {args.command} is not a read-only research command")
    return fn(args, client)
