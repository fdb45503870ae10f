"""Names to suggest when a lookup finds nothing, and the near-name siblings of one it found
(docs/upstream-api.md#exact-entity-matching).

The catalog's `q` search matches substrings, so a misspelt name ("transfomer") finds no rows at
all. A few narrower searches then gather candidates: the name's longest words (a lone word: its
first and last letters), or for a keyword search the text with one word left out. At most
MAX_EXTRA_SEARCHES requests, each through the caller's client (so a server's cache applies).

Ranking costs the same whatever is typed and however long the catalog's names and pages are
(issue #37): at most MAX_CANDIDATES names are ranked, each scored once (`Scores`) by its first
MAX_NAME_CHARS characters. Of each text the first MAX_WORDS distinct words are compared; a
word's typo tolerance (difflib) is tried only between words of at most MAX_WORD_LETTERS letters,
each pair once and MAX_COMPARISONS times in all (past that a word must equal or begin the
other); whole texts are compared by their first MAX_TEXT characters.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Iterable, Sequence
from itertools import islice
from typing import Any, TypeVar

from pwc_core.errors import PwcError

CLOSEST_SHOWN = 3
SIMILAR_SHOWN = 5
MIN_RATIO = 0.5
MAX_EXTRA_SEARCHES = 3
MIN_WORD = 3  # a shorter word searches or matches too much ("of", "x")
AFFIX_LETTERS = 4  # a lone misspelt word is searched by its first, then its last, letters
NEAR_WORD = 0.8  # difflib ratio of words one typo apart ("lerning"/"learning": 0.93)
# The bounds of one ranking's work (module doc). A catalog name has far fewer words and letters;
# four lookups of 100 rows are 400 candidates.
MAX_CANDIDATES = 500
MAX_NAME_CHARS = 1000
MAX_WORDS = 16
MAX_WORD_LETTERS = 24
MAX_TEXT = 64
MAX_COMPARISONS = 2000

_SEPARATORS = re.compile(r"[\s_\-]+")
_WORDS = re.compile(r"[^\W_]+")
T = TypeVar("T")
Score = tuple[int, float, float]


def normal(value: Any) -> str:
    """Casefolded text whose hyphens, underscores and runs of spaces are one space each, so
    "image-clasification" compares with "Image Classification" word by word."""
    return _SEPARATORS.sub(" ", str(value)).strip().casefold()


def _ratio(a: str, b: str) -> float:
    """difflib's similarity of two texts: every comparison of a ranking is one of these."""
    return difflib.SequenceMatcher(None, a, b).ratio()


def _words_of(text: str) -> list[str]:
    """The first MAX_WORDS distinct words of a normal text."""
    return list(islice(dict.fromkeys(text.split()), MAX_WORDS))


class Scores:
    """How close each name is to one typed text (`similarity`), each name scored once.

    The typed words are bits of a mask; each distinct word of the names is matched against them
    once (`_has`), so a name's share of the typed words is the OR of its words' masks."""

    def __init__(self, typed: str) -> None:
        self.text = normal(typed)
        self.words = _words_of(self.text)
        self.letters = sum(len(w) for w in self.words)
        self.comparisons = 0  # difflib comparisons of words so far (at most MAX_COMPARISONS)
        self._masks: dict[str, tuple[int, int]] = {}
        self._scores: dict[str, Score] = {}

    def __call__(self, name: str) -> Score:
        score = self._scores.get(name)
        if score is None:
            score = self._scores[name] = self._score(normal(name[:MAX_NAME_CHARS]))
        return score

    def _score(self, b: str) -> Score:
        """A name beginning with the text beats one containing it beats one sharing a word
        (one of 3+ letters beginning a name's word); then the share of the typed words' letters
        it has (a typo allowed in each); then difflib's ratio of the two texts."""
        a = self.text
        if not a or not b:
            return (0, 0.0, 0.0)
        has = begins = 0
        for word in _words_of(b):
            found, prefix = self._has(word)
            has, begins = has | found, begins | prefix
        if b.startswith(a):
            kind = 3
        elif a in b:
            kind = 2
        else:
            kind = 1 if begins else 0
        letters = sum(len(w) for i, w in enumerate(self.words) if has >> i & 1)
        coverage = letters / self.letters if self.letters else 0.0
        return (kind, coverage, _ratio(a[:MAX_TEXT], b[:MAX_TEXT]))

    def _has(self, other: str) -> tuple[int, int]:
        """(the typed words `other` is, begins with or is one typo from; those of 3+ letters
        it begins with), as masks, worked out once per word."""
        masks = self._masks.get(other)
        if masks is None:
            found = prefix = 0
            typo = MIN_WORD < len(other) <= MAX_WORD_LETTERS
            for i, word in enumerate(self.words):
                if len(word) >= MIN_WORD and other.startswith(word):
                    found, prefix = found | 1 << i, prefix | 1 << i
                elif word == other or (typo and self._near(word, other)):
                    found |= 1 << i
            masks = self._masks[other] = (found, prefix)
        return masks

    def _near(self, word: str, other: str) -> bool:
        """One typo apart, by difflib, for words of 4 to MAX_WORD_LETTERS letters whose lengths
        allow it (difflib's ratio is at most twice the shorter length over both lengths), while
        the ranking has comparisons left."""
        if not MIN_WORD < len(word) <= MAX_WORD_LETTERS or self.comparisons >= MAX_COMPARISONS:
            return False
        if 2.0 * min(len(word), len(other)) / (len(word) + len(other)) < NEAR_WORD:
            return False
        self.comparisons += 1
        return _ratio(word, other) >= NEAR_WORD


def coverage(typed: str, name: str) -> float:
    """Share of the typed words that `name` has (a typo allowed in each), by their letters: a
    long word tells names apart more than "256" or "x" do."""
    return Scores(typed)(name)[1]


def similarity(typed: str, name: str) -> Score:
    """How close `name` is to what was typed: a name beginning with it beats one containing it
    beats one sharing a word; then how much of the typed words it has (`coverage`), then
    difflib's ratio of the two texts. So "Google Deepmnd" is nearer "Google DeepMind"
    (both words) than "Google" (one), and "transfomer" nearer "Transformer" than a longer
    name with that word."""
    return Scores(typed)(name)


def _alike(score: tuple[int, float, float]) -> bool:
    return bool(score[0]) or score[2] >= MIN_RATIO


def rank(
    typed: str,
    items: Iterable[T],
    name: Callable[[T], str],
    shown: int,
    scores: Scores | None = None,
) -> list[T]:
    """The `shown` items whose name is most similar to `typed` (the first MAX_CANDIDATES
    only); the catalog's order breaks a tie. Once some are alike (sharing a word or half their
    letters), the rest are left out. `scores` may hold scores already worked out for `typed`."""
    score = scores or Scores(typed)
    firsts = islice(items, MAX_CANDIDATES)
    scored = [(score(name(item)), item) for item in firsts if name(item)]
    alike = [pair for pair in scored if _alike(pair[0])]
    ranked = sorted(alike or scored, key=lambda pair: pair[0], reverse=True)
    return [item for _, item in ranked[:shown]]


def closest(
    typed: str, names: Iterable[str], shown: int = CLOSEST_SHOWN, scores: Scores | None = None
) -> list[str]:
    """The `shown` names most similar to `typed` (see `rank`), each once."""
    return rank(typed, dict.fromkeys(n for n in names if n), str, shown, scores)


NEAR = 0.7  # difflib ratio of a word one or two typos from another ("limtt"/"limit": 0.8)
_CONTAINED = 2  # `similarity`'s kind for a name that contains (or begins with) the text


def nearest(typed: str, names: Iterable[str]) -> str | None:
    """The name of a command, flag, choice or parameter `typed` most likely meant, or None when
    none is near enough to say so: it begins with or contains the text (3+ characters), has each
    typed word (a typo allowed in each), or is a typo or two away as a whole. Stricter than the
    bar for catalog names: a half-alike command ("frobnicate", "conference") is not meant."""
    scores = Scores(typed)
    for name in closest(typed, names, 1, scores):
        kind, coverage, ratio = scores(name)
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
    scores: Scores | None = None,
) -> list[T]:
    """`in_hand`, plus when none of them is alike the results of the fallback `queries`, until
    one of them has every typed word; MAX_CANDIDATES items at most, each scored once (in
    `scores`, which `rank` may then reuse). A failing fallback search ends the gathering: the
    answer is still "not found", only with fewer suggestions."""
    score = scores or Scores(typed)
    found = list(islice(in_hand, MAX_CANDIDATES))
    if search is None or any(_alike(score(name(item))) for item in found):
        return found
    for query in queries(typed)[:MAX_EXTRA_SEARCHES]:
        if len(found) >= MAX_CANDIDATES:
            break
        try:
            more = list(islice(search(query), MAX_CANDIDATES - len(found)))
        except PwcError:
            break
        found.extend(more)
        if any(score(name(item))[1] == 1.0 for item in found):
            break
    return found


def suggestions(
    typed: str,
    in_hand: Sequence[str],
    search: Callable[[str], Iterable[str]] | None = None,
    shown: int = CLOSEST_SHOWN,
) -> list[str]:
    """Up to `shown` catalog names to offer for `typed`, searching more when needed."""
    scores = Scores(typed)
    return closest(typed, gather(typed, in_hand, search, str, scores=scores), shown, scores)


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
