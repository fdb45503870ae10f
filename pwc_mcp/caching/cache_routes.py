"""Which declared upstream route a request path is: its content-free counter label, the JSON
shape its answer must have to be cached, and its freshness family (pwc_core/routes.py).

Each route is declared with the command module that reads it (`ROUTES`); `{ref}` may hold
anything, `{id}` one segment. Any other path is labelled by its root ("tasks/*") or "other",
shape ANY, and takes its root's family when every declared route under that root agrees.
"""

from __future__ import annotations

import functools
import re
import sys

from pwc_core.commands import load_all
from pwc_core.routes import ANY, GENERAL, Route, collect


def _declared() -> dict[str, Route]:
    """The routes declared by the modules that register command handlers."""
    modules = sorted({handler.__module__ for handler in load_all().values()})
    return collect(getattr(sys.modules[name], "ROUTES", ()) for name in modules)


ROUTES = _declared()
_EXACT = {label.strip("/"): declared for label, declared in ROUTES.items() if "{" not in label}
_PATTERNS = [
    (
        re.compile("^" + label.replace("{ref}", ".+").replace("{id}", "[^/]+").strip("/") + "$"),
        declared,
    )
    for label, declared in ROUTES.items()
    if "{" in label
]
_PATTERNS.sort(key=lambda item: -len(re.sub(r"\{\w+\}", "", item[1].path)))  # .../related first


def _root(path: str) -> str:
    return path.strip("/").split("/", 1)[0]


_ROOTS = {
    root: {r.family for r in ROUTES.values() if _root(r.path) == root}
    for root in map(_root, ROUTES)
}
_ROOT_FAMILY = {
    root: next(iter(families)) for root, families in _ROOTS.items() if len(families) == 1
}


def _match(path: str) -> Route | None:
    if path in _EXACT:
        return _EXACT[path]
    for pattern, declared in _PATTERNS:
        if pattern.match(path):
            return declared
    return None


@functools.lru_cache(maxsize=4096)  # a pure function of the path, asked on every cache read
def classify(path: str) -> tuple[str, str, str]:
    """(counter label, expected JSON shape, TTL family) of an upstream path, matched once."""
    p = path.strip("/")
    declared = _match(p)
    if declared is not None:
        return declared.path, declared.shape, declared.family
    root = _root(p)
    label = f"{root}/*" if root in _ROOTS else "other"
    return label, ANY, _ROOT_FAMILY.get(root, GENERAL)


def ttl_family(path: str) -> str:
    """Which TTL family (and so which cache) an upstream path belongs to."""
    return classify(path)[2]


def route(path: str) -> tuple[str, str]:
    """(content-free counter label, expected JSON shape) of an upstream path."""
    label, shape, _ = classify(path)
    return label, shape
