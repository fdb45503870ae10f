"""Loading a decorator-filled registry: import every module of the registry's package.

The registry (`pwc_core.commands`, `pwc_cli.views`) names none of its domain modules, so a new
domain is one new file, and no module imports a module that imports it back.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Iterable

_LOADED: set[str] = set()


def import_all(package: str, path: Iterable[str]) -> None:
    """Import each module of `package` (its `__name__` and `__path__`) once.

    Registries call this on every lookup (each tool call runs a handler), and listing a
    package's modules reads the file system, so a package is listed only the first time.
    """
    if package in _LOADED:
        return
    for module in pkgutil.iter_modules(path):
        importlib.import_module(f"{package}.{module.name}")
    _LOADED.add(package)
