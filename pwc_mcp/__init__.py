"""Hosted, anonymous, read-only MCP server for the Papers With Code catalog."""

from pwc_cli import __version__  # one version for both packages: pyproject.toml's

__all__ = ["__version__"]
