"""A paper reference that is a name the paper is known by (`resnet`), found only to be
suggested: a not-found answer names the paper, never selects it
(docs/upstream-api.md#paper-references).

The exact alias, defined conservatively: the reference is no title, identifier or URL the
catalog resolves; its slug form (casefolded, every run of other characters one hyphen:
`ResNet` → `resnet`, `Vision Transformer` → `vision-transformer`) names a catalog method
(`methods/{slug}`); and that method's introducing paper (`source_paper_id`, else the paper its
`source_url` names) is the row the title search already made ranks first. A method the paper
only uses is no alias of it, nor is a paper search ranks anywhere but first. The cost is one
request, asked for only on a miss, only for a reference of at most MAX_ALIAS_CHARS characters;
a failing lookup means no suggestion.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pwc_core.errors import PwcError
from pwc_core.references import REFERENCE_KEYS, row_reference, slugify
from pwc_core.transport import entity_segment

MAX_ALIAS_CHARS = 60  # longer than any method name; a longer text is a title, not an alias


@dataclass(frozen=True)
class Alias:
    """The paper search ranked first (`row`) and the method whose name the reference is."""

    row: dict[str, Any]
    method: str


def _known_as(row: dict[str, Any]) -> set[str]:
    """Every identifier a search row carries."""
    return {str(row[k]) for k in REFERENCE_KEYS if row.get(k) not in (None, "")}


def _introduced(method: dict[str, Any]) -> set[str]:
    """The identifiers a method record gives its introducing paper."""
    found = {str(method.get("source_paper_id") or "")}
    url = method.get("source_url")
    if isinstance(url, str) and "/paper/" in url:  # `/paper/1512.03385`, site-relative or not
        found.add(url.split("/paper/", 1)[1].strip("/"))
    return found - {""}


def exact_alias(client: Any, typed: str, rows: list[dict[str, Any]]) -> Alias | None:
    """The first search row when `typed` is the name of the method that paper introduced;
    else None. At most one request (`methods/{slug}`)."""
    slug = slugify(typed)
    if not rows or not row_reference(rows[0]) or not slug or len(typed) > MAX_ALIAS_CHARS:
        return None
    try:
        method = client.get_json(f"methods/{entity_segment(slug)}")
    except PwcError:  # not a method (404), or the lookup failed: no suggestion
        return None
    if not isinstance(method, dict) or not _known_as(rows[0]) & _introduced(method):
        return None
    return Alias(rows[0], str(method.get("name") or typed))
