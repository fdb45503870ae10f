"""Hosted, anonymous, read-only MCP server for the Papers With Code catalog."""

from pwc_core import __version__  # one version for both packages: pyproject.toml's

__all__ = ["__version__"]
