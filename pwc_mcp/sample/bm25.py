"""Text analysis and Okapi BM25 scoring for the sample catalog's paper search.

Small on purpose: the sample has a few dozen papers, so the index is plain dicts built once at
load time, and the analysis only needs to make the demo's queries behave like a real search
engine's ("gpt-3" = "GPT3" = "GPT-3", "ResNets" = "ResNet", "Transformers" = "Transformer").
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence

# A compound is letters/digits joined by - . ' / ("GPT-3", "Qwen2.5", "HuggingFace's"); its
# parts are its letter runs and digit runs ("qwen", "2", "5").
_COMPOUND = re.compile(r"[^\W_]+(?:[-.'’/][^\W_]+)*")
_PART = re.compile(r"[^\W\d_]+|\d+")
# Common English function words; dropped from queries so "all you need" is ranked by "need".
STOPWORDS = frozenset(
    re.findall(r"\w+", "a an and are as at by for from in is of on or the to with")
)


def stem(word: str) -> str:
    """A light plural folding (models -> model, studies -> study), applied to letters only.

    Both the index and the query go through it, so a crude rule is enough; "ss", "us" and "is"
    endings are kept because they are rarely plurals (loss, corpus, analysis)."""
    if not word.isalpha() or len(word) <= 3:
        return word
    if word.endswith("ies"):
        return word[:-3] + "y"
    if word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word


def tokenize(text: str) -> list[str]:
    """Index terms: each compound joined ("gpt3"), then its parts when it has several.

    The joined form makes "GPT-3", "GPT3" and "gpt-3" one term; the parts keep a partial match
    ("gpt" alone). Single letters are dropped as parts ("s" of "HuggingFace's"), digits kept."""
    terms: list[str] = []
    for compound in _COMPOUND.findall(text.casefold()):
        parts = _PART.findall(compound)
        terms.append(stem("".join(parts)))
        if len(parts) > 1:
            terms.extend(stem(p) for p in parts if len(p) > 1 or p.isdigit())
    return terms


def name_key(text: str) -> str:
    """Comparison key of a whole title or name: case, spacing, punctuation and plurals ignored
    ("Vision Transformers" = "vision transformer", "GPT-3" = "gpt 3" = "GPT3")."""
    return "".join(stem(part) for part in _PART.findall(text.casefold()))


class Bm25:
    """Okapi BM25 per field, summed with per-query field weights (a simple BM25F).

    ``docs[i]`` maps a field name to its terms. The inverse document frequency counts a paper
    once whichever field holds the term, so a weight changes a field's share, never a term's
    rarity. k1 and b are the usual defaults (term-frequency saturation, length normalisation).
    """

    def __init__(
        self, docs: Sequence[Mapping[str, Sequence[str]]], k1: float = 1.2, b: float = 0.75
    ) -> None:
        self.k1, self.b = k1, b
        self._tf = [{field: Counter(terms) for field, terms in doc.items()} for doc in docs]
        self._len = [{field: len(terms) for field, terms in doc.items()} for doc in docs]
        totals: Counter[str] = Counter()
        for lengths in self._len:
            totals.update(lengths)
        # A field empty everywhere would divide by zero; 1 keeps its (empty) score at zero.
        self._avg = {field: max(total / len(docs), 1.0) for field, total in totals.items()}
        counts = Counter(term for doc in docs for term in {t for ts in doc.values() for t in ts})
        n = len(docs)
        # The "+1" form of the IDF stays positive for a term in most documents.
        self._idf = {t: math.log(1 + (n - c + 0.5) / (c + 0.5)) for t, c in counts.items()}

    def idf(self, term: str) -> float:
        return self._idf.get(term, 0.0)

    def score(self, doc: int, terms: Iterable[str], weights: Mapping[str, float]) -> float:
        total = 0.0
        for field, weight in weights.items():
            tf, length = self._tf[doc].get(field), self._len[doc].get(field, 0)
            if not tf or not weight:
                continue
            norm = self.k1 * (1 - self.b + self.b * length / self._avg[field])
            for term in terms:
                if tf[term]:
                    total += weight * self.idf(term) * tf[term] * (self.k1 + 1) / (tf[term] + norm)
        return total

    def matched(self, doc: int, terms: Iterable[str], weights: Mapping[str, float]) -> set[str]:
        """The terms found in a field with a non-zero weight."""
        fields = [self._tf[doc].get(f) or Counter() for f, w in weights.items() if w]
        return {term for term in terms if any(tf[term] for tf in fields)}
