"""The sample catalog's ``papers/search``: which papers match a query in each mode, and in
which order.

Order: an exact title (or the paper's arXiv or catalog ID) first, then an exact short name (a
title's part before its colon, "BERT") or a known alias (catalog.json ``aliases``, "ResNet"),
then BM25 over title, aliases and abstract (authors too, except in semantic mode); ties by
citations, then id. Which papers are answers:

- ``keyword``: every query word is in the paper (title, abstract, authors, IDs, aliases), as a
  substring (so a half-typed title still completes) or as its analysed terms ("GPT3").
- ``semantic``: the matched query terms carry at least half of the query's IDF, so a paper that
  only shares a common word ("models", "3") is not an answer.
- ``hybrid``: either of the two.

Quoted phrases must appear verbatim in the title or abstract in every mode.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from pwc_mcp.sample.bm25 import STOPWORDS, Bm25, name_key, tokenize
from pwc_mcp.sample.common import Json, fold

_PHRASE = re.compile(r'"([^"]*)"')
_EDGE_PUNCTUATION = "\"'.,;:!?()[]"
TEXT_WEIGHTS = {"title": 2.0, "aliases": 2.0, "abstract": 1.0}
WEIGHTS = {
    "semantic": TEXT_WEIGHTS,  # what the paper is about, not who wrote it
    "hybrid": TEXT_WEIGHTS | {"authors": 1.0},
    "keyword": TEXT_WEIGHTS | {"authors": 1.0},
}
COVERAGE = 0.5  # share of the query's IDF a semantic answer must match


@dataclass(frozen=True)
class _Entry:
    paper: Json
    text: str  # folded title and abstract: where quoted phrases are looked up
    everything: str  # folded text of every searched field: keyword substrings
    terms: frozenset[str]  # analysed terms of every searched field: keyword terms
    ids: frozenset[str]  # casefolded catalog and arXiv IDs
    title: str  # name_key of the title
    names: frozenset[str]  # name_keys of the short name and the aliases


def _entry(paper: Json) -> _Entry:
    title, aliases = paper["title"], paper.get("aliases", [])
    ids = frozenset(fold(i) for i in (paper["id"], paper.get("arxiv_id")) if i)
    text = fold(f"{title} {paper['summary']}")
    everything = fold(" ".join([text, *paper["row"]["authors"], *ids, *aliases]))
    short = [title.split(":", 1)[0]] if ":" in title else []
    return _Entry(
        paper=paper,
        text=text,
        everything=everything,
        terms=frozenset(tokenize(everything)),
        ids=ids,
        title=name_key(title),
        names=frozenset(name_key(n) for n in [*short, *aliases]),
    )


def _fields(paper: Json) -> dict[str, list[str]]:
    return {
        "title": tokenize(paper["title"]),
        "aliases": tokenize(" ".join(paper.get("aliases", []))),
        "abstract": tokenize(paper["summary"]),
        "authors": tokenize(" ".join(paper["row"]["authors"])),
    }


class PaperSearch:
    """An index over the catalog's papers, built once; ``search`` is pure."""

    def __init__(self, papers: Iterable[Json]) -> None:
        self._entries = [_entry(p) for p in papers]
        self._index = Bm25([_fields(e.paper) for e in self._entries])

    def search(self, query: str, mode: str) -> list[Json]:
        phrases = [fold(p) for p in _PHRASE.findall(query) if p.strip()]
        words = [w.strip(_EDGE_PUNCTUATION) for w in fold(_PHRASE.sub(" ", query)).split()]
        words = [w for w in words if w]
        if not (words or phrases):
            return []
        unique = dict.fromkeys(tokenize(query.replace('"', " ")))
        terms = [t for t in unique if t not in STOPWORDS] or list(unique)
        weights = WEIGHTS[mode]
        wanted = sum(self._index.idf(t) for t in terms)
        whole, exact = name_key(query), fold(query.strip().strip('"'))
        analysed = [(w, tokenize(w)) for w in words]  # each query word analysed once
        hits: list[tuple[tuple[int, float, int, int], Json]] = []
        for doc, entry in enumerate(self._entries):
            if any(p not in entry.text for p in phrases):
                continue
            keyword = all(w in entry.everything or _has_terms(entry, t) for w, t in analysed)
            found = sum(self._index.idf(t) for t in self._index.matched(doc, terms, weights))
            semantic = wanted > 0 and found >= COVERAGE * wanted
            if not {"keyword": keyword, "semantic": semantic}.get(mode, keyword or semantic):
                continue
            if entry.title == whole or exact in entry.ids:
                tier = 0
            else:
                tier = 1 if whole in entry.names else 2
            score = self._index.score(doc, terms, weights)
            paper = entry.paper
            hits.append(((tier, -score, -paper["citation_count"], int(paper["id"])), paper))
        return [paper for _, paper in sorted(hits, key=lambda hit: hit[0])]


def _has_terms(entry: _Entry, terms: list[str]) -> bool:
    """A query word matches by its analysed terms too: "gpt3" finds "GPT-3", "resnets" "ResNet"."""
    return bool(terms) and all(t in entry.terms for t in terms)
