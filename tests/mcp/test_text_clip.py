"""`clip`'s fast path for short plain lines must agree with the general rule everywhere."""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from pwc_mcp.answers.texts import clip

SPACE = re.compile(r"\s+")


def reference(value: str, limit: int) -> str:
    line = SPACE.sub(" ", value).strip()
    return line if len(line) <= limit else line[: limit - 2].rstrip() + " …"


@given(st.text(max_size=200), st.integers(min_value=3, max_value=200))
def test_clip_folds_whitespace_and_bounds_length(value: str, limit: int) -> None:
    assert clip(value, limit) == reference(value, limit)
