"""Resolving a paper reference against the catalog: the one path the CLI's handlers and the
MCP server both take.

A reference is first parsed (pwc_core.references, no network). An identifier is used as given,
a title is matched against one keyword search, and a paper the catalog lacks is looked up in
public metadata: either it maps to a catalog paper (followed, at most MAX_HOPS mappings for one
reference; a cycle is a clean not-found) or it is known only outside the catalog
(OutsideCatalog, whose metadata `paper info` shows). The server asks for the canonical
reference (`canonical_reference`: an arXiv ID without version, else the catalog ID), so every
form of one paper shares one cache entry and one continuation cursor.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any, TypeVar

from pwc_core.aliases import exact_alias
from pwc_core.errors import AmbiguousError, HTTPStatusError, NotFoundError, TransportError
from pwc_core.references import (
    ParsedReference,
    match_title,
    parse_reference,
    row_reference,
    strip_version,
)
from pwc_core.replies import extract_rows
from pwc_core.suggest import CLOSEST_SHOWN, Scores, gather, keyword_queries, rank
from pwc_core.text import tsv_escape
from pwc_core.transport import entity_segment, paper_segment
from pwc_core.wording import Ambiguity, Candidate

TITLE_SEARCH_PAGE_SIZE = 20
# Mappings followed for one reference (title → ID → the paper a stale ID maps to ...); real
# chains are one or two long, and a hostile or broken catalog must not make one call a crawl.
MAX_HOPS = 4


def _label(row: dict[str, Any]) -> str:
    title = row.get("title") or "Untitled"
    return f"{tsv_escape(title)} ({row_reference(row) or 'unknown ID'})"


def _query(parsed: ParsedReference) -> str:
    return parsed.slug.replace("-", " ") if parsed.slug else parsed.text


def _keyword_search(client: Any, query: str) -> list[dict[str, Any]]:
    payload = client.get_json(
        "papers/search",
        {"q": query, "page": 1, "page_size": TITLE_SEARCH_PAGE_SIZE, "mode": "keyword"},
    )
    rows, _ = extract_rows(payload)
    return rows


def search_titles(client: Any, parsed: ParsedReference) -> list[dict[str, Any]]:
    """One keyword search for the candidate title (the slug's words for a PwC URL)."""
    return _keyword_search(client, _query(parsed))


class TitleMiss(NotFoundError):
    """No catalog title matches; `suggested` names the closest ones, asked for only when the
    answer is a miss (public metadata may still know the paper)."""

    def __init__(self, parsed: ParsedReference, rows: list[dict[str, Any]]) -> None:
        super().__init__(f"Paper title not found: {tsv_escape(parsed.text)}")
        self.parsed, self.rows = parsed, rows

    def suggested(self, client: Any) -> str:
        """The message with the paper the reference is an exact alias of (pwc_core.aliases);
        else up to three titles most like the one asked for: from the search in hand, or when
        none is alike from a few keyword searches leaving a word out."""

        def title(row: dict[str, Any]) -> str:
            return str(row.get("title") or "")

        typed = _query(self.parsed)
        alias = None if self.parsed.slug else exact_alias(client, typed, self.rows)
        if alias is not None:
            introduced = f"the paper that introduced {tsv_escape(alias.method)}"
            return f"{self}; {introduced} is {_label(alias.row)}"
        scores = Scores(typed)  # each title scored once, for the gathering and the ranking
        found = gather(
            typed, self.rows, lambda q: _keyword_search(client, q), title, keyword_queries, scores
        )
        once = {(title(r), row_reference(r)): r for r in found}.values()  # a paper once
        closest = [_label(r) for r in rank(typed, once, title, CLOSEST_SHOWN, scores)]
        return str(self) + (f"; closest results: {'; '.join(closest)}" if closest else "")


def resolve_title(client: Any, parsed: ParsedReference) -> str:
    """The reference of the one catalog paper with this title; else AmbiguousError or a
    TitleMiss."""
    rows = search_titles(client, parsed)
    matches = match_title(rows, parsed)
    shown = tsv_escape(parsed.text)
    if len(matches) == 1:
        return str(row_reference(matches[0]))
    if matches:
        raise AmbiguousError(
            f"Paper title is ambiguous: {shown}; " + "; ".join(_label(r) for r in matches),
            Ambiguity(
                "paper",
                parsed.text,
                "catalog papers",
                tuple(_candidate(r) for r in matches if row_reference(r)),
                describe=lambda c: _with_venue(client, c),
            ),
        )
    raise TitleMiss(parsed, rows)


def _candidate(row: dict[str, Any]) -> Candidate:
    """A paper as an ambiguity lists it: its reference, title, year and venue (when known)."""
    return Candidate(str(row_reference(row)), str(row.get("title") or ""), _year_and_venue(row))


def _year_and_venue(record: dict[str, Any]) -> tuple[str, ...]:
    published = record.get("published") or record.get("date_published")
    year = str(published)[:4] if isinstance(published, str) and published[:4].isdigit() else ""
    venue = record.get("conference_name") or record.get("conference")
    return tuple(t for t in (year, venue if isinstance(venue, str) else "") if t)


def _with_venue(client: Any, candidate: Candidate) -> Candidate:
    """A candidate's year and venue from the paper's detail (a search row has no venue): one
    request, asked for by a tool's message only."""
    paper = client.get_json(f"papers/{paper_segment(candidate.value)}")
    traits = _year_and_venue(paper) if isinstance(paper, dict) else ()
    return replace(candidate, traits=traits) if len(traits) > len(candidate.traits) else candidate


# --- the public-metadata fallback (papers outside the catalog) -------------------------------

METADATA_SOURCES = "Hugging Face Papers, arXiv and Crossref"


class MetadataMiss(NotFoundError):
    """Neither the catalog nor public metadata knows the reference (or the lookup failed)."""

    def __init__(self, message: str, *, unavailable: bool = False) -> None:
        super().__init__(message)
        self.unavailable = unavailable


class OutsideCatalog(NotFoundError):
    """The catalog does not hold the paper, but public metadata knows it."""

    def __init__(self, reference: str, metadata: dict[str, Any]) -> None:
        links = "; ".join(
            f"{link.get('label')}: {link.get('url')}"
            for link in metadata.get("available_at") or []
            if isinstance(link, dict) and link.get("url")
        )
        title = metadata.get("title") or reference
        super().__init__(
            f"Paper not in the catalog: {tsv_escape(reference)} ({tsv_escape(title)}); full text is "
            f"only read from the catalog" + (f"; available at {links}" if links else "")
        )
        self.metadata = metadata


def _metadata_entry(entry: Any) -> dict[str, Any] | None:
    return entry if isinstance(entry, dict) and entry.get("title") else None


def _catalog_reference(entry: dict[str, Any]) -> str | None:
    """A fallback answer that maps into the catalog gives the paper's arXiv or catalog ID."""
    if entry.get("in_catalog") is not True:
        return None
    nested = entry.get("catalog_paper")
    paper: dict[str, Any] = nested if isinstance(nested, dict) else entry
    for key in ("arxiv_id", "id"):
        if paper.get(key) not in (None, ""):
            return str(paper[key])
    return None


def public_metadata(client: Any, reference: str, *, title: bool) -> dict[str, Any]:
    """Metadata for a reference the catalog does not hold, or a not-found that says what was
    tried. A returned entry with `in_catalog: true` names the catalog paper to retry with."""
    kind = "title" if title else "identifier"
    try:
        try:
            entry = _metadata_entry(
                client.get_json(f"papers/{entity_segment(reference)}/public-metadata")
            )
        except HTTPStatusError as error:
            if error.status == 404:
                entry = None
            elif error.status == 422:  # not an identifier: try it as a title
                entry = None
                kind = "title"
            else:
                raise
        note = None
        if entry is None and kind == "title":
            found = client.get_json("papers/public-metadata/search", {"title": reference})
            results = found.get("results") if isinstance(found, dict) else None
            entries = [e for e in results or [] if _metadata_entry(e)]
            if len(entries) == 1:
                entry = entries[0]
                note = entry.get("note") or found.get("note")
            elif len(entries) > 1:
                candidates = tuple(
                    Candidate(
                        str(e.get("arxiv_id") or e.get("doi") or e.get("reference")),
                        str(e["title"]),
                        _year_and_venue(e),
                    )
                    for e in entries
                )
                raise AmbiguousError(
                    f"Paper title is ambiguous: {tsv_escape(reference)}; "
                    + "; ".join(f"{tsv_escape(c.label)} ({c.value})" for c in candidates),
                    Ambiguity("paper", reference, "papers in public metadata", candidates),
                )
    except TransportError:
        raise MetadataMiss(
            f"Paper not found in the catalog: {tsv_escape(reference)}; the public metadata lookup "
            "is unavailable right now, retry later",
            unavailable=True,
        ) from None
    if entry is None:
        raise MetadataMiss(
            f"Paper not found: {tsv_escape(reference)}; {kind} tried in the catalog and in public "
            f"metadata ({METADATA_SOURCES})"
        )
    result = dict(entry)
    if note:
        result["note"] = note
    return result


def resolve_or_metadata(client: Any, raw: str) -> tuple[str | None, dict[str, Any] | None]:
    """(catalog reference, None) when the catalog holds the paper; (None, metadata) otherwise.

    Identifiers are used verbatim (the caller's request reveals a miss); titles are looked up
    in the catalog first, then in public metadata.
    """
    parsed = parse_reference(raw)
    if parsed.identifier:
        return parsed.identifier, None
    try:
        return resolve_title(client, parsed), None
    except TitleMiss as catalog_miss:
        if parsed.slug:
            raise NotFoundError(catalog_miss.suggested(client)) from None
        try:
            entry = public_metadata(client, parsed.text, title=True)
        except MetadataMiss as miss:
            tail = (
                "the public metadata lookup is unavailable right now"
                if miss.unavailable
                else f"title also tried in public metadata ({METADATA_SOURCES})"
            )
            raise NotFoundError(f"{catalog_miss.suggested(client)}; {tail}") from None
    mapped = _catalog_reference(entry)
    if mapped:
        return mapped, None
    return None, entry


def resolve_in_catalog(client: Any, raw: str) -> str:
    """A catalog reference, or OutsideCatalog naming where the paper is available."""
    reference, metadata = resolve_or_metadata(client, raw)
    if reference is None:
        raise OutsideCatalog(raw.strip(), metadata or {})
    return reference


def identifier_fallback(client: Any, reference: str) -> tuple[str | None, dict[str, Any]]:
    """After the catalog 404s on an identifier: (catalog reference to retry, entry) or
    (None, metadata of a paper outside the catalog). A paper mapped to itself is not found."""
    entry = public_metadata(client, reference, title=False)
    mapped = _catalog_reference(entry)
    if mapped is not None:
        Hops(reference).follow(mapped)
    return mapped, entry


class Hops:
    """The references one resolution has gone through: at most `limit` mappings, no repeats."""

    def __init__(self, reference: str, limit: int = MAX_HOPS) -> None:
        self.reference = reference.strip()
        self.seen = {self.reference}
        self.left = limit

    def follow(self, mapped: str) -> str:
        """`mapped`, counted as one hop; a cycle or an over-long chain is a clean not-found."""
        shown = tsv_escape(self.reference)
        if mapped in self.seen:
            raise NotFoundError(f"Paper not found: {shown}; the catalog maps it in a cycle")
        if self.left <= 0:
            raise NotFoundError(
                f"Paper not found: {shown}; the catalog maps it through more than {MAX_HOPS} "
                "other references"
            )
        self.left -= 1
        self.seen.add(mapped)
        return mapped


def canonical_reference(client: Any, raw: str) -> str:
    """The one reference a paper is known by: its arXiv ID without version, else its catalog
    ID. A title resolves to a catalog row; a catalog ID the catalog lacks is retried as the
    paper public metadata maps it to, for at most MAX_HOPS hops in all."""
    hops = Hops(raw)
    current = raw
    while True:
        identifier = parse_reference(current).identifier
        if identifier is None:
            current = hops.follow(resolve_in_catalog(client, current))
            continue
        if not identifier.isdigit():
            return strip_version(identifier)
        try:
            paper = client.get_json(f"papers/{identifier}")
        except HTTPStatusError as error:
            if error.status != 404:
                raise
        else:
            arxiv = paper.get("arxiv_id") if isinstance(paper, dict) else None
            return strip_version(str(arxiv)) if arxiv else identifier
        current = hops.follow(mapped_reference(client, identifier))


# --- a record of a resolved paper -----------------------------------------------------------

T = TypeVar("T")


def _in_catalog(client: Any, reference: str) -> bool:
    try:
        client.get_json(f"papers/{paper_segment(reference)}")
    except HTTPStatusError as error:
        if error.status == 404:
            return False
        raise
    return True


def mapped_reference(client: Any, reference: str) -> str:
    """After the catalog 404s on `reference`: the catalog paper public metadata maps it to (a
    paper mapped to itself is a cycle), or OutsideCatalog when only public metadata knows it."""
    mapped, entry = identifier_fallback(client, reference)
    if mapped is None:
        raise OutsideCatalog(reference, entry)
    return mapped


def about_paper(
    client: Any, reference: str, fetch: Callable[[str], T], missing: str | None
) -> tuple[T, str]:
    """(fetch(reference), the reference used). After a 404: a paper the catalog holds lacks
    this record (NotFoundError `missing`; None when the record is the paper itself, so its 404
    already says the catalog lacks it); a paper it lacks is retried as the catalog paper public
    metadata maps it to, or else OutsideCatalog says where the paper is available."""
    try:
        return fetch(reference), reference
    except HTTPStatusError as error:
        if error.status != 404:
            raise
    if missing is not None and _in_catalog(client, reference):
        raise NotFoundError(f"{missing}: {reference}")
    mapped = mapped_reference(client, reference)
    return fetch(mapped), mapped


def require_paper(client: Any, paper: str) -> None:
    """After a record of the canonical `paper` 404s: return when the catalog holds the paper
    (only the record is missing); OutsideCatalog when only public metadata knows it; else the
    catalog's 404 (canonical resolution already followed every mapping it may)."""
    try:
        client.get_json(f"papers/{paper_segment(paper)}")
    except HTTPStatusError as error:
        if error.status == 404:
            mapped, entry = identifier_fallback(client, paper)
            if mapped is None:
                raise OutsideCatalog(paper, entry) from None
        raise


def outside_catalog(metadata: dict[str, Any]) -> dict[str, Any]:
    """`paper info` of a paper only public metadata knows: labelled links, never full text."""
    return {**metadata, "in_catalog": False}
