"""One citation's facts written as BibTeX, RIS or CSL-JSON (`paper info --cite`).

Every format states the same facts (`Facts`, gathered by pwc_core.citations). Every string in
them has already been cleaned to one printable line (pwc_core.citation_names.clean), so no
format can carry a terminal escape sequence or a line break out of its field.

BibTeX: values are brace-delimited; `& % $ # _` become `\\&` ...; `\\ ~ ^ { }` become
`\\textbackslash{}`, `\\textasciitilde{}`, `\\textasciicircum{}`, `\\textbraceleft{}`,
`\\textbraceright{}`. Braces are never written as `\\{` `\\}`: BibTeX counts those as braces
too, so an unbalanced one in a title would end the field early (an injection); every brace the
entry holds is one of a pair we wrote. Non-ASCII stays UTF-8 (biber and bibtex with a UTF-8
input encoding read it). Title words with a capital after their first letter ("BERT",
"ImageNet") are braced so that styles keep their case. A standalone "and" inside a name is
braced so that it does not split the author list. `doi`, `url` and `eprint` are verbatim fields
and are only written when they have none of `{ } \\ "` or whitespace.

RIS: one `TAG  - value` line per fact, `TY` first and `ER` last. CSL-JSON: a one-item array.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any, Literal

from pwc_core.citation_names import Name

FORMATS = ("bibtex", "ris", "csl-json")
Kind = Literal["conference", "preprint", "other"]

_BIBTEX_SPECIAL = {
    "\\": r"\textbackslash{}",
    "{": r"\textbraceleft{}",
    "}": r"\textbraceright{}",
    "~": r"\textasciitilde{}",
    "^": r"\textasciicircum{}",
    "&": r"\&",
    "%": r"\%",
    "$": r"\$",
    "#": r"\#",
    "_": r"\_",
}
_SPECIAL = re.compile(r"[\\{}~^&%$#_]")
_AND = re.compile(r"\band\b", re.IGNORECASE)
_WORD = re.compile(r"\w(?:[\w-]*\w)?")
_VERBATIM = re.compile(r'^[^\s{}\\"]+$')


@dataclass(frozen=True)
class Facts:
    """What one entry says. `year` is the entry's (the venue's for a conference paper);
    `published` is the paper's own date (YYYY-MM-DD or a prefix of it)."""

    key: str
    kind: Kind
    title: str
    authors: tuple[Name, ...]
    more_authors: bool = False
    year: str | None = None
    published: str | None = None
    booktitle: str | None = None
    place: str | None = None
    arxiv_id: str | None = None
    primary_class: str | None = None
    doi: str | None = None
    url: str | None = None


def render(facts: Facts, fmt: str) -> str:
    if fmt == "bibtex":
        return bibtex(facts)
    if fmt == "ris":
        return ris(facts)
    return csl_json(facts)


# --- BibTeX ---------------------------------------------------------------------------------


def latex(text: str) -> str:
    """`text` with LaTeX's special characters escaped (rules in the module docstring)."""
    return _SPECIAL.sub(lambda m: _BIBTEX_SPECIAL[m.group()], text)


def _cased(word: str) -> bool:
    """A word whose case a style must keep: a capital after the first letter of one of its
    hyphenated parts ("BERT", "ImageNet", "DeepSeek-R1"; not "Short-Term")."""
    return any(any(c.isupper() for c in part[1:]) for part in word.split("-"))


def _protect(word: re.Match[str]) -> str:
    text = latex(word.group())
    return "{" + text + "}" if _cased(word.group()) else text


def _title(text: str) -> str:
    """The title escaped, its cased words braced (punctuation outside the braces)."""
    pieces = _WORD.split(text)
    words = _WORD.finditer(text)
    out = [latex(pieces[0])]
    for word, rest in zip(words, pieces[1:], strict=True):
        out += [_protect(word), latex(rest)]
    return "".join(out)


def _name_part(text: str) -> str:
    return _AND.sub(lambda m: "{" + m.group() + "}", latex(text))


def bibtex_name(name: Name) -> str:
    """`von Last, Jr, First` (BibTeX's full form); a literal name braced whole."""
    if name.literal:
        return "{" + _name_part(name.family) + "}"
    last = _name_part(f"{name.particle} {name.family}".strip())
    if name.suffix:
        return f"{last}, {_name_part(name.suffix)}, {_name_part(name.given)}"
    return f"{last}, {_name_part(name.given)}" if name.given else last


def verbatim(value: str | None) -> str | None:
    return value if value and _VERBATIM.match(value) else None


def bibtex(facts: Facts) -> str:
    entry = "inproceedings" if facts.kind == "conference" else "misc"
    names = [bibtex_name(n) for n in facts.authors] + (["others"] if facts.more_authors else [])
    eprint = verbatim(facts.arxiv_id)
    fields: list[tuple[str, str | None]] = [
        ("title", _title(facts.title)),
        ("author", " and ".join(names) or None),
        ("booktitle", latex(facts.booktitle) if facts.booktitle else None),
        ("address", latex(facts.place) if facts.place else None),
        ("year", facts.year),
        ("eprint", eprint),
        ("archivePrefix", "arXiv" if eprint else None),
        ("primaryClass", verbatim(facts.primary_class) if eprint else None),
        ("doi", verbatim(facts.doi)),
        ("url", verbatim(facts.url)),
    ]
    body = ",\n".join(f"  {name} = {{{value}}}" for name, value in fields if value)
    return f"@{entry}{{{facts.key},\n{body}\n}}\n"


# --- RIS ------------------------------------------------------------------------------------


def ris_name(name: Name) -> str:
    """`Last, First, Suffix` (the RIS form); a literal name as it is."""
    if name.literal:
        return name.family
    parts = [f"{name.particle} {name.family}".strip(), name.given, name.suffix]
    while parts and not parts[-1]:
        parts.pop()
    return ", ".join(parts)


def ris(facts: Facts) -> str:
    kind = {"conference": "CPAPER", "preprint": "UNPB"}.get(facts.kind, "GEN")
    date = facts.published.replace("-", "/") if facts.published else None
    lines: list[tuple[str, str | None]] = [
        ("TY", kind),
        ("ID", facts.key),
        ("TI", facts.title),
        *(("AU", ris_name(n)) for n in facts.authors),
        ("T2", facts.booktitle),
        ("CY", facts.place),
        ("PY", facts.year),
        ("DA", date if facts.kind != "conference" else None),
        ("PB", "arXiv" if facts.kind == "preprint" else None),
        ("AN", f"arXiv:{facts.arxiv_id}" if facts.arxiv_id else None),
        ("DO", facts.doi),
        ("UR", facts.url),
    ]
    text = "".join(f"{tag}  - {value}\n" for tag, value in lines if value)
    return text + "ER  - \n"


# --- CSL-JSON -------------------------------------------------------------------------------


def csl_name(name: Name) -> dict[str, str]:
    if name.literal:
        return {"literal": name.family}
    parts = {
        "family": name.family,
        "given": name.given,
        "non-dropping-particle": name.particle,
        "suffix": name.suffix,
    }
    return {key: value for key, value in parts.items() if value}


def _date_parts(facts: Facts) -> list[int] | None:
    if facts.kind != "conference" and facts.published:
        parts = [int(p) for p in facts.published.split("-") if p.isdigit()]
        return parts or None
    return [int(facts.year)] if facts.year and facts.year.isdigit() else None


def csl_json(facts: Facts) -> str:
    kind = {"conference": "paper-conference", "preprint": "article"}.get(facts.kind, "document")
    parts = _date_parts(facts)
    item: dict[str, Any] = {
        "id": facts.key,
        "type": kind,
        "title": facts.title,
        "author": [csl_name(n) for n in facts.authors],
        "issued": {"date-parts": [parts]} if parts else None,
        "container-title": facts.booktitle,
        "event-title": facts.booktitle,
        "event-place": facts.place,
        "publisher": "arXiv" if facts.kind == "preprint" else None,
        "number": f"arXiv:{facts.arxiv_id}"
        if facts.arxiv_id and facts.kind == "preprint"
        else None,
        "DOI": facts.doi,
        "URL": facts.url,
    }
    kept = {key: value for key, value in item.items() if value}
    return json.dumps([kept], ensure_ascii=False, indent=2) + "\n"
