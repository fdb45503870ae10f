"""Human-readable views of command payloads, one module per domain, and their registry.

A view is `(payload, args, tty) -> Rendered`, where `tty` is the Terminal (None when stdout
is captured); it never prints, and it decides presentation only: a terminal and a pipe get the
same rows. Domain modules register their views with `@view(...)`.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from pwc_cli.render import Screen
from pwc_core.plugins import import_all


@dataclass
class Rendered:
    """What a command prints: stdout text and informational stderr lines."""

    stdout: str = ""
    stderr: list[str] = field(default_factory=list)


View = Callable[[Any, argparse.Namespace, Screen], Rendered]
VIEWS: dict[str, View] = {}


def view(*commands: str) -> Callable[[View], View]:
    def register(fn: View) -> View:
        for command in commands:
            VIEWS[command] = fn
        return fn

    return register


def load_views() -> dict[str, View]:
    """Every domain module imported, so that all views are registered."""
    import_all(__name__, __path__)
    return VIEWS
