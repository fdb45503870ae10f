"""Links to the catalog's website, used by the CLI's views and the server's texts alike."""

from __future__ import annotations

from typing import Any

from pwc_core.text import cell_text

SITE = "https://paperswithcode.co"
SITE_PATHS = {
    "paper": "paper",
    "task": "tasks",
    "method": "methods",
    "benchmark": "benchmark",
    "conference": "conferences",
    "organization": "orgs",
    "framework": "frameworks",
}


def site_url(kind: str, slug: Any) -> str:
    return f"{SITE}/{SITE_PATHS[kind]}/{cell_text(slug)}"


def absolute(url: Any) -> str | None:
    """Site-relative paths (e.g. `/paper/1706.03762`) get the site prefix."""
    if not url:
        return None
    text = str(url)
    return SITE + text if text.startswith("/") else text
