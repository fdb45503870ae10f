"""Argument completion (`completion/complete`) for the resource templates and the prompts.

Candidates come from the catalog's own search endpoints through the service's transport (the
`CachedCatalog`, so a repeated prefix is a cache hit in the path's family: `tasks/` 10 minutes,
`datasets/` 5, `papers/search` 1). Bounded: at most `MAX_VALUES` values from one upstream page of
that size, a prefix of at most `MAX_PREFIX` characters, one catalog request per completion under
the call deadline. A completion is MCP work, so admission counts it against the request budget
(`pwc_mcp.edge.admission.counts_against_budget`). A reference or argument we do not complete, a blank
or over-long prefix, and an upstream failure all give an empty list: completion is a typing aid,
never an error an agent must handle.
"""

from __future__ import annotations

import time
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import mcp_types

from pwc_core import deadline
from pwc_mcp.catalog import CatalogService

MAX_VALUES = 10
MAX_PREFIX = 100
MAX_VALUE_CHARS = 300
COMPLETION_TIMEOUT = 10.0  # a typing aid that waits longer than this is no help


@dataclass(frozen=True)
class Source:
    """One catalog search: its path and query parameters, and the row fields offered."""

    path: str
    params: dict[str, Any]
    fields: tuple[str, ...]  # the first non-empty string field of each row is the value


TASKS_BY_SLUG = Source("tasks/", {}, ("slug", "id"))
TASKS_BY_NAME = Source("tasks/", {}, ("name", "slug"))
BENCHMARKS_BY_SLUG = Source("datasets/", {}, ("slug", "id"))
BENCHMARKS_BY_NAME = Source("datasets/", {}, ("name", "slug"))
# Template values go into a URI: the canonical arXiv ID or catalog ID, never a free-text title.
PAPERS_BY_ID = Source("papers/search", {"mode": "keyword"}, ("arxiv_id", "id"))
PAPERS_BY_TITLE = Source("papers/search", {"mode": "keyword"}, ("title",))

# (reference type, prompt name or URI template, argument) -> where its candidates come from
SOURCES: dict[tuple[str, str, str], Source] = {
    ("ref/resource", "pwc://tasks/{task}", "task"): TASKS_BY_SLUG,
    ("ref/resource", "pwc://benchmarks/{benchmark}", "benchmark"): BENCHMARKS_BY_SLUG,
    ("ref/resource", "pwc://papers/{paper}", "paper"): PAPERS_BY_ID,
    ("ref/resource", "pwc://papers/{paper}/markdown", "paper"): PAPERS_BY_ID,
    ("ref/prompt", "find_papers", "topic"): PAPERS_BY_TITLE,
    ("ref/prompt", "compare_leaderboard", "benchmark"): BENCHMARKS_BY_NAME,
    ("ref/prompt", "survey_task", "task"): TASKS_BY_NAME,
}


def _key(ref: mcp_types.PromptReference | mcp_types.ResourceTemplateReference) -> str:
    return ref.name if isinstance(ref, mcp_types.PromptReference) else ref.uri


def _clean(value: Any) -> str | None:
    """A catalog string fit to show in a picker: no control characters, bounded."""
    if isinstance(value, int) and not isinstance(value, bool):
        value = str(value)
    if not isinstance(value, str):
        return None
    text = "".join(ch for ch in value if unicodedata.category(ch)[0] != "C").strip()
    return text if 0 < len(text) <= MAX_VALUE_CHARS else None


class Completer:
    """The server's one completion handler (FastMCP runs it in a worker thread)."""

    def __init__(
        self,
        catalog: CatalogService,
        *,
        call_timeout: float = COMPLETION_TIMEOUT,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.catalog = catalog
        self.call_timeout = min(call_timeout, COMPLETION_TIMEOUT)
        self.clock = clock

    def __call__(
        self,
        ref: mcp_types.PromptReference | mcp_types.ResourceTemplateReference,
        argument: mcp_types.CompletionArgument,
        context: mcp_types.CompletionContext | None = None,
    ) -> list[str]:
        source = SOURCES.get((ref.type, _key(ref), argument.name))
        prefix = argument.value.strip()
        if source is None or not prefix or len(prefix) > MAX_PREFIX:
            return []
        params = {**source.params, "q": prefix, "page": 1, "page_size": MAX_VALUES}
        try:
            with deadline.within(self.call_timeout, self.clock):
                payload = self.catalog.transport.get_json(source.path, params)
        except Exception:  # upstream down, slow or wrong-shaped: no suggestions, not an error
            return []
        rows = payload.get("results") if isinstance(payload, dict) else None
        return rank(prefix, _values(rows if isinstance(rows, list) else [], source.fields))


def _values(rows: list[Any], fields: tuple[str, ...]) -> list[str]:
    values: list[str] = []
    for row in rows[:MAX_VALUES]:
        if not isinstance(row, dict):
            continue
        value = next((v for v in map(_clean, (row.get(f) for f in fields)) if v), None)
        if value is not None and value not in values:
            values.append(value)
    return values


def rank(prefix: str, values: list[str]) -> list[str]:
    """Values that start with what was typed first, then the catalog's order."""
    folded = prefix.casefold()
    return sorted(values, key=lambda value: not value.casefold().startswith(folded))
