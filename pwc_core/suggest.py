"""Names to suggest when a lookup finds nothing, and the near-name siblings of one it found
(docs/upstream-api.md#exact-entity-matching).

The catalog's `q` search matches substrings, so a misspelt name ("transfomer") finds no rows at
all. A few narrower searches then gather candidates: the name's longest words (a lone word: its
first and last letters), or for a keyword search the text with one word left out. At most
MAX_EXTRA_SEARCHES requests, each through the caller's client (so a server's cache applies).
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Iterable, Sequence
from typing import Any, TypeVar

from pwc_core.errors import PwcError

CLOSEST_SHOWN = 3
SIMILAR_SHOWN = 5
MIN_RATIO = 0.5
MAX_EXTRA_SEARCHES = 3
MIN_WORD = 3  # a shorter word searches or matches too much ("of", "x")
AFFIX_LETTERS = 4  # a lone misspelt word is searched by its first, then its last, letters
NEAR_WORD = 0.8  # difflib ratio of words one typo apart ("lerning"/"learning": 0.93)

_SEPARATORS = re.compile(r"[\s_\-]+")
_WORDS = re.compile(r"[^\W_]+")
T = TypeVar("T")


def normal(value: Any) -> str:
    """Casefolded text whose hyphens, underscores and runs of spaces are one space each, so
    "image-clasification" compares with "Image Classification" word by word."""
    return _SEPARATORS.sub(" ", str(value)).strip().casefold()


def _ratio(a: str, b: str) -> float:
    return difflib.SequenceMatcher(None, a, b).ratio()


def _word_found(word: str, words: Sequence[str]) -> bool:
    """`word` is one of `words`, begins one (3+ characters), or is one typo from one."""
    for other in words:
        if word == other or (len(word) >= MIN_WORD and other.startswith(word)):
            return True
        if min(len(word), len(other)) > MIN_WORD and _ratio(word, other) >= NEAR_WORD:
            return True
    return False


def coverage(typed: str, name: str) -> float:
    """Share of the typed words that `name` has (a typo allowed in each), by their letters: a
    long word tells names apart more than "256" or "x" do."""
    words, theirs = dict.fromkeys(normal(typed).split()), normal(name).split()
    letters = sum(len(w) for w in words)
    if not letters:
        return 0.0
    return sum(len(w) for w in words if _word_found(w, theirs)) / letters


def _shares_word(a: str, b: str) -> bool:
    """A word of `a` (3+ characters) begins a word of `b`: "iclr 2020" and "ICLR 2017"."""
    theirs = b.split()
    return any(len(w) >= MIN_WORD and any(x.startswith(w) for x in theirs) for w in a.split())


def similarity(typed: str, name: str) -> tuple[int, float, float]:
    """How close `name` is to what was typed: a name beginning with it beats one containing it
    beats one sharing a word; then how much of the typed words it has (`coverage`), then
    difflib's ratio of the two texts. So "Google Deepmnd" is nearer "Google DeepMind"
    (both words) than "Google" (one), and "transfomer" nearer "Transformer" than a longer
    name with that word."""
    a, b = normal(typed), normal(name)
    if not a or not b:
        return (0, 0.0, 0.0)
    if b.startswith(a):
        kind = 3
    elif a in b:
        kind = 2
    else:
        kind = 1 if _shares_word(a, b) else 0
    return (kind, coverage(a, b), _ratio(a, b))


def _alike(score: tuple[int, float, float]) -> bool:
    return bool(score[0]) or score[2] >= MIN_RATIO


def rank(typed: str, items: Iterable[T], name: Callable[[T], str], shown: int) -> list[T]:
    """The `shown` items whose name is most similar to `typed`; the catalog's order breaks a
    tie. Once some are alike (sharing a word or half their letters), the rest are left out."""
    scored = [(similarity(typed, name(item)), item) for item in items if name(item)]
    alike = [pair for pair in scored if _alike(pair[0])]
    ranked = sorted(alike or scored, key=lambda pair: pair[0], reverse=True)
    return [item for _, item in ranked[:shown]]


def closest(typed: str, names: Iterable[str], shown: int = CLOSEST_SHOWN) -> list[str]:
    """The `shown` names most similar to `typed` (see `rank`), each once."""
    return rank(typed, dict.fromkeys(n for n in names if n), str, shown)


NEAR = 0.7  # difflib ratio of a word one or two typos from another ("limtt"/"limit": 0.8)
_CONTAINED = 2  # `similarity`'s kind for a name that contains (or begins with) the text


def nearest(typed: str, names: Iterable[str]) -> str | None:
    """The name of a command, flag, choice or parameter `typed` most likely meant, or None when
    none is near enough to say so: it begins with or contains the text (3+ characters), has each
    typed word (a typo allowed in each), or is a typo or two away as a whole. Stricter than the
    bar for catalog names: a half-alike command ("frobnicate", "conference") is not meant."""
    for name in closest(typed, names, shown=1):
        kind, coverage, ratio = similarity(typed, name)
        contained = kind >= _CONTAINED and len(normal(typed)) >= MIN_WORD
        if contained or coverage == 1.0 or ratio >= NEAR:
            return name
    return None


# --- fallback searches --------------------------------------------------------------------


def _words(typed: str) -> list[str]:
    """The distinct words of 3+ characters, longest first (ties in typed order)."""
    words = dict.fromkeys(w for w in _WORDS.findall(typed) if len(w) >= MIN_WORD)
    return sorted(words, key=len, reverse=True)


def word_queries(typed: str) -> list[str]:
    """Searches for a name whose substring search found nothing: its longest words; a lone
    word (the search already tried) by its first and its last letters."""
    words = [w for w in _words(typed) if w.casefold() != typed.strip().casefold()]
    if not words and len(found := _WORDS.findall(typed)) == 1 and len(found[0]) > AFFIX_LETTERS:
        words = [found[0][:AFFIX_LETTERS], found[0][-AFFIX_LETTERS:]]
    return words[:MAX_EXTRA_SEARCHES]


def keyword_queries(typed: str) -> list[str]:
    """Searches for a keyword search (every word required) that found nothing: the text without
    one of its longest words, the likeliest to be misspelt."""
    words = typed.split()
    if len(words) < 2:
        return word_queries(typed)
    left_out = []
    for word in _words(typed)[:MAX_EXTRA_SEARCHES]:
        kept = [w for w in words if _WORDS.findall(w) != [word]]
        if kept and len(kept) < len(words):
            left_out.append(" ".join(kept))
    return list(dict.fromkeys(left_out))[:MAX_EXTRA_SEARCHES]


def gather(
    typed: str,
    in_hand: Sequence[T],
    search: Callable[[str], Iterable[T]] | None,
    name: Callable[[T], str],
    queries: Callable[[str], list[str]] = word_queries,
) -> list[T]:
    """`in_hand`, plus when none of them is alike the results of the fallback `queries`, until
    one of them has every typed word. A failing fallback search ends the gathering: the answer
    is still "not found", only with fewer suggestions."""
    found = list(in_hand)
    if search is None or any(_alike(similarity(typed, name(item))) for item in found):
        return found
    for query in queries(typed)[:MAX_EXTRA_SEARCHES]:
        try:
            found.extend(search(query))
        except PwcError:
            break
        if any(coverage(typed, name(item)) == 1.0 for item in found):
            break
    return found


def suggestions(
    typed: str,
    in_hand: Sequence[str],
    search: Callable[[str], Iterable[str]] | None = None,
    shown: int = CLOSEST_SHOWN,
) -> list[str]:
    """Up to `shown` catalog names to offer for `typed`, searching more when needed."""
    return closest(typed, gather(typed, in_hand, search, str), shown)


def siblings(
    rows: Iterable[dict[str, Any]], found: dict[str, Any], shown: int = SIMILAR_SHOWN
) -> list[str]:
    """Names of the other rows that contain the found row's name: an exact "Penn Treebank"
    still names "Penn Treebank (Word Level)"."""
    own = normal(found.get("name") or "")
    if not own:
        return []
    names = (str(r["name"]) for r in rows if r is not found and r.get("name"))
    return [n for n in dict.fromkeys(names) if own in normal(n) and normal(n) != own][:shown]
