"""Author names and citation keys for `paper info --cite` (pwc_core.citations).

A catalog author is one display string ("Jacob Devlin", "Laurens van der Maaten", "Martin
Luther King Jr.", "Jian Sun [1187]"); citations need its parts. The rules, in order:

- the catalog's disambiguation suffix (" [1187]") is dropped; whitespace is folded and control
  characters removed;
- a name with commas is already "Last, First" or "Last, Jr, First" (BibTeX's forms);
- otherwise the last word is the family name, a trailing "Jr", "Jr.", "Sr", "Sr.", "II", "III"
  or "IV" is the suffix, and the lower-case particles just before the family name ("van der",
  "de la", "von", ...) are its particle; the words before are the given names;
- a one-word name ("DeepSeek-AI") or one ending in Team, Group, Lab, Labs, Consortium or
  Collaboration ("Kimi Team") is a literal (corporate) name and is never split.

Compound family names without a particle ("García Márquez") cannot be told from a middle name
and read as given names plus the last word; the catalog gives no more than the display string.

The key (`citation_key`) is `<family><year><word>`, lower-case ASCII letters and digits only:
the first author's family name without particle or suffix (a literal name whole), the four
digits of the paper's publication year (left out when unknown), and the first word of the title
that is not a stop word ("a", "an", "the", "of", "on", ...). Non-ASCII letters are transliterated
by Unicode decomposition with accents dropped ("Schmidhuber", "Jürgen" → "jurgen"; "ß" → "ss",
"ø" → "o", "ł" → "l", ...); what has no ASCII form (CJK, Cyrillic) is dropped, and a family name
left empty becomes "anon". Words are split at any character that is not a letter or digit
("Pre-training" → "pre"). The year is the paper's own (its first public version), not the
venue's, so a key never changes when the catalog later records a conference.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from pwc_core.text import neutralise, one_line

MAX_NAME = 200  # characters of one author name kept
_DISAMBIGUATION = re.compile(r"\s*\[\d+\]$")
SUFFIXES = frozenset({"jr", "jr.", "sr", "sr.", "ii", "iii", "iv"})
PARTICLES = frozenset(
    {"van", "von", "der", "den", "de", "del", "della", "di", "da", "du", "la", "le", "ten", "ter"}
    | {"dos", "das", "do", "zu", "zum", "zur", "bin", "ibn", "al", "el"}
)
CORPORATE = frozenset({"team", "group", "lab", "labs", "consortium", "collaboration"})
STOP_WORDS = frozenset(
    {"a", "an", "the", "of", "on", "in", "for", "to", "and", "with", "at", "by", "from", "as"}
    | {"into", "via", "is", "are", "do", "does"}
)
# Letters Unicode decomposition leaves whole.
_LATIN = str.maketrans(
    {
        "ß": "ss",
        "æ": "ae",
        "Æ": "AE",
        "ø": "o",
        "Ø": "O",
        "ł": "l",
        "Ł": "L",
        "đ": "d",
        "Đ": "D",
        "ð": "d",
        "Ð": "D",
        "þ": "th",
        "Þ": "Th",
        "œ": "oe",
        "Œ": "OE",
        "ı": "i",
    }
)
_NOT_ALNUM = re.compile(r"[^a-z0-9]+")


@dataclass(frozen=True)
class Name:
    """One author: `family` always set; a literal name is `family` alone, never split."""

    family: str
    given: str = ""
    particle: str = ""
    suffix: str = ""
    literal: bool = False


def clean(value: object) -> str:
    """One printable line: controls and escape sequences removed, whitespace folded."""
    return one_line(neutralise(str(value)))


def _is_suffix(word: str) -> bool:
    return word.casefold() in SUFFIXES


def _family_and_particle(words: list[str]) -> tuple[str, str]:
    """`["van", "der", "Maaten"]` → ("Maaten", "van der"): leading lower-case particles."""
    start = 0
    while start < len(words) - 1 and words[start] in PARTICLES:
        start += 1
    return " ".join(words[start:]), " ".join(words[:start])


def parse_name(raw: object) -> Name | None:
    """The parts of one catalog author name; None for a blank one."""
    text = _DISAMBIGUATION.sub("", clean(raw))[:MAX_NAME].strip(" ,")
    if not text:
        return None
    if "," in text:
        parts = [p.strip() for p in text.split(",") if p.strip()]
        if len(parts) >= 2 and _is_suffix(parts[1]) and " " in parts[0]:  # "Martin King, Jr."
            return _from_words(parts[0].split(), parts[1])
        head = parts[0].split()
        family, particle = _family_and_particle(head)
        if len(parts) == 1:
            return Name(family=family, particle=particle, literal=len(head) == 1 and not particle)
        suffix = parts[1] if len(parts) >= 3 and _is_suffix(parts[1]) else ""
        given = " ".join(parts[2:] if suffix else parts[1:])
        return Name(family=family, given=given, particle=particle, suffix=suffix)
    return _from_words(text.split(), "")


def _from_words(words: list[str], suffix: str) -> Name:
    if not suffix and len(words) > 2 and _is_suffix(words[-1]):
        suffix, words = words[-1], words[:-1]
    if len(words) == 1 or (not suffix and words[-1].casefold() in CORPORATE):
        return Name(family=" ".join(words), literal=True)
    last = len(words) - 1
    start = last
    while start > 1 and words[start - 1] in PARTICLES:
        start -= 1
    return Name(
        family=words[last],
        given=" ".join(words[:start]),
        particle=" ".join(words[start:last]),
        suffix=suffix,
    )


def ascii_fold(text: str) -> str:
    """Lower-case ASCII letters and digits: accents dropped, other scripts dropped."""
    decomposed = unicodedata.normalize("NFKD", text.translate(_LATIN))
    plain = "".join(c for c in decomposed if not unicodedata.combining(c))
    return plain.encode("ascii", "ignore").decode("ascii").lower()


def title_word(title: str) -> str:
    """The first word of `title` that is not a stop word, folded to ASCII ("" when none)."""
    for word in _NOT_ALNUM.split(ascii_fold(title)):
        if word and word not in STOP_WORDS:
            return word
    return ""


def citation_key(first: Name | None, published: str | None, title: str) -> str:
    """`<family><year><word>`, e.g. `devlin2018bert` (rules in the module docstring)."""
    family = _NOT_ALNUM.sub("", ascii_fold(first.family)) if first else ""
    year = published[:4] if published and re.match(r"\d{4}", published) else ""
    return (family or "anon") + year + title_word(title)
