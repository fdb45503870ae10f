"""`pwc`: the read-only command-line client for the public Papers With Code catalog API v1.

The parser front end, views, charts and terminal; the commands themselves are pwc_core's."""

from __future__ import annotations

from pwc_core import DISTRIBUTION, __version__, package_version

__all__ = ["DISTRIBUTION", "__version__", "package_version"]
