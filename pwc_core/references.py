"""Paper references: every way people name a paper, parsed and matched without the network.

Accepted: numeric catalog IDs, modern and legacy arXiv IDs (with or without a version, with an
optional `arxiv:` prefix), arXiv abs/pdf URLs, Hugging Face paper URLs, Papers With Code URLs,
DOI URLs (`https://doi.org/10.xxxx/yyy`, the same as the bare DOI), exact titles
(case-insensitive) and the unique short name before a title's colon. Anything else that looks
like a URL is refused without fetching it. Resolving a reference against the
catalog is pwc_core.resolution's.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any
from urllib.parse import unquote, urlsplit

from pwc_core.errors import RefusedRequest, UsageError

MAX_REFERENCE_CHARS = 500
MODERN_ARXIV = re.compile(r"^\d{4}\.\d{4,5}(v\d+)?$", re.IGNORECASE)
LEGACY_ARXIV = re.compile(r"^[A-Za-z][A-Za-z0-9.\-]*/\d{7}(v\d+)?$", re.IGNORECASE)
NUMERIC = re.compile(r"^\d+$")
DOI = re.compile(r"^10\.\d{4,9}/\S+$")  # Crossref's pattern for modern DOIs
_VERSION = re.compile(r"v\d+$", re.IGNORECASE)
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")
_SPACE = re.compile(r"\s+")
_ARXIV_HOSTS = {"arxiv.org", "www.arxiv.org", "export.arxiv.org"}
_HF_HOSTS = {"huggingface.co", "www.huggingface.co", "hf.co"}
_DOI_HOSTS = {"doi.org", "www.doi.org", "dx.doi.org"}
_UNSUPPORTED = "only arXiv, Hugging Face, Papers With Code and doi.org URLs resolve"
_PWC_HOSTS = {
    "paperswithcode.co",
    "www.paperswithcode.co",
    "paperswithcode.com",
    "www.paperswithcode.com",
}


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
        raise RefusedRequest("Paper reference cannot be empty")
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
        doi = "/".join(segments)
        if host in _DOI_HOSTS and DOI.match(doi):
            # the bare DOI, which is looked up as a bare DOI is (the catalog, then public
            # metadata); a DOI's own `/` are kept, `%2F` included
            return ParsedReference(doi)
    raise UsageError(f"Paper URL not supported: {url}; {_UNSUPPORTED}")


def strip_version(text: str) -> str:
    """An arXiv ID without its `vN` suffix; anything else unchanged."""
    return (
        _VERSION.sub("", text) if (MODERN_ARXIV.match(text) or LEGACY_ARXIV.match(text)) else text
    )


def _url_identifier(url: str, tail: str) -> ParsedReference:
    candidate = strip_version(tail.removesuffix(".pdf"))
    if not is_identifier(candidate):
        raise UsageError(f"Paper URL not supported: {url}; {_UNSUPPORTED}")
    return ParsedReference(url, identifier=candidate)


REFERENCE_KEYS = ("arxiv_id", "route_identifier", "id")  # a row's identifiers, preferred first


def row_reference(row: dict[str, Any]) -> str | None:
    for key in REFERENCE_KEYS:
        value = row.get(key)
        if value not in (None, ""):
            return str(value)
    return None


def slugify(title: Any) -> str:
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
            [r for r in rows if (r.get("slug") or slugify(r.get("title"))) == wanted_slug]
        )
    wanted = normalize_title(parsed.text)
    exact = _distinct([r for r in rows if normalize_title(r.get("title")) == wanted])
    if exact:
        return exact
    return _distinct([r for r in rows if _short_name(r.get("title")) == wanted])
