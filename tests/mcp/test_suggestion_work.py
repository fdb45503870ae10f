"""Issue #37 item 1, did-you-mean in bounded work. The attack: a 500-character made-up name
(three common words, then nonsense words) given to `get_task`, `get_method` or `get_benchmark`
cost 1.6-1.7 s of server CPU per call (7.9 s against long catalog names), and every repeat the
same: each candidate was scored again after every lookup and once more to rank it, one difflib
comparison per typed word per name word. Now a ranking's comparisons are bounded whatever the
name's length and the catalog's names and pages, and a not-found is remembered like an answer.

The work is counted, never timed: every difflib comparison a ranking makes goes through
`pwc_core.suggest._ratio`, wrapped here (the real one still answers). Its CPU time on the worst
case is in `python -m bench.suggestions`."""

from __future__ import annotations

import random
import string
from collections.abc import Iterator

import pytest

import pwc_core.suggest
from pwc_core.suggest import MAX_CANDIDATES, MAX_COMPARISONS, MAX_TEXT, normal, suggestions
from pwc_core.values import MAX_TEXT as MAX_ARGUMENT

Compared = list[tuple[str, str]]
# at most: the words' typo checks, and one whole-text comparison per candidate
BOUND = MAX_COMPARISONS + MAX_CANDIDATES


def nonsense(seed: int | str, length: int, word_letters: tuple[int, int] = (4, 8)) -> str:
    """Made-up words of `word_letters` letters, `length` characters in all."""
    rng = random.Random(seed)
    text = ""
    while len(text) < length:
        text += "".join(rng.choices(string.ascii_lowercase, k=rng.randint(*word_letters))) + " "
    return text[:length].strip()


def attack(words: str) -> str:
    """The attack's name: three common words, then nonsense, as long as an argument may be."""
    return (words + " " + nonsense(words, MAX_ARGUMENT))[:MAX_ARGUMENT]


@pytest.fixture
def compared(monkeypatch: pytest.MonkeyPatch) -> Iterator[Compared]:
    """Every pair of texts pwc_core.suggest compares (difflib), in order."""
    pairs: Compared = []
    ratio = pwc_core.suggest._ratio

    def counted(a: str, b: str) -> float:
        pairs.append((a, b))
        return ratio(a, b)

    monkeypatch.setattr(pwc_core.suggest, "_ratio", counted)
    yield pairs


# --- the ranking itself: the worst inputs ---------------------------------------------------


@pytest.mark.parametrize(
    ("typed_length", "name_length", "page_rows"),
    [
        (MAX_ARGUMENT, MAX_ARGUMENT, 100),  # the attack against full pages of long names
        (MAX_ARGUMENT, 20_000, 1_000),  # names and pages far longer than a catalog's
        (40, 20_000, 1_000),
    ],
)
def test_a_ranking_costs_bounded_work_whatever_the_lengths(
    compared: Compared, typed_length: int, name_length: int, page_rows: int
) -> None:
    # Words of 5 to 32 letters: as long as the names' words, so no length rules a typo out.
    typed = nonsense("typed", typed_length, (5, 32))

    def page(number: int) -> list[str]:
        names = (nonsense(f"{number}/{row}", 600, (5, 32)) for row in range(page_rows))
        return [name + " x" * ((name_length - len(name)) // 2) for name in names]

    asked: list[str] = []

    def search(query: str) -> list[str]:
        asked.append(query)
        return page(len(asked))

    assert len(suggestions(typed, page(0), search)) == 3  # still an answer
    assert len(compared) <= BOUND
    assert max(max(len(a), len(b)) for a, b in compared) <= MAX_TEXT
    whole = [b for a, b in compared if " " in a]  # a word has no space, a whole text does
    assert len(whole) == len(set(whole)) <= MAX_CANDIDATES  # each candidate scored once


def test_each_candidate_is_scored_once_across_lookups(compared: Compared) -> None:
    # Before: every candidate's words were compared again after each lookup and once more to
    # rank it (4,300 comparisons here, where 106 suffice).
    names = [f"Image Classification Variant {i}" for i in range(100)]
    searches = iter([names, names, names])
    suggestions("imagee clasification xyzzy", [], lambda query: next(searches))
    assert next(searches, None) is None  # three lookups, each candidate in all three
    assert len(compared) == len(set(compared))  # no two texts compared twice
    whole = [b for a, b in compared if " " in a]
    assert sorted(whole) == sorted(normal(name) for name in names)
