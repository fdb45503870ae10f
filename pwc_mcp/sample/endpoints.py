"""The sample catalog's v1 endpoints: one function per route, and the route table.

A handler is ``(store, params, path arguments) -> JSON value or Response``; an ``ApiError`` is
the HTTP error answer.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from starlette.responses import Response

from pwc_mcp.sample.common import ApiError, Json
from pwc_mcp.sample.entities import entity, frameworks
from pwc_mcp.sample.params import Params, paginate, sort_rows
from pwc_mcp.sample.store import SampleStore

MARKDOWN = "text/markdown; charset=utf-8"
HEX64 = re.compile(r"^[0-9a-f]{64}$")
SEARCH_MODES = ("hybrid", "keyword", "semantic")
PAPER_ORDER = {
    "trending": "trending",
    "date_published": "published",
    "citation_count": "citation_count",
}
Args = dict[str, str]


# -- papers -------------------------------------------------------------------------------------


def _in_dates(paper: Json, start: str | None, end: str | None) -> bool:
    return (start or "") <= paper["published"] <= (end or "9999")


def _order_papers(papers: list[Json], p: Params) -> list[Json]:
    field = PAPER_ORDER[p.choice("order_by", tuple(PAPER_ORDER), "trending")]
    desc = p.choice("order_dir", ("asc", "desc"), "desc") == "desc"
    sign = -1 if desc else 1  # ties: ascending id in both directions
    return sorted(papers, key=lambda x: (x[field], sign * int(x["id"])), reverse=desc)


def papers_search(store: SampleStore, p: Params, _: Args) -> Json:
    query = p.text("q")
    if query is None:
        raise ApiError(422, "q is required")
    page, mode, (start, end) = p.page(10, 100), p.choice("mode", SEARCH_MODES, "hybrid"), p.dates()
    official = p.boolean("has_official_implementation")
    found = [x for x in store.search(query, mode) if _in_dates(x, start, end)]
    rows = [
        store.summary(x)
        for x in found
        if official in (None, x["row"]["has_official_implementation"])
    ]
    echo = None if official is None else str(official).lower()
    applied = {"has_official_implementation": echo, "start_date": start, "end_date": end}
    return paginate(rows, page, applied_filters=applied)


def papers_list(store: SampleStore, p: Params, _: Args) -> Json:
    """``papers/``: every requested filter is applied and echoed under its own key."""
    page, (start, end), search = p.page(20, 100, max_page=100), p.dates(), p.text("search")
    kinds = ("task", "method", "conference", "framework", "organization")
    entities = {kind: store.require(kind, p.text(kind) or "") for kind in kinds if p.text(kind)}
    references = [a for a in p.query.getlist("author") if a.strip()]
    if len(references) > 10:
        raise ApiError(422, "at most 10 author filters are allowed")
    authors = [store.resolve_author(ref) for ref in references]
    official = p.boolean("has_official_implementation")
    papers = [x for x in store.papers.values() if _in_dates(x, start, end)]
    papers = store.filter_papers(papers, search, entities, authors)
    papers = [x for x in papers if official in (None, x["row"]["has_official_implementation"])]
    if p.boolean("latest_only", True):
        papers = [x for x in papers if not x.get("superseded_by")]
    applied: Json = {
        k: p.text(k) for k in ("search", *kinds, "start_date", "end_date") if p.text(k)
    }
    if official is not None:
        applied["has_official_implementation"] = str(official).lower()
    if authors:
        applied["authors"] = authors
    resources = p.flag("include_resources")
    rows = [store.summary(x, resources) for x in _order_papers(papers, p)]
    return paginate(rows, page, applied_filters=applied)


def papers_recent(store: SampleStore, p: Params, _: Args) -> list[Json]:
    papers = sorted(
        store.papers.values(), key=lambda x: (x["published"], int(x["id"])), reverse=True
    )
    current = [x for x in papers if not x.get("superseded_by")]
    return [store.summary(x) for x in current[: p.integer("limit", 10, 1, 100)]]


def papers_trending(store: SampleStore, p: Params, _: Args) -> list[Json]:
    limit = p.integer("limit", 20, 1, 100)
    window = (store.recent_cutoff(p.integer("max_age_days", 180, 1, 365)), store.as_of.isoformat())
    try:
        velocity = float(p.query.get("min_velocity") or 0)
    except ValueError:
        raise ApiError(422, "min_velocity must be a number") from None
    papers = [
        x for x in store.papers.values() if _in_dates(x, *window) and x["trending"] >= velocity
    ]
    papers.sort(key=lambda x: (-x["trending"], int(x["id"])))
    return [store.summary(x) for x in papers[:limit]]


def paper_read(store: SampleStore, p: Params, a: Args) -> Response:
    """Whole Markdown without parameters; otherwise one byte range cut back to a UTF-8 boundary."""
    data, version = store.markdown(store.paper(a["ref"]))
    headers = {"x-pwc-content-version": version}
    if not any(name in p.query for name in ("offset", "limit", "content_version")):
        return Response(data, media_type=MARKDOWN, headers=headers | {"x-pwc-truncated": "0"})
    requested = p.query.get("content_version")
    if requested is not None and not HEX64.match(requested):
        raise ApiError(422, "content_version must be 64 lowercase hexadecimal characters")
    if requested is not None and requested != version:
        raise ApiError(409, "Paper Markdown changed; restart reading from offset 0.")
    offset, limit = p.integer("offset", 0, 0, len(data)), p.integer("limit", 65536, 1, 1 << 20)
    if offset < len(data) and data[offset] & 0xC0 == 0x80:  # a UTF-8 continuation byte
        raise ApiError(422, "offset is not on a UTF-8 character boundary")
    end = min(offset + limit, len(data))
    while end < len(data) and data[end] & 0xC0 == 0x80:
        end -= 1
    if end == offset < len(data):
        raise ApiError(422, "limit is smaller than the UTF-8 character at offset")
    headers["x-pwc-truncated"] = "1" if end < len(data) else "0"
    if end < len(data):
        headers["x-pwc-next-offset"] = str(end)
    return Response(data[offset:end], media_type=MARKDOWN, headers=headers)


def public_search(store: SampleStore, p: Params, _: Args) -> Json:
    title = p.text("title")
    if title is None:
        raise ApiError(422, "title is required")
    return store.metadata.search(title)


# -- benchmarks, taxonomy and entities --------------------------------------------------------------


def evaluations(store: SampleStore, p: Params, _: Args) -> Json:
    page = p.page(20, 100)
    ordering = p.choice("ordering", ("best_rank", "-benchmark_popularity"), "best_rank")
    popular = ordering == "-benchmark_popularity"
    ceiling = p.optional_int("max_parameters_exclusive", 1)
    filters = {k: p.text(k) for k in ("paper_id", "dataset_id", "task_id")}
    rows, known, total = store.views.evaluations(filters, p.boolean("is_open"), ceiling, popular)
    coverage = {"parameter_coverage_known": known, "parameter_coverage_total": total}
    return paginate(rows, page, **(coverage if ceiling is not None else {}))


def dataset_evaluations(store: SampleStore, p: Params, a: Args) -> Json:
    dataset = store.datasets.get(a["id"]) or store.find("dataset", a["id"])
    if dataset is None:
        raise ApiError(404, "Not found.")
    page, _ = p.page(20, 100), p.choice("ordering", ("best_rank",), "best_rank")
    filters = {"dataset_id": dataset["id"]}
    rows, _, _ = store.views.evaluations(filters, p.boolean("is_open"), None, False)
    return paginate(rows, page)


def datasets(store: SampleStore, p: Params, _: Args) -> Json:
    page, ordering = p.page(50, 100), p.ordering("name full_name created_at paper_count")
    task = store.require("task", p.text("task") or "") if p.text("task") else None
    minimum = p.optional_int("min_eval_count", 0)
    query, descendants = p.text("q") or "", p.flag("include_descendants")
    rows = store.views.datasets(query, task, descendants, minimum, p.boolean("is_open"))
    return paginate(sort_rows(rows, ordering), page)


def tasks_list(store: SampleStore, p: Params, _: Args) -> Json:
    page, ordering = p.page(50, 100), p.ordering("name created_at level paper_count")
    level = p.optional_int("level", 0)
    rows = store.views.tasks(p.text("q") or "", p.text("area_id"), level, p.flag("visible_only"))
    return paginate(sort_rows(rows, ordering), page)


def find_task(store: SampleStore, ref: str) -> Json:
    found = store.find("task", ref)
    if found is None:
        raise ApiError(404, f"Task not found: {ref}")
    return found


def task_papers(store: SampleStore, p: Params, a: Args) -> Json:
    papers, page = find_task(store, a["ref"])["papers"], p.page(20, 100)
    resources = p.flag("include_resources")
    rows = [store.summary(x, resources, methods=True) for x in _order_papers(papers, p)]
    return paginate(rows, page)


def task_trending(store: SampleStore, p: Params, a: Args) -> Json:
    found, limit = find_task(store, a["ref"]), p.integer("limit", 100, 1, 100)
    minimum, descendants = p.integer("min_recent_papers", 0, 0), p.flag("include_descendants")
    return store.views.trending(found, descendants, p.boolean("is_open"), limit, minimum)


def methods_list(store: SampleStore, p: Params, _: Args) -> Json:
    page = p.page(50, 500)
    ordering = p.ordering("name full_name introduced_year created_at paper_count")
    query, area_id, year = (
        (p.text("q") or "").casefold(),
        p.text("area_id"),
        p.optional_int("introduced_year"),
    )
    rows = [
        entity(store, "method", m)
        for m in store.methods.values()
        if query in fold_text(m, "name full_name slug")
        and area_id in (None, m["area_id"])
        and year in (None, m["introduced_year"])
    ]
    return paginate(sort_rows(rows, ordering), page)


def fold_text(record: Json, fields: str) -> str:
    return " ".join(str(record[f]) for f in fields.split()).casefold()


def entity_detail(kind: str) -> Callable[[SampleStore, Params, Args], Json]:
    def handler(store: SampleStore, p: Params, a: Args) -> Json:
        record = store.find(kind, a["ref"])
        if record is None:
            raise ApiError(404, "Not found.")
        return entity(store, kind, record, detail=True)

    return handler


def conferences_list(store: SampleStore, p: Params, _: Args) -> Json:
    rows = sorted(store.conferences.values(), key=lambda c: (-c["year"], c["name"].casefold()))
    return {"count": len(rows), "results": [entity(store, "conference", c) for c in rows]}


def organizations_list(store: SampleStore, p: Params, _: Args) -> Json:
    featured = p.flag("featured_only")
    kept = [o for o in store.organizations.values() if o["is_featured"] or not featured]
    rows = [entity(store, "organization", o) for o in kept]
    rows.sort(key=lambda o: (-o["paper_count"], o["name"].casefold()))
    return paginate(rows, (1, max(len(rows), 1)))


Handler = Callable[[SampleStore, Params, Args], Any]
ROUTES: list[tuple[str, Handler]] = [
    ("papers/search", papers_search),
    ("papers/", papers_list),
    ("papers/recent", papers_recent),
    ("papers/trending", papers_trending),
    ("papers/public-metadata/search", public_search),
    ("papers/{ref+}/public-metadata", lambda s, p, a: s.metadata.lookup(a["ref"])),
    (
        "papers/{ref+}/related",
        lambda s, p, a: [
            s.summary(x) for x in s.related(s.paper(a["ref"]), p.integer("limit", 4, 1, 20))
        ],
    ),
    ("papers/{ref+}", lambda s, p, a: s.detail(s.paper(a["ref"]), p.flag("include_resources"))),
    ("research/papers/{ref+}/read", paper_read),
    ("research/papers/{ref+}/lineage", lambda s, p, a: s.lineage(s.paper(a["ref"]))),
    ("evaluations/", evaluations),
    ("datasets/", datasets),
    ("datasets/{id}/evaluations/", dataset_evaluations),
    (
        "areas/",
        lambda s, p, a: paginate(
            sort_rows(list(s.areas.values()), p.ordering("name id")), p.page(500, 500)
        ),
    ),
    ("areas/with-tasks/", lambda s, p, a: s.views.areas_with_tasks()),
    (
        "areas/with-task-benchmarks/",
        lambda s, p, a: s.views.areas_with_task_benchmarks(
            p.integer("benchmarks_per_task", 3, 1, 10), p.integer("min_eval_count", 0, 0)
        ),
    ),
    ("tasks/", tasks_list),
    ("tasks/{ref}/page", lambda s, p, a: s.views.task_page(find_task(s, a["ref"]))),
    ("tasks/{ref}/trending-benchmarks", task_trending),
    ("tasks/{ref}/papers", task_papers),
    ("tasks/{ref}", lambda s, p, a: s.views.task_summary(find_task(s, a["ref"]))),
    ("methods/", methods_list),
    ("methods/{ref}", entity_detail("method")),
    ("conferences/", conferences_list),
    ("conferences/{ref}", entity_detail("conference")),
    ("organizations/", organizations_list),
    ("organizations/{ref}", entity_detail("organization")),
    ("frameworks/", lambda s, p, a: frameworks(s)),
]
