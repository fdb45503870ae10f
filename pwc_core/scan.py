"""Bounded scans of a paginated catalog route: every loop has two ends.

A scan reads pages until the catalog says the rows are all there (the total is reached, or no
`next_page` is named), and stops early, saying why, on any of: `max_rows` rows read, `max_pages`
pages read, a page that adds nothing (no rows, or only rows already read), or a `next_page` that
does not advance. An early stop leaves `complete` false and a `stopped` reason
(docs/decisions.md#bounded-scans); the handler reports it like any bounded scan
("bounded scan incomplete") and notes the answer as degraded.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from pwc_core.errors import UpstreamShapeError
from pwc_core.replies import extract_rows

PAGE_SIZE = 100
MAX_ROWS = 1000
MAX_PAGES = 20  # twice the pages MAX_ROWS needs at PAGE_SIZE: room for short pages, no more

INCOMPLETE = "bounded scan incomplete"  # how a handler notes an early stop (pwc_core.degraded)
ROW_LIMIT = "row limit reached"
PAGE_LIMIT = "page limit reached"
EMPTY_PAGE = "a page added no rows"
STALLED = "pagination did not advance"


def _int(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def row_identity(row: dict[str, Any]) -> Any:
    """What makes a row the same row again: its ID, else its whole content."""
    ident = row.get("id")
    if isinstance(ident, str | int) and not isinstance(ident, bool):
        return ("id", str(ident))
    return ("row", repr(sorted(row.items(), key=lambda kv: str(kv[0])))[:4096])


def take_fresh(rows: list[dict[str, Any]], seen: set[Any]) -> list[dict[str, Any]]:
    """The rows no earlier page held (each identity computed once), now counted as seen. Rows
    of one page are all kept: a page may list one result under several task scopes."""
    identities = [row_identity(row) for row in rows]
    fresh = [row for row, identity in zip(rows, identities, strict=True) if identity not in seen]
    seen.update(identities)
    return fresh


@dataclass
class Scan:
    """The rows a scan read, the catalog's total (from page 1), and how it ended."""

    rows: list[dict[str, Any]] = field(default_factory=list)
    total: int | None = None
    pages: int = 0
    complete: bool = True
    stopped: str | None = None
    _seen: set[Any] = field(default_factory=set, repr=False)

    def stop(self, reason: str) -> None:
        self.complete, self.stopped = False, reason


Fetch = Callable[[int, int], Any]  # (page, page_size) -> the catalog's answer


def scan(
    fetch: Fetch,
    *,
    follow_next: bool = False,
    max_rows: int = MAX_ROWS,
    max_pages: int = MAX_PAGES,
    page_size: int = PAGE_SIZE,
    check: Callable[[Any], None] | None = None,
) -> Scan:
    """Read pages from 1. `follow_next`: the route names the next page (`next_page`, null at
    the end); otherwise pages count up until the answer's `count` is reached. `check` sees each
    answer before its rows are taken (a fail-closed filter confirmation)."""
    result = Scan()
    page = 1
    while True:
        payload = fetch(page, page_size)
        if check is not None:
            check(payload)
        rows, count = extract_rows(payload)
        result.pages += 1
        if result.pages == 1:
            result.total = count
        fresh = take_fresh(rows, result._seen)
        result.rows.extend(fresh)
        if len(result.rows) > max_rows:
            del result.rows[max_rows:]
            result.stop(ROW_LIMIT)
            return result
        if follow_next:
            named = payload.get("next_page") if isinstance(payload, dict) else None
            if named is None:
                return result
            following = _int(named)
            if following is None:  # not a page number: the answer is malformed
                raise UpstreamShapeError("API returned invalid evaluation pagination")
            if following <= page:
                result.stop(STALLED)
                return result
        else:
            if result.total is None or len(result.rows) >= result.total:
                return result
            following = page + 1
        if not fresh:
            result.stop(EMPTY_PAGE)
            return result
        if len(result.rows) >= max_rows:
            result.stop(ROW_LIMIT)
            return result
        if result.pages >= max_pages:
            result.stop(PAGE_LIMIT)
            return result
        page = following
