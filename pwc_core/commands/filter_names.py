"""The closest catalog names for a listing filter the catalog does not hold (issue #36):
`paper list --organization Meta` answers `closest names: Meta AI`, in the CLI and the tools.

The names come from the filter's own entity listing, as `pwc organization --name` finds them
(pwc_core.suggest ranks them; a task or method also by a few narrower searches). The work is
bounded whatever is typed: a value longer than MAX_TYPED characters is no catalog name and costs
no lookup and no ranking; one filter at most is looked up (the only suggestible one asked), and
at most MAX_CANDIDATES (pwc_core.suggest) names of at most MAX_NAME characters are ranked. `author` has no
suggestions: the catalog has no listing of author names to rank.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any

from pwc_core.commands import FILTER_HINTS
from pwc_core.commands.common import NameSearch, candidate_names, q_search
from pwc_core.commands.taxonomy import LOOKUP, flatten_frameworks
from pwc_core.errors import PwcError
from pwc_core.replies import extract_rows
from pwc_core.suggest import MAX_CANDIDATES, suggestions

MAX_TYPED = 100  # characters; the longest names in the catalog are far shorter
MAX_NAME = 200  # a candidate name longer than this is not ranked


def _searched(route: str) -> Callable[[Any, str], tuple[list[str], NameSearch]]:
    def names(client: Any, typed: str) -> tuple[list[str], NameSearch]:
        search = q_search(client, route, LOOKUP)
        return candidate_names(search(typed)), lambda q: candidate_names(search(q))

    return names


def _listed(route: str, params: dict[str, Any]) -> Callable[[Any, str], tuple[list[str], None]]:
    def names(client: Any, typed: str) -> tuple[list[str], None]:
        rows, _ = extract_rows(client.get_json(route, params))
        return candidate_names(rows, fallback_slug=True), None

    return names


def _frameworks(client: Any, typed: str) -> tuple[list[str], None]:
    return candidate_names(flatten_frameworks(client.get_json("frameworks/"))), None


SOURCES: dict[str, Callable[[Any, str], tuple[list[str], NameSearch | None]]] = {
    "task": _searched("tasks/"),
    "method": _searched("methods/"),
    "conference": _listed("conferences/", {}),
    "organization": _listed("organizations/", {"featured_only": False}),
    "framework": _frameworks,
}


def _bounded(names: list[str]) -> list[str]:
    return [name for name in names if len(name) <= MAX_NAME][:MAX_CANDIDATES]


def closest_filter_names(client: Any, args: argparse.Namespace) -> list[str]:
    """Up to three catalog names near the one suggestible filter value asked, or none (no such
    filter, several, a value longer than MAX_TYPED, or a lookup that fails)."""
    asked = [
        (flag, value)
        for flag in SOURCES
        for value in filter_values(getattr(args, flag, None))
        if isinstance(value, str)
    ]
    if len(asked) != 1 or len(asked[0][1]) > MAX_TYPED:
        return []
    flag, typed = asked[0]
    try:
        names, search = SOURCES[flag](client, typed)
        more = None if search is None else (lambda q: _bounded(search(q)))
        return suggestions(typed, _bounded(names), more)
    except PwcError:  # the answer stays "not found", only without names
        return []


FILTER_HINTS.append(closest_filter_names)


def filter_values(value: object) -> list[object]:
    """A filter's values as asked: a list (a repeated `--author`), one value, or none."""
    if isinstance(value, list | tuple):
        return list(value)
    return [value] if value else []
