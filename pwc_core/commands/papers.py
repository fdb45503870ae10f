"""Handlers for `search` and the `paper` commands
(docs/upstream-api.md#search-and-paper-commands)."""

from __future__ import annotations

import argparse
import json
import re
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from pwc_core import degraded
from pwc_core.citations import citation
from pwc_core.commands import Catalog, handler
from pwc_core.commands.common import fold
from pwc_core.errors import (
    AmbiguousError,
    HTTPStatusError,
    NotFoundError,
    UnconfirmedFilter,
    UpstreamShapeError,
    UsageError,
)
from pwc_core.replies import extract_rows, require_object
from pwc_core.resolution import OutsideCatalog, about_paper, outside_catalog, resolve_in_catalog
from pwc_core.routes import routes
from pwc_core.scan import INCOMPLETE, scan
from pwc_core.text import cell_text
from pwc_core.transport import paper_segment
from pwc_core.values import MAX_AUTHORS
from pwc_core.wording import Ambiguity, Candidate, Option, Words

EVALUATION_PAGE_SIZE = 100
EVALUATION_PAGES = 100  # a paper's evaluations are read whole, up to this many pages
EVALUATION_ORDERING = "-benchmark_popularity"
CATALOG_FILTERS = ("task", "method", "conference", "framework", "organization")
_SPACE = re.compile(r"\s+")
# The catalog routes these commands read, paper resolution (pwc_core.resolution) included.
ROUTES = routes(
    """
    papers/search                   list    search
    papers/                         list    search
    papers/recent                   list    search
    papers/trending                 list    search
    papers/{ref}                    object  general
    papers/{ref}/related            list    general
    research/papers/{ref}/lineage   object  general
    research/papers/{ref}/read      any     general
    papers/{ref}/public-metadata    object  public_metadata
    papers/public-metadata/search   list    public_metadata
    """
)


def check_dates(args: argparse.Namespace) -> None:
    if args.start_date and args.end_date and args.start_date > args.end_date:
        raise UsageError(
            Words(
                "{} must be on or before {}",
                Option("--start-date", cli="start date"),
                Option("--end-date", cli="end date"),
            )
        )


def _confirmed_true(value: Any) -> bool:
    return value is True or value == "true"


def _paper_path(reference: str, suffix: str = "") -> str:
    return f"papers/{paper_segment(reference)}{suffix}"


@handler("search")
def search(args: argparse.Namespace, client: Catalog) -> Any:
    check_dates(args)
    payload = client.get_json(
        "papers/search",
        {
            "q": args.query,
            "page": args.page,
            "page_size": args.limit,
            "mode": args.mode,
            "start_date": args.start_date,
            "end_date": args.end_date,
            "has_official_implementation": True if args.has_official_implementation else None,
        },
    )
    extract_rows(payload)
    if args.has_official_implementation:
        applied = payload.get("applied_filters") if isinstance(payload, dict) else None
        if not isinstance(applied, dict) or not _confirmed_true(
            applied.get("has_official_implementation")
        ):
            raise UnconfirmedFilter(
                "Papers API did not confirm has_official_implementation; "
                "refusing unfiltered results"
            )
    return payload


def paper_request(reference: str, resources: bool | None) -> tuple[str, dict[str, Any] | None]:
    return _paper_path(reference), None if resources is None else {"include_resources": resources}


def paper_detail(client: Catalog, reference: str, include_resources: bool | None) -> dict[str, Any]:
    payload = client.get_json(*paper_request(reference, include_resources))
    return require_object(payload, "API returned an unexpected response shape")


def _paper_id(paper: dict[str, Any]) -> str:
    value = paper.get("id")
    if value in (None, "") or isinstance(value, bool) or not isinstance(value, (int, str)):
        raise UpstreamShapeError("Paper response did not contain an ID")  # e.g. `id: []`
    return str(value)


def evaluations_page(client: Catalog, paper_id: str, page: int, page_size: int) -> Any:
    return client.get_json(
        "evaluations/",
        {
            "page": page,
            "page_size": page_size,
            "paper_id": paper_id,
            "ordering": EVALUATION_ORDERING,
        },
    )


@handler("paper info")
def paper_info(args: argparse.Namespace, client: Catalog) -> Any:
    try:
        detail, _ = about_paper(
            client,
            resolve_in_catalog(client, args.paper),
            lambda ref: paper_detail(client, ref, bool(args.include_resources)),
            None,  # the record is the paper: its 404 already says the catalog lacks it
        )
    except OutsideCatalog as outside:  # metadata is the answer
        return _cited(client, outside_catalog(outside.metadata), args)
    paper = dict(detail)
    if args.include_evals:
        paper_id = _paper_id(paper)
        read = scan(
            lambda page, size: evaluations_page(client, paper_id, page, size),
            page_size=EVALUATION_PAGE_SIZE,
            max_pages=EVALUATION_PAGES,
            max_rows=EVALUATION_PAGES * EVALUATION_PAGE_SIZE,
        )
        paper["evaluations"] = {
            "count": read.total if read.total is not None else len(read.rows),
            "results": read.rows,
        }
        if not read.complete:  # said in the payload, and never remembered as a whole answer
            paper["evaluations"] |= {"complete": False, "stopped": read.stopped}
            degraded.note(INCOMPLETE)
    return _cited(client, paper, args)


def _cited(client: Catalog, paper: dict[str, Any], args: argparse.Namespace) -> dict[str, Any]:
    """The payload with its `citation` when --cite asked for one (pwc_core.citations)."""
    if getattr(args, "cite", None):
        paper["citation"] = citation(client, paper, args.cite)
    return paper


@handler("paper evaluations")
def paper_evaluations(args: argparse.Namespace, client: Catalog) -> Any:
    from pwc_core.merging import merge_rows
    from pwc_core.scopes import order_by_scope, scope_summary

    reference = resolve_in_catalog(client, args.paper)
    detail, _ = about_paper(
        client, reference, lambda ref: paper_detail(client, ref, False), "Paper not found"
    )
    payload = evaluations_page(client, _paper_id(detail), args.page, args.page_size)
    rows, total = extract_rows(payload)
    next_page = payload.get("next_page") if isinstance(payload, dict) else None
    # benchmarks in the catalog's order (most popular first), each with its best result first
    popular = [str(r.get("dataset_id")) for r in rows if r.get("dataset_id") is not None]
    merged, main = order_by_scope(merge_rows(rows), popular)
    data = {
        "count": total if total is not None else len(rows),
        "page": args.page,
        "next_page": next_page
        if isinstance(next_page, int) and not isinstance(next_page, bool)
        else None,
        "results": merged,
        "task_scopes": scope_summary(merged, main),
    }
    if getattr(args, "against_sota", False):  # each row gains `sota` or `sota_unavailable`
        from pwc_core.standing import against_sota

        data["against_sota"] = against_sota(client, merged)
    return data


@handler("paper read")
def paper_read(args: argparse.Namespace, client: Catalog) -> Any:
    from pwc_core import outline

    if args.outline and args.section:
        raise UsageError(outline.OUTLINE_OR_SECTION)
    reply, reference = about_paper(
        client,
        resolve_in_catalog(client, args.paper),
        lambda ref: client.get(f"research/{_paper_path(ref, '/read')}"),
        "No Markdown is stored for this paper",
    )
    if args.outline:  # the whole text is here: cut locally (the server reads it in chunks)
        return outline.whole_outline(reference, reply.body)
    if args.section:
        try:
            return outline.whole_section(reference, reply.body, args.section)
        except outline.SectionMismatch as error:
            raise NotFoundError(outline.mismatch_message(args.section, str(error))) from None
    return {"paper": reference, "markdown": reply.text()}


def requested_filters(args: argparse.Namespace) -> dict[str, str]:
    wanted = {name: str(getattr(args, name)) for name in CATALOG_FILTERS if getattr(args, name)}
    for name in ("start_date", "end_date"):
        if getattr(args, name):
            wanted[name] = getattr(args, name).isoformat()
    if args.has_official_implementation:
        wanted["has_official_implementation"] = "true"
    return wanted


def _author_usage_error(
    error: HTTPStatusError, client: Catalog, requested: list[str]
) -> UsageError:
    try:
        body = json.loads(error.detail)
    except ValueError:
        return UsageError(f"author filter request failed ({error.status})")
    detail = body.get("detail") if isinstance(body, dict) else None
    if isinstance(detail, str):
        return UsageError(detail)
    if isinstance(detail, dict) and detail.get("code") == "ambiguous_author":
        reference = str(detail.get("reference") or "Author")
        found = [
            c
            for c in detail.get("candidates") or []
            if isinstance(c, dict) and str(c.get("id", "")).isdigit()
        ]
        options, candidates = [], []
        for candidate in found:
            name = str(candidate.get("name") or reference)
            hf = candidate.get("hf_username")
            suffix = f", @{hf}" if hf else ""
            options.append(f"--author {candidate['id']} ({name}{suffix})")
            candidates.append(Candidate(str(candidate["id"]), name, (f"@{hf}",) if hf else ()))
        retry = f"; retry with {' or '.join(options)}" if options else ""
        # the catalog echoes the filter; a tool says it back as the caller spelt it
        typed = next((a for a in requested if fold(a) == fold(reference)), reference)
        return AmbiguousError(
            f"{reference} is ambiguous{retry}",
            Ambiguity(
                "--author",
                typed,
                "catalog authors",
                tuple(candidates),
                describe=lambda c: _with_paper_count(client, c),
            ),
        )
    return UsageError(f"author filter request failed ({error.status})")


def _with_paper_count(client: Catalog, candidate: Candidate) -> Candidate:
    """The author's paper count, for a tool's ambiguity message: one request, trusted only
    when the catalog confirms that it filtered by this author."""
    payload = client.get_json("papers/", {"author": candidate.value, "page": 1, "page_size": 1})
    applied = payload.get("applied_filters") if isinstance(payload, dict) else None
    authors = applied.get("authors") if isinstance(applied, dict) else None
    count = payload.get("count") if isinstance(payload, dict) else None
    confirmed = isinstance(authors, list) and any(
        isinstance(a, dict) and str(a.get("id")) == candidate.value for a in authors
    )
    if not confirmed or not isinstance(count, int) or isinstance(count, bool):
        return candidate
    papers = f"{count} paper{'' if count == 1 else 's'}"
    return replace(candidate, traits=(*candidate.traits, papers))


def _author_matches(requested: str, author: dict[str, Any]) -> bool:
    if requested.isdigit():
        return int(requested) == int(author["id"])
    if requested.startswith("@"):
        return fold(requested[1:]) == fold(author.get("hf_username"))
    return fold(requested) == fold(author.get("name"))


def _confirm_authors(payload: Any, requested: list[str]) -> None:
    applied = payload.get("applied_filters") if isinstance(payload, dict) else None
    listed = applied.get("authors") if isinstance(applied, dict) else None
    authors: list[Any] = listed if isinstance(listed, list) else []
    valid = bool(authors) and all(
        isinstance(a, dict)
        and str(a.get("id", "")).isdigit()
        and isinstance(a.get("name"), str)
        and a["name"].strip()
        for a in authors
    )
    if not valid or not all(any(_author_matches(r.strip(), a) for a in authors) for r in requested):
        raise UnconfirmedFilter(
            Words(
                "Papers API did not confirm the requested author filters; the server must be "
                "upgraded before using {}",
                Option("--author"),
            )
        )


@handler("paper list")
def paper_list(args: argparse.Namespace, client: Catalog) -> Any:
    check_dates(args)
    authors = [a for a in (args.author or []) if a is not None]
    if len(authors) > MAX_AUTHORS:
        raise UsageError(f"at most {MAX_AUTHORS} author filters are allowed")
    wanted = requested_filters(args)
    params: dict[str, Any] = {
        "page": args.page,
        "page_size": args.page_size,
        "search": args.search,
        "start_date": args.start_date,
        "end_date": args.end_date,
        **{name: getattr(args, name) for name in CATALOG_FILTERS},
        "author": authors or None,
        "latest_only": not args.all_versions,
        "order_by": args.order_by,
        "order_dir": args.order_dir,
        "include_resources": bool(args.include_resources),
        "has_official_implementation": True if args.has_official_implementation else None,
    }
    try:
        payload = client.get_json("papers/", params)
    except HTTPStatusError as error:
        if authors and error.status in (404, 409, 422):
            raise _author_usage_error(error, client, authors) from None
        raise
    extract_rows(payload)
    if wanted:
        applied = payload.get("applied_filters") if isinstance(payload, dict) else None
        if not isinstance(applied, dict) or any(
            fold(cell_text(applied.get(key))) != fold(value) for key, value in wanted.items()
        ):
            raise UnconfirmedFilter(
                "Papers API did not confirm the requested catalog filters; "
                "the server must be upgraded before using these flags"
            )
    if authors:
        _confirm_authors(payload, authors)
    return payload


@handler("paper recent")
def paper_recent(args: argparse.Namespace, client: Catalog) -> Any:
    payload = client.get_json("papers/recent", {"limit": args.limit})
    extract_rows(payload)
    return payload


@handler("paper trending")
def paper_trending(args: argparse.Namespace, client: Catalog) -> Any:
    payload = client.get_json(
        "papers/trending",
        {"limit": args.limit, "max_age_days": args.max_age_days, "min_velocity": args.min_velocity},
    )
    extract_rows(payload)
    return payload


@handler("paper related")
def paper_related(args: argparse.Namespace, client: Catalog) -> Any:
    def related(ref: str) -> Any:
        return client.get_json(_paper_path(ref, "/related"), {"limit": args.limit})

    payload = _stored_for(client, args.paper, related, "No related papers are stored")
    extract_rows(payload)
    return payload


@handler("paper lineage list")
def paper_lineage(args: argparse.Namespace, client: Catalog) -> Any:
    def lineage(ref: str) -> Any:
        return client.get_json(f"research/{_paper_path(ref, '/lineage')}")

    payload = _stored_for(client, args.paper, lineage, "No lineage is stored")
    return require_object(payload, "API returned an unexpected response shape")


def _stored_for(client: Catalog, paper: str, read: Callable[[str], Any], missing: str) -> Any:
    """A record stored about a catalog paper; a 404 says whether the paper or the record."""
    payload, _ = about_paper(
        client, resolve_in_catalog(client, paper), read, f"{missing} for this paper"
    )
    return payload
