"""Paper references: every way people name a paper, resolved in one place.

Accepted: numeric catalog IDs, modern and legacy arXiv IDs (with or without a version, with an
optional `arxiv:` prefix), arXiv abs/pdf URLs, Hugging Face paper URLs, Papers With Code URLs,
exact titles (case-insensitive) and the unique short name before a title's colon. Anything
else that looks like a URL is refused without fetching it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any
from urllib.parse import unquote, urlsplit

from pwc_cli.commands.common import extract_rows
from pwc_cli.errors import (
    AmbiguousError,
    HTTPStatusError,
    NotFoundError,
    ResponseError,
    TransportError,
    UsageError,
)
from pwc_cli.render import tsv_escape
from pwc_cli.transport import entity_segment

MAX_REFERENCE_CHARS = 500
MODERN_ARXIV = re.compile(r"^\d{4}\.\d{4,5}(v\d+)?$", re.IGNORECASE)
LEGACY_ARXIV = re.compile(r"^[A-Za-z][A-Za-z0-9.\-]*/\d{7}(v\d+)?$", re.IGNORECASE)
NUMERIC = re.compile(r"^\d+$")
_VERSION = re.compile(r"v\d+$", re.IGNORECASE)
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")
_SPACE = re.compile(r"\s+")
_ARXIV_HOSTS = {"arxiv.org", "www.arxiv.org", "export.arxiv.org"}
_HF_HOSTS = {"huggingface.co", "www.huggingface.co", "hf.co"}
_PWC_HOSTS = {
    "paperswithcode.co",
    "www.paperswithcode.co",
    "paperswithcode.com",
    "www.paperswithcode.com",
}
TITLE_SEARCH_PAGE_SIZE = 20
# Mappings followed for one reference (title → ID → the paper a stale ID maps to ...); real
# chains are one or two long, and a hostile or broken catalog must not make one call a crawl.
MAX_HOPS = 4


@dataclass(frozen=True)
class ParsedReference:
    """A reference after syntax checks: an identifier, or text to match against titles."""

    text: str
    identifier: str | None = None
    slug: str | None = None  # a Papers With Code URL slug that is not an identifier


def is_identifier(text: str) -> bool:
    return bool(NUMERIC.match(text) or MODERN_ARXIV.match(text) or LEGACY_ARXIV.match(text))


def normalize_title(text: Any) -> str:
    return _SPACE.sub(" ", str(text or "")).strip().casefold()


def parse_reference(raw: str) -> ParsedReference:
    """Syntax only, no network: identifiers and URLs become identifiers; the rest is a title."""
    text = (raw or "").strip()
    if not text:
        raise ResponseError("Paper reference cannot be empty")
    if len(text) > MAX_REFERENCE_CHARS:
        raise UsageError(f"Paper reference is too long (at most {MAX_REFERENCE_CHARS} characters)")
    if _CONTROL.search(text):
        raise UsageError("Paper reference must not contain control characters")
    if text.lower().startswith("arxiv:"):
        candidate = text[6:].strip()
        if MODERN_ARXIV.match(candidate) or LEGACY_ARXIV.match(candidate):
            return ParsedReference(text, identifier=candidate)
    if is_identifier(text):
        return ParsedReference(text, identifier=text)
    if re.match(r"^[a-z][a-z0-9+.\-]*://", text, re.IGNORECASE):
        return _parse_url(text)
    return ParsedReference(text)


def _parse_url(url: str) -> ParsedReference:
    parts = urlsplit(url)
    host = (parts.hostname or "").lower()
    segments = [unquote(s) for s in parts.path.split("/") if s]
    if parts.scheme.lower() in ("http", "https") and segments:
        if host in _ARXIV_HOSTS and segments[0] in ("abs", "pdf") and len(segments) > 1:
            return _url_identifier(url, "/".join(segments[1:]))
        if host in _HF_HOSTS and segments[0] == "papers" and len(segments) == 2:
            return _url_identifier(url, segments[1])
        if host in _PWC_HOSTS and segments[0] == "paper" and len(segments) == 2:
            tail = strip_version(segments[1].removesuffix(".pdf"))
            if is_identifier(tail):
                return ParsedReference(url, identifier=tail)
            return ParsedReference(url, slug=segments[1])
    raise UsageError(
        f"Paper URL not supported: {url}; only arXiv, Hugging Face, and Papers With Code "
        "URLs resolve"
    )


def strip_version(text: str) -> str:
    """An arXiv ID without its `vN` suffix; anything else unchanged."""
    return (
        _VERSION.sub("", text) if (MODERN_ARXIV.match(text) or LEGACY_ARXIV.match(text)) else text
    )


def _url_identifier(url: str, tail: str) -> ParsedReference:
    candidate = strip_version(tail.removesuffix(".pdf"))
    if not is_identifier(candidate):
        raise UsageError(
            f"Paper URL not supported: {url}; only arXiv, Hugging Face, and Papers With Code "
            "URLs resolve"
        )
    return ParsedReference(url, identifier=candidate)


def row_reference(row: dict[str, Any]) -> str | None:
    for key in ("arxiv_id", "route_identifier", "id"):
        value = row.get(key)
        if value not in (None, ""):
            return str(value)
    return None


def _label(row: dict[str, Any]) -> str:
    title = row.get("title") or "Untitled"
    return f"{tsv_escape(title)} ({row_reference(row) or 'unknown ID'})"


def _slugify(title: Any) -> str:
    return re.sub(r"[^a-z0-9]+", "-", str(title or "").lower()).strip("-")


def _distinct(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    seen: dict[str, dict[str, Any]] = {}
    for row in rows:
        ref = row_reference(row)
        if ref and ref not in seen:
            seen[ref] = row
    return list(seen.values())


def _short_name(title: Any) -> str | None:
    text = str(title or "")
    return normalize_title(text.split(":", 1)[0]) if ":" in text else None


def match_title(rows: list[dict[str, Any]], parsed: ParsedReference) -> list[dict[str, Any]]:
    """Rows whose title (or slug, for a PwC URL) is the reference; else by unique short name."""
    if parsed.slug:
        wanted_slug = parsed.slug.lower()
        return _distinct(
            [r for r in rows if (r.get("slug") or _slugify(r.get("title"))) == wanted_slug]
        )
    wanted = normalize_title(parsed.text)
    exact = _distinct([r for r in rows if normalize_title(r.get("title")) == wanted])
    if exact:
        return exact
    return _distinct([r for r in rows if _short_name(r.get("title")) == wanted])


def search_titles(client: Any, parsed: ParsedReference) -> list[dict[str, Any]]:
    """One keyword search for the candidate title (the slug's words for a PwC URL)."""
    query = parsed.slug.replace("-", " ") if parsed.slug else parsed.text
    payload = client.get_json(
        "papers/search",
        {"q": query, "page": 1, "page_size": TITLE_SEARCH_PAGE_SIZE, "mode": "keyword"},
    )
    rows, _ = extract_rows(payload)
    return rows


def resolve_title(client: Any, parsed: ParsedReference) -> str:
    rows = search_titles(client, parsed)
    matches = match_title(rows, parsed)
    shown = tsv_escape(parsed.text)
    if len(matches) == 1:
        return str(row_reference(matches[0]))
    if matches:
        raise AmbiguousError(
            f"Paper title is ambiguous: {shown}; " + "; ".join(_label(r) for r in matches)
        )
    closest = "; ".join(_label(r) for r in rows[:3])
    raise NotFoundError(
        f"Paper title not found: {shown}" + (f"; closest results: {closest}" if closest else "")
    )


def resolve_paper(client: Any, raw: str) -> str:
    """The catalog reference (arXiv ID, legacy ID or numeric ID) for any accepted form;
    a title the catalog lacks goes through the public-metadata fallback."""
    return resolve_in_catalog(client, raw)


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
    paper = entry.get("catalog_paper") if isinstance(entry.get("catalog_paper"), dict) else entry
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
                raise AmbiguousError(
                    f"Paper title is ambiguous: {tsv_escape(reference)}; "
                    + "; ".join(
                        f"{tsv_escape(e['title'])} ({e.get('arxiv_id') or e.get('doi') or e.get('reference')})"
                        for e in entries
                    )
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
    except AmbiguousError:
        raise
    except NotFoundError as catalog_miss:
        if parsed.slug:
            raise
        try:
            entry = public_metadata(client, parsed.text, title=True)
        except MetadataMiss as miss:
            tail = (
                "the public metadata lookup is unavailable right now"
                if miss.unavailable
                else f"title also tried in public metadata ({METADATA_SOURCES})"
            )
            raise NotFoundError(f"{catalog_miss}; {tail}") from None
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
            mapped, entry = identifier_fallback(client, identifier)
            if mapped is None:
                raise OutsideCatalog(identifier, entry) from None
            current = hops.follow(mapped)
            continue
        arxiv = paper.get("arxiv_id") if isinstance(paper, dict) else None
        return strip_version(str(arxiv)) if arxiv else identifier
