"""A row's tri-state flags in words, the same in every front end (issue #36).

The catalog knows a row's openness and whether it used extra training data, knows the
opposite, or does not know: each known value is said ("open" / "closed", "extra training data" /
"no extra training data") and an unknown one is not, so an unknown never reads as either.
"""

from __future__ import annotations

from typing import Any


def _said(value: Any, yes: str, no: str) -> str | None:
    if value is True:
        return yes
    return no if value is False else None


def openness(value: Any) -> str | None:
    """`open`, `closed`, or None when the catalog does not say (`is_open`)."""
    return _said(value, "open", "closed")


def extra_data(value: Any) -> str | None:
    """`extra training data`, `no extra training data`, or None when the catalog does not say
    (`uses_additional_data`)."""
    return _said(value, "extra training data", "no extra training data")


def known(value: Any) -> bool | None:
    """A flag as the catalog gave it: True, False, or None for anything else (unknown)."""
    return value if isinstance(value, bool) else None
