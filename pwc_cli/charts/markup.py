"""SVG markup that is safe whatever the catalog sent: text cleaned (no characters XML forbids,
no bidirectional overrides, bounded length) and escaped, in text and in attribute values."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any
from xml.sax.saxutils import escape

from pwc_core.text import one_line

# What XML 1.0 cannot hold (C0 controls but tab and newline, surrogates, U+FFFE/U+FFFF), and
# the C1 controls and bidirectional overrides a viewer could be tricked by.
_UNSAFE = re.compile(
    "[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff\ufffe\uffff\u202a-\u202e\u2066-\u2069]"
)
ATTRIBUTE_ENTITIES = {'"': "&quot;", "\n": "&#10;", "\t": "&#9;"}


def clean(value: Any, limit: int = 120) -> str:
    """Text for a chart: one line, no unsafe characters, at most `limit` characters."""
    raw = "" if value is None else str(value)[: limit * 8]  # a huge value is never all read
    text = one_line(_UNSAFE.sub("", raw))
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def text_node(value: Any, limit: int = 120) -> str:
    return escape(clean(value, limit))


def attribute(value: Any) -> str:
    """An attribute value escaped whole (callers bound text from the catalog with `clean`)."""
    return escape(_UNSAFE.sub("", str(value)), ATTRIBUTE_ENTITIES)


def element(tag: str, attrs: Mapping[str, Any], body: str = "") -> str:
    """`<tag a="v">body</tag>` with every attribute value escaped (None values left out)."""
    rendered = "".join(
        f' {name.replace("_", "-")}="{attribute(_format(value))}"'
        for name, value in attrs.items()
        if value is not None
    )
    return f"<{tag}{rendered}>{body}</{tag}>" if body else f"<{tag}{rendered}/>"


def _format(value: Any) -> Any:
    if isinstance(value, float):
        return f"{value:.2f}".rstrip("0").rstrip(".")
    return value
