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

from pwc_cli.errors import AmbiguousError, NotFoundError, ResponseError, UsageError

MAX_REFERENCE_CHARS = 500
MODERN_ARXIV = re.compile(r"^\d{4}\.\d{4,5}(v\d+)?$", re.IGNORECASE)
LEGACY_ARXIV = re.compile(r"^[A-Za-z][A-Za-z0-9.\-]*/\d{7}(v\d+)?$", re.IGNORECASE)
NUMERIC = re.compile(r"^\d+$")
_VERSION = re.compile(r"v\d+$", re.IGNORECASE)
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")
_SPACE = re.compile(r"\s+")
_ARXIV_HOSTS = {"arxiv.org", "www.arxiv.org", "export.arxiv.org"}
_HF_HOSTS = {"huggingface.co", "www.huggingface.co", "hf.co"}
_PWC_HOSTS = {"paperswithcode.co", "www.paperswithcode.co", "paperswithcode.com",
              "www.paperswithcode.com"}
TITLE_SEARCH_PAGE_SIZE = 20


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
            tail = _strip_version(segments[1].removesuffix(".pdf"))
            if is_identifier(tail):
                return ParsedReference(url, identifier=tail)
            return ParsedReference(url, slug=segments[1])
    raise UsageError(
        f"Paper URL not supported: {url}; only arXiv, Hugging Face, and Papers With Code "
        "URLs resolve"
    )


def _strip_version(text: str) -> str:
    return _VERSION.sub("", text) if (MODERN_ARXIV.match(text) or LEGACY_ARXIV.match(text)) else text


def _url_identifier(url: str, tail: str) -> ParsedReference:
    candidate = _strip_version(tail.removesuffix(".pdf"))
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
    return f"{_escape(title)} ({row_reference(row) or 'unknown ID'})"


def _escape(text: Any) -> str:
    return (
        str(text).replace("\\", "\\\\").replace("\t", "\\t").replace("\r", "").replace("\n", "\\n")
    )


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
        return _distinct([r for r in rows if (r.get("slug") or _slugify(r.get("title"))) == wanted_slug])
    wanted = normalize_title(parsed.text)
    exact = _distinct([r for r in rows if normalize_title(r.get("title")) == wanted])
    if exact:
        return exact
    return _distinct([r for r in rows if _short_name(r.get("title")) == wanted])


def search_titles(client: Any, parsed: ParsedReference) -> list[dict[str, Any]]:
    """One keyword search for the candidate title (the slug's words for a PwC URL)."""
    from pwc_cli.commands.common import extract_rows

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
    shown = _escape(parsed.text)
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
    """The catalog reference (arXiv ID, legacy ID or numeric ID) for any accepted form."""
    parsed = parse_reference(raw)
    if parsed.identifier:
        return parsed.identifier
    return resolve_title(client, parsed)
