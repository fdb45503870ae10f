"""Upstream routes as the command modules declare them, next to the requests they make.

Each module that registers handlers lists the catalog routes it reads in a module-level
`ROUTES` table, one route a line (`routes()` reads it): the path pattern (`{ref}` may hold any
text, slashes included; `{id}` is one segment), the JSON shape the route answers with (a list
page or one object) and its freshness family. The server's cache derives its counter labels,
shape checks and TTLs from these declarations (pwc_mcp/caching/cache_routes.py);
tests/test_completeness.py fails when a command reads a route no module declares.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final

LIST, OBJECT, ANY = "list", "object", "any"
RESULTS = "results"  # an object whose `results` is a list (a bare array or `items` will not do)

# Freshness families: how fast an answer goes stale (the server maps each to a TTL and a share
# of the cache's entries and bytes).
SEARCH = "search"  # search and listing pages: minutes
TAXONOMY = "taxonomy"  # tasks, methods, areas, venues, organizations, frameworks: hours
PUBLIC_METADATA = "public_metadata"  # metadata of papers outside the catalog, misses included
GENERAL = "general"  # everything else: paper detail, evaluations, lineage, Markdown

_SHAPES: Final = frozenset({LIST, RESULTS, OBJECT, ANY})
_FAMILIES: Final = frozenset({SEARCH, TAXONOMY, PUBLIC_METADATA, GENERAL})


@dataclass(frozen=True)
class Route:
    path: str  # "papers/{ref}/related"; also the content-free counter label
    shape: str  # LIST, RESULTS, OBJECT or ANY
    family: str


def routes(table: str) -> tuple[Route, ...]:
    """The routes of a `path shape family` table, one route a line (blank lines skipped); a
    line that is not three known words fails the import, so a typo cannot declare a route."""
    found = []
    for line in filter(None, map(str.strip, table.splitlines())):
        match line.split():
            case [path, shape, family] if shape in _SHAPES and family in _FAMILIES:
                found.append(Route(path, shape, family))
            case _:
                known = f"{sorted(_SHAPES)} then one of {sorted(_FAMILIES)}"
                raise ValueError(f"not a route (a path, one of {known}): {line}")
    return tuple(found)


def collect(groups: Iterable[Iterable[Route]]) -> dict[str, Route]:
    """Every declared route by path; a path declared twice is a programming error."""
    by_path: dict[str, Route] = {}
    for group in groups:
        for declared in group:
            if declared.path in by_path:
                raise ValueError(f"upstream route {declared.path} is declared twice")
            by_path[declared.path] = declared
    return by_path
