"""The answer caches' families: how long each family's answers stay fresh, and its share of the
caches' entries and bytes (pwc_mcp/caching/cache.py builds one bounded cache per family; a
route's family is declared with the route, in the `ROUTES` of its pwc_core/commands module)."""

from __future__ import annotations

# family: (ttl seconds, entry share /16, byte share /16)
FAMILIES: dict[str, tuple[float, int, int]] = {
    "search": (60.0, 2, 2),
    "taxonomy": (600.0, 4, 4),
    "public_metadata": (3600.0, 2, 1),
    "general": (300.0, 8, 9),
}
# Entries in all: the bytes are the memory ceiling; the count keeps small answers (a search page,
# a task) from being evicted while bytes are free, so that a day's distinct calls stay available
# as last good answers during an outage (issue #38; 512 kept only 64 searches).
MAX_ENTRIES = 2048
CALL_SHARE = 16  # one call adds at most 1/16 of a family cache's entries and bytes
