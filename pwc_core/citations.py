"""A paper's citation (`pwc paper info REF --cite bibtex|ris|csl-json`, `get_paper_info` with
`cite`), built from the catalog's own metadata; see README "Citations".

A catalog paper with a conference is a conference paper: the conference is looked up
(`conferences/{slug}`, one request) for its name (the booktitle), year and location; a 404
there falls back on the paper's `conference_name`. Without a conference, an arXiv paper is a
preprint (`@misc` with `eprint` and `archivePrefix = {arXiv}`), anything else a plain `@misc`.
A paper only public metadata knows (pwc_core.resolution.OutsideCatalog) is cited from that
metadata (its DOI where known), and the citation says so: `source: "public_metadata"` and a
`note`. Keys and names: pwc_core.citation_names; the formats: pwc_core.citation_formats.

Every catalog string is hostile: cleaned to one printable line and bounded (titles 1,000
characters, 100 authors, names 200), identifiers used only when they have their own shape.
"""

from __future__ import annotations

import re
from itertools import islice
from typing import Any

from pwc_core.citation_formats import Facts, Kind, render
from pwc_core.citation_names import Name, citation_key, clean, parse_name
from pwc_core.errors import HTTPStatusError
from pwc_core.references import LEGACY_ARXIV, MODERN_ARXIV, strip_version
from pwc_core.replies import require_object
from pwc_core.transport import entity_segment

MAX_TITLE = 1000
MAX_VENUE = 300
MAX_AUTHORS = 100
SOURCES = {"arxiv": "arXiv", "crossref": "Crossref", "huggingface": "Hugging Face Papers"}
_SLUG = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]{0,99}$")
_DATE = re.compile(r"^\d{4}(?:-\d{2}(?:-\d{2})?)?")
_YEAR = re.compile(r"\b(?:1[89]|20)\d\d\b")
# Verbatim identifiers: nothing that could end a field or a line in any format.
_DOI = re.compile(r'^10\.\d{4,9}/[^\s{}\\"<>]+$')
_URL = re.compile(r'^https?://[^\s{}\\"<>]+$')
_CLASS = re.compile(r"^[a-z-]+(?:\.[A-Za-z-]+)?$")
_NOWHERE = frozenset({"virtual", "online"})


def _text(value: Any, limit: int) -> str | None:
    if value is None or isinstance(value, (bool, dict, list)):
        return None
    return clean(value)[:limit].strip() or None


def _shaped(value: Any, pattern: re.Pattern[str]) -> str | None:
    text = _text(value, 300)
    return text if text and pattern.match(text) else None


def _date(value: Any) -> str | None:
    found = _DATE.match(_text(value, 40) or "")
    return found.group() if found else None


def _arxiv(value: Any) -> str | None:
    text = _text(value, 60)
    if text and (MODERN_ARXIV.match(text) or LEGACY_ARXIV.match(text)):
        return strip_version(text)
    return None


def _primary_class(paper: dict[str, Any], arxiv_id: str | None) -> str | None:
    """The arXiv category when the catalog gives one, or a legacy ID names it
    (`hep-th/9711200` → `hep-th`); a modern ID names none, and none is guessed."""
    given = _shaped(paper.get("primary_class") or paper.get("primary_category"), _CLASS)
    if given or not arxiv_id or "/" not in arxiv_id:
        return given
    return _shaped(arxiv_id.split("/", 1)[0], _CLASS)


def _authors(paper: dict[str, Any]) -> tuple[tuple[Name, ...], bool]:
    listed = paper.get("authors")
    raw = listed if isinstance(listed, list) else []
    names = [a.get("name") if isinstance(a, dict) else a for a in raw]
    # Parsed only up to one past the cap: a hostile author list costs no more than that.
    parsed = (n for n in (parse_name(a) for a in names if isinstance(a, str)) if n)
    kept = list(islice(parsed, MAX_AUTHORS + 1))
    return tuple(kept[:MAX_AUTHORS]), len(kept) > MAX_AUTHORS


def conference_of(client: Any, paper: dict[str, Any]) -> dict[str, Any] | None:
    """The paper's conference record, or None when it names none the catalog holds."""
    ref = paper.get("conference")
    if isinstance(ref, dict):
        ref = ref.get("slug") or ref.get("id")
    if not isinstance(ref, (str, int)) or isinstance(ref, bool) or not _SLUG.match(str(ref)):
        return None
    try:
        record = client.get_json(f"conferences/{entity_segment(str(ref))}")
    except HTTPStatusError as error:
        if error.status == 404:
            return None
        raise
    return require_object(record, "Conference response had an unexpected shape")


def _venue(
    paper: dict[str, Any], conference: dict[str, Any] | None, published: str | None
) -> tuple[str | None, str | None, str | None]:
    """(booktitle, year, place) of a conference paper; (None, paper's year, None) otherwise."""
    record = conference or {}
    name = _text(record.get("name"), MAX_VENUE) or _text(paper.get("conference_name"), MAX_VENUE)
    own_year = published[:4] if published else None
    if not name:
        return None, own_year, None
    year = record.get("year")
    if isinstance(year, bool) or not isinstance(year, int) or not 1800 <= year <= 2100:
        named = _YEAR.search(name)
        year = named.group() if named else own_year
    place = _text(record.get("location"), MAX_VENUE)
    if place and place.casefold() in _NOWHERE:
        place = None
    return name, str(year) if year else None, place


def facts_of(paper: dict[str, Any], conference: dict[str, Any] | None) -> Facts:
    """The entry's facts from a paper payload (catalog detail or public metadata)."""
    title = _text(paper.get("title"), MAX_TITLE) or "Untitled"
    authors, more = _authors(paper)
    published = _date(paper.get("published") or paper.get("date_published"))
    booktitle, year, place = _venue(paper, conference, published)
    arxiv_id = _arxiv(paper.get("arxiv_id"))
    kind: Kind = "conference" if booktitle else "preprint" if arxiv_id else "other"
    links = [link.get("url") for link in paper.get("available_at") or [] if isinstance(link, dict)]
    url = next(
        (u for u in [paper.get("url_abs"), paper.get("source_url"), *links] if _shaped(u, _URL)),
        None,
    )
    return Facts(
        key=citation_key(authors[0] if authors else None, published, title),
        kind=kind,
        title=title,
        authors=authors,
        more_authors=more,
        year=year,
        published=published,
        booktitle=booktitle,
        place=place,
        arxiv_id=arxiv_id,
        primary_class=_primary_class(paper, arxiv_id),
        doi=_shaped(paper.get("doi"), _DOI),
        url=_shaped(url, _URL),
    )


def public_metadata_note(paper: dict[str, Any]) -> str:
    source = SOURCES.get(str(paper.get("source")), "public metadata")
    return (
        f"Built from public metadata ({source}): the paper is not in the Papers With Code "
        "catalog, so its venue is unknown."
    )


def citation(client: Any, paper: dict[str, Any], fmt: str) -> dict[str, Any]:
    """`{format, key, source, text[, note]}` for a `paper info` payload."""
    outside = paper.get("in_catalog") is False
    facts = facts_of(paper, None if outside else conference_of(client, paper))
    result = {
        "format": fmt,
        "key": facts.key,
        "source": "public_metadata" if outside else "catalog",
        "text": render(facts, fmt),
    }
    if outside:
        result["note"] = public_metadata_note(paper)
    return result
