"""The Papers With Code catalog core: command declarations, handlers, domain logic, transport
and typed errors, below both the `pwc` CLI (pwc_cli) and the MCP server (pwc_mcp)."""

from __future__ import annotations

import tomllib
from pathlib import Path

DISTRIBUTION = "pwc-mcp"
_SOURCE_ROOT = Path(__file__).resolve().parent.parent


def package_version(root: Path = _SOURCE_ROOT) -> str:
    """pyproject.toml's version, its one source: read from the source tree when running from a
    checkout (a bump needs no reinstall), else from the installed distribution's metadata."""
    try:
        project = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))["project"]
        if project.get("name") == DISTRIBUTION:
            return str(project["version"])
    except (OSError, KeyError, TypeError, tomllib.TOMLDecodeError):
        pass
    import importlib.metadata  # here, not above: a slow import that a checkout never needs

    try:
        return importlib.metadata.version(DISTRIBUTION)
    except importlib.metadata.PackageNotFoundError:
        return "0+unknown"  # neither a checkout nor installed (a copied tree)


__version__ = package_version()
