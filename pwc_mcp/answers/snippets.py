"""The abstract snippet of a paper row: enough of the abstract to judge a search result by,
without a second call per paper.

The abstract is untrusted upstream text: escape sequences, control and bidirectional formatting
characters are removed and whitespace is folded, so a snippet is one plain line; it is cut at a
word boundary and marked with an ellipsis when cut, so it never exceeds SNIPPET characters.
"""

from __future__ import annotations

import functools
import re
from typing import Any

from pwc_core.text import neutralise, one_line

SNIPPET = 200  # characters, the ellipsis included
ELLIPSIS = "…"
# Embeddings, overrides and isolates reorder what a reader sees; marks are invisible.
_BIDI = re.compile("[\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def snippet(abstract: Any, limit: int = SNIPPET) -> str | None:
    """At most `limit` characters of `abstract` in whole words (one word longer than half the
    room is cut inside), `…` when cut; None when there is no text."""
    if not isinstance(abstract, str):
        return None
    # Only the head can be shown: a hostile 2 MiB abstract is not cleaned whole. Cleaning only
    # removes characters, so 8x the room still leaves enough when the text is long.
    whole = len(abstract) <= limit * 8
    return _cut(abstract if whole else abstract[: limit * 8], whole, limit)


# The same papers come back page after page. A key is at most 8x the room (1,600 characters),
# so the memo holds at most about 3 MiB however long the abstracts are.
@functools.lru_cache(maxsize=512)
def _cut(shown: str, whole: bool, limit: int) -> str | None:
    text = one_line(_BIDI.sub("", neutralise(shown)))
    if not text or (whole and len(text) <= limit):
        return text or None
    room = limit - len(ELLIPSIS)
    head = text[: room + 1]  # one more: does the cut fall between words?
    cut = head.rfind(" ")
    kept = head[:cut] if cut >= limit // 2 else head[:room]
    return kept.rstrip(" ,;:.") + ELLIPSIS
