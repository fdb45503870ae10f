"""A heading's slug costs bounded work whatever its title (issue #24): only a bounded prefix of
the title is normalised, and the IDs of ordinary headings are those of the unbounded rule."""

from __future__ import annotations

import unicodedata
from typing import Literal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pwc_core import outline as outline_module
from pwc_core.outline import MAX_ENTRIES, MAX_LINE, MAX_SLUG, SLUG_SOURCE, Outliner, slug

EXPANSIVE = "\ufdfa"  # NFKD: 18 characters


def unbounded_slug(title: str) -> str:
    """The rule before the bound, written as its definition (an oracle sharing no code with
    pwc_core.outline): the whole title decomposed and case-folded, combining marks dropped, its
    runs of letters and digits joined by `-`, then cut at MAX_SLUG on a word boundary when one
    exists in the cut."""
    decomposed = unicodedata.normalize("NFKD", title).casefold()
    kept = "".join(c for c in decomposed if not unicodedata.combining(c))
    words = "".join(c if c.isalnum() else " " for c in kept).split()
    joined = "-".join(words)
    if len(joined) <= MAX_SLUG:
        return joined or "section"
    cut = joined[:MAX_SLUG]
    whole_words = joined[MAX_SLUG] == "-" or "-" not in cut
    return (cut if whole_words else cut[: cut.rindex("-")]).strip("-") or "section"


@pytest.fixture
def normalised(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The length of every string pwc_core.outline hands to unicodedata.normalize."""
    lengths: list[int] = []
    real = unicodedata.normalize

    def counting(form: Literal["NFC", "NFD", "NFKC", "NFKD"], text: str) -> str:
        lengths.append(len(text))
        return real(form, text)

    monkeypatch.setattr(outline_module.unicodedata, "normalize", counting)
    return lengths


def test_a_megabyte_heading_normalises_a_bounded_prefix(normalised: list[int]) -> None:
    title = EXPANSIVE * 1_000_000
    assert slug(title) == unbounded_slug(title[:SLUG_SOURCE])
    assert normalised and max(normalised) <= SLUG_SOURCE


def test_a_hostile_outline_normalises_a_bounded_prefix_per_heading(
    normalised: list[int],
) -> None:
    heading = ("# " + EXPANSIVE * ((MAX_LINE - 2) // 3) + "\n\ntext\n\n").encode()
    outliner = Outliner()
    outliner.feed(heading * MAX_ENTRIES, final=True)
    assert len(outliner.headings) == MAX_ENTRIES
    assert len(normalised) == MAX_ENTRIES and max(normalised) <= SLUG_SOURCE


@given(st.text(max_size=SLUG_SOURCE))
def test_titles_within_the_bound_keep_their_slug(title: str) -> None:
    assert slug(title) == unbounded_slug(title)


@given(st.text(max_size=40), st.text(min_size=1, max_size=400))
def test_long_titles_keep_their_slug_when_the_prefix_fills_it(head: str, rest: str) -> None:
    """A longer title's slug changes only when its first SLUG_SOURCE characters hold fewer
    than MAX_SLUG letters and digits (docs/decisions.md#section-ids)."""
    title = head + "Attention Is All You Need " * 6 + rest
    assert slug(title) == unbounded_slug(title)


def test_ordinary_long_headings_keep_their_ids() -> None:
    for title in ("Deep " * 1000, "Appendix — extended ablation notes " * 50, "ß" * 5000):
        assert slug(title) == unbounded_slug(title)
