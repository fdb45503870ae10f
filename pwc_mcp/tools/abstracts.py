"""The abstract snippet of every paper row a list tool returns (issue #26, "search that can be
judged"), so an agent can judge a result without a second call per paper.

The catalog's list rows carry no abstract, so the abstract comes from the paper's own record,
read exactly as `get_paper_info` reads it (`papers/{arXiv ID or catalog ID}?include_resources=
true`, through the cached catalog): the reads are the ones an agent's follow-up call would make,
and that follow-up is then a cache hit. A row that carries an abstract is not read again.

Bounded like everything else (docs/decisions.md, "Snippets from the paper records"): at most
HOSTED_ROW_CAP rows a call, each named by a reference of at most MAX_REFERENCE characters; at
most READERS records read at once in the whole process (a fixed pool, so a burst of searches
cannot multiply upstream connections) and PENDING running or queued, shared fairly between the
clients asking (pwc_mcp/tools/readers.py: one client's searches cannot take another's
snippets); the reads of one call end within SNIPPET_SECONDS (and within the call's deadline).
A record that cannot be read in time, or for which its client has no fair room, costs its row
the snippet at once, never the answer: the answer is then noted degraded, so the result memo
does not keep it. A paper the catalog no longer holds (404) simply has no snippet.
"""

from __future__ import annotations

import contextvars
import time
from concurrent.futures import Future
from typing import Any

from pwc_core import deadline, degraded
from pwc_core.commands.papers import paper_detail, paper_request
from pwc_core.errors import HTTPStatusError, NotFoundError
from pwc_core.references import strip_version
from pwc_core.replies import Catalog
from pwc_mcp.answers.snippets import snippet
from pwc_mcp.caching.cache import CachedCatalog
from pwc_mcp.caching.upstream import current_client
from pwc_mcp.tools.readers import FairReaders

# Records read at once, per process: a default page of 10 rows is two waves, as with 8, for
# less memory in flight (each read may be a 2 MiB record; the memory benchmark pads every one).
READERS = 5
SNIPPET_SECONDS = 3.0
# Reads running or queued, per process: six waves, more than SNIPPET_SECONDS allows at half a
# second a read. A read beyond it (or beyond its client's fair share of it, once it is full) is
# not queued at all, so a burst of searches costs rows their snippets at once instead of holding
# every call for SNIPPET_SECONDS.
PENDING = 6 * READERS
# An arXiv ID is about ten characters, a catalog ID a few digits: a longer one in a row is not
# a reference this module sends upstream (a hostile catalog could make each row a long path).
MAX_REFERENCE = 64
DEGRADED = "abstract snippets"
POOL = FairReaders(READERS, PENDING, name="pwc-snippet")


def reference(row: dict[str, Any]) -> str | None:
    """The reference `get_paper_info` would read the row's paper by (its arXiv ID without
    version, else its catalog ID), or None when the row names neither usably."""
    arxiv, identifier = row.get("arxiv_id"), row.get("id")
    if isinstance(arxiv, str) and arxiv.strip():
        found = strip_version(arxiv.strip())
    elif isinstance(identifier, int) and not isinstance(identifier, bool):
        found = str(identifier)
    elif isinstance(identifier, str) and identifier.isdigit():
        found = identifier
    else:
        return None
    return found if len(found) <= MAX_REFERENCE else None


def with_snippets(catalog: Catalog, rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The rows (new dicts: cached answers are never changed) each with `snippet` where its
    abstract, its own or its record's, gives one."""
    # A row's own abstract (even an empty one) is its answer; only the others name a record.
    refs = [None if "abstract" in row else reference(row) for row in rows]
    found = _abstracts(catalog, sorted({ref for ref in refs if ref is not None}))
    snipped = []
    for row, ref in zip(rows, refs, strict=True):
        cut = snippet(row.get("abstract") if ref is None else found.get(ref))
        kept = {key: value for key, value in row.items() if key != "snippet"}  # ours alone
        snipped.append({**kept, "snippet": cut} if cut else kept)
    return snipped


def _abstracts(catalog: Catalog, references: list[str]) -> dict[str, Any]:
    """Each reference's abstract as its record gives it (absent when there is none). A record
    the cache holds is read here (a hand-off costs more than the read); the rest in the pool."""
    found: dict[str, Any] = {}
    if isinstance(catalog, CachedCatalog):
        for ref in references:
            try:
                record = catalog.get_json(*paper_request(ref, True), cached_only=True)
            except Exception:  # read again in the pool, which says what went wrong
                record = None
            if isinstance(record, dict):
                found[ref] = record.get("abstract")
    started = time.monotonic()
    jobs = {ref: _submit(catalog, ref) for ref in references if ref not in found}
    for ref, job in jobs.items():
        try:
            if job is None:  # no room to queue it (or none fair to this client)
                degraded.note(DEGRADED)
                continue
            left = SNIPPET_SECONDS - (time.monotonic() - started)
            found[ref] = job.result(timeout=max(0.0, left))
        except Exception:  # a failed read, or none in time
            if job is not None:
                job.cancel()  # a read still queued is not made for an answer given
            degraded.note(DEGRADED)
    return {ref: abstract for ref, abstract in found.items() if abstract is not None}


def _submit(catalog: Catalog, ref: str) -> Future[Any] | None:
    """The read of `ref` in the pool, as the calling client's, or None when it has no room."""
    read = contextvars.copy_context().run
    return POOL.submit(current_client(), lambda: read(_read, catalog, ref))


def _read(catalog: Catalog, ref: str) -> Any:
    with deadline.within(SNIPPET_SECONDS):
        try:
            return paper_detail(catalog, ref, True).get("abstract")
        except (NotFoundError, HTTPStatusError) as error:
            if isinstance(error, HTTPStatusError) and error.status != 404:
                raise
            return None


def replace_rows(data: Any, shown: list[dict[str, Any]]) -> Any:
    """`data` (the bounded payload: a bare list of rows, or an object with `results`) with its
    rows replaced by `shown`, the same rows in the same order with their snippets."""
    if isinstance(data, list):
        return shown if len(data) == len(shown) else data
    results = data.get("results") if isinstance(data, dict) else None
    if isinstance(results, list) and len(results) == len(shown):
        return {**data, "results": shown}
    return data
