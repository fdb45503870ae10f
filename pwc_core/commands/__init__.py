"""Command handlers: pure functions `(args, client) -> payload` registered by command path.

Handlers never print and never exit; the CLI renders their payload and the MCP server runs
the very same functions in-process.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from pwc_core.errors import HTTPStatusError, NotFoundError, UsageError, upstream_detail
from pwc_core.plugins import import_all
from pwc_core.replies import Catalog
from pwc_core.selection import Selection
from pwc_core.wording import Option, Words

Handler = Callable[[argparse.Namespace, Catalog], Any]
HANDLERS: dict[str, Handler] = {}


def handler(command: str) -> Callable[[Handler], Handler]:
    def register(fn: Handler) -> Handler:
        HANDLERS[command] = fn
        return fn

    return register


def load_all() -> dict[str, Handler]:
    """Import every domain module so that all handlers are registered."""
    import_all(__name__, __path__)

    return HANDLERS


@dataclass(frozen=True)
class Answer:
    """A handler's payload, and what it resolved on the way that the payload's readers need
    (a leaderboard's `Selection`, docs/decisions.md#the-selection-resolved-once): carried
    beside the payload, never serialized with it. A handler returns either."""

    payload: Any
    selection: Selection | None = None


def answer(args: argparse.Namespace, client: Catalog) -> Answer:
    fn = load_all().get(args.command)
    if fn is None:
        raise UsageError(f"pwc {args.command} is not a read-only research command")
    try:
        result = fn(args, client)
    except HTTPStatusError as error:
        raise translated(error, args, client) from None
    return result if isinstance(result, Answer) else Answer(result)


def run(args: argparse.Namespace, client: Catalog) -> Any:
    """The command's payload (`answer` without what it resolved)."""
    return answer(args, client).payload


# The closest catalog names of a listing's filter value the catalog does not hold; registered by
# pwc_core.commands.filter_names (which uses the handlers' lookups, so it cannot be imported here).
FILTER_HINTS: list[Callable[[Catalog, argparse.Namespace], list[str]]] = []
FILTER_FLAGS = ("task", "method", "conference", "framework", "organization", "author")
ENTITIES = ("task", "method", "conference", "organization", "framework", "benchmark")


def translated(error: HTTPStatusError, args: argparse.Namespace, client: Catalog) -> Exception:
    """The catalog's 404 and 400/422 in the project's own words: not found (exit 4) names
    what was asked for, and for a listing's filter the closest catalog names; a rejected value
    is a usage error (exit 2). Others stay as they are."""
    if error.status == 404:
        missing = _missing(args)
        if not isinstance(missing, Words):
            return NotFoundError(missing)
        closest = [name for hint in FILTER_HINTS for name in hint(client, args)]
        if closest:
            said = f"; closest names: {', '.join(closest)}"
            missing = Words(missing.template + "{}", *missing.parts, said)
        return NotFoundError(missing, closest)
    if error.status in (400, 422):
        detail = upstream_detail(error.detail)
        return UsageError(f"the catalog rejected the request{': ' + detail if detail else ''}")
    return error


def _missing(args: argparse.Namespace) -> str | Words:
    if getattr(args, "paper", None):
        return f"Paper not found in the catalog: {args.paper}"
    if args.command in ENTITIES and getattr(args, "name", None):
        return f"{args.command.capitalize()} not found: {args.name}"
    asked = []
    for flag in FILTER_FLAGS:
        value = getattr(args, flag, None)
        for item in value if isinstance(value, list) else [value] if value else []:
            asked.append(Option(f"--{flag}", item))
    if asked:
        return Words("No catalog record matches " + ", ".join("{}" for _ in asked), *asked)
    return f"Not found in the catalog (pwc {args.command})"
