"""The records of the offline sample catalog: entities, authors and papers, loaded once from
``data/catalog.json`` into plain dicts and never mutated after loading, with the exact-match,
author and paper queries every other part of the sample reads (views, public metadata, entity
payloads). It knows nothing of the parts built on it.
"""

from __future__ import annotations

import hashlib
import re
from datetime import date, timedelta

from pwc_mcp.sample.common import ApiError, Json, fold, pick, split_arxiv

_BRACKETED = re.compile(r"^(.*\S)\s*\[(\d+)\]$")  # "Jian Sun [1187]": a name shared by two authors
RESOURCE_KEYS = ("repositories", "project_pages", "hf_models", "hf_datasets", "hf_spaces")
# Lookups try fields in this order, like the clients' exact matching (name beats slug beats id).
MATCH_FIELDS = {
    "task": ("name", "slug", "id"),
    "method": ("name", "full_name", "slug", "id"),
    "dataset": ("name", "full_name", "slug", "id"),
}
PAPER_LINKS = {k: k + "s" for k in ("task", "method", "organization", "framework")}


class CatalogRecords:
    """The loaded entities, authors and papers, and the queries over them."""

    def __init__(self, raw: Json) -> None:
        self.as_of = date.fromisoformat(raw["as_of"])
        self.areas: dict[str, Json] = {a["id"]: a for a in raw["areas"]}
        self.tasks: dict[str, Json] = {t["id"]: dict(t) for t in raw["tasks"]}
        for task in self.tasks.values():
            task["level"], parent = 0, task["parent_id"]
            while parent:
                task["level"], parent = task["level"] + 1, self.tasks[parent]["parent_id"]
        self.organizations = {o["id"]: dict(o) for o in raw["organizations"]}
        self.conferences = {c["id"]: dict(c) for c in raw["conferences"]}
        self.methods = {m["id"]: dict(m) for m in raw["methods"]}
        self.framework_tree: Json = raw["frameworks"]
        categories = [c for d in self.framework_tree["domains"] for c in d["categories"]]
        self.frameworks: dict[str, Json] = {f["id"]: f for c in categories for f in c["frameworks"]}
        self.datasets: dict[str, Json] = {d["id"]: d for d in raw["datasets"]}
        self.authors: dict[str, Json] = {}
        self._authors_by_name: dict[str, list[Json]] = {}
        for author in raw["authors"]:
            self._register_author(dict(author))
        self.papers: dict[str, Json] = {}
        self._by_key: dict[str, Json] = {}  # casefolded arXiv ID or DOI -> paper
        for entry in raw["papers"]:
            self._add_paper(entry)
        self._link_papers()

    # -- loading -------------------------------------------------------------------------------

    def _register_author(self, author: Json) -> None:
        if author["id"] in self.authors:
            raise ValueError(f"duplicate author id {author['id']}")
        self.authors[author["id"]] = author
        self._authors_by_name.setdefault(fold(author["name"]), []).append(author)

    def _author(self, entry: str) -> Json:
        bracketed = _BRACKETED.match(entry)
        if bracketed:
            return self.authors[bracketed.group(2)]
        known = self._authors_by_name.get(fold(entry), [])
        if len(known) > 1:
            raise ValueError(f"author {entry!r} is ambiguous in the data; write 'Name [id]'")
        if known:
            return known[0]
        # An id derived from the name stays the same when papers are added or reordered.
        digest = int(hashlib.sha256(fold(entry).encode()).hexdigest()[:12], 16)
        number = 1_000_000 + digest % 9_000_000
        while str(number) in self.authors:
            number += 1
        self._register_author(author := {"id": str(number), "name": entry, "hf_username": None})
        return author

    def _add_paper(self, entry: Json) -> None:
        paper = dict(entry, trending=entry.get("trending", 0.0))
        arxiv, repos = paper.get("arxiv_id"), paper.get("repositories", [])
        paper["author_refs"] = [self._author(a) for a in paper["authors"]]
        official = paper.get("has_official_implementation", any(r["is_official"] for r in repos))
        paper["row"] = {
            "id": paper["id"],
            "arxiv_id": arxiv,
            "slug": paper.get("slug")
            or "-".join(re.findall(r"[a-z0-9]+", paper["title"].casefold())[:6]),
            "route_identifier": arxiv or paper["id"],
            "title": paper["title"],
            "authors": [a["name"] for a in paper["author_refs"]],
            "published": paper["published"],
            "citation_count": paper["citation_count"],
            "has_official_implementation": official,
            "code_repository_count": paper.get("code_repository_count", len(repos)),
            "url_abs": f"https://arxiv.org/abs/{arxiv}" if arxiv else None,
            "source_url": paper.get("source_url"),
        }
        self.papers[paper["id"]] = paper
        for key in (arxiv, paper.get("doi")):
            if key:
                self._by_key[key.casefold()] = paper

    def _link_papers(self) -> None:
        papers = list(self.papers.values())
        for paper in papers:
            paper["successors"] = [
                p["id"] for p in papers if paper["id"] in p.get("predecessors", ())
            ]
        for kind, key in PAPER_LINKS.items():
            for record in self.table(kind).values():
                record["papers"] = [p for p in papers if record["id"] in p.get(key, ())]
        for conf in self.conferences.values():
            conf["papers"] = [p for p in papers if p.get("conference") == conf["slug"]]

    # -- entities and authors ------------------------------------------------------------------

    def table(self, kind: str) -> dict[str, Json]:
        return getattr(self, kind + "s")  # tasks, methods, datasets, conferences, ...

    def find(self, kind: str, value: str) -> Json | None:
        """Exact (casefolded) match on the kind's fields in priority order."""
        target, records = fold(value), self.table(kind).values()
        for field in MATCH_FIELDS.get(kind, ("name", "slug", "id")) if target else ():
            for record in records:
                if record.get(field) is not None and fold(record[field]) == target:
                    return record
        return None

    def require(self, kind: str, value: str) -> Json:
        record = self.find(kind, value)
        if record is None:
            raise ApiError(404, f"{kind.capitalize()} not found: {value}")
        return record

    def resolve_author(self, ref: str) -> Json:
        """An author filter value: numeric id, ``@hf_username`` or exact normalized name."""
        text = ref.strip()
        if text.isdigit():
            found = [a for a in self.authors.values() if int(a["id"]) == int(text)]
        elif text.startswith("@"):
            handle = text[1:].strip().casefold()
            found = [a for a in self.authors.values() if fold(a["hf_username"] or "") == handle]
        else:
            found = self._authors_by_name.get(fold(text), [])
        if len(found) > 1:
            detail = {"code": "ambiguous_author", "reference": ref}
            raise ApiError(409, detail | {"candidates": [dict(a) for a in found]})
        if not found:
            raise ApiError(404, f"Author not found: {ref}")
        return dict(found[0])

    # -- papers --------------------------------------------------------------------------------

    def find_paper(self, ref: str) -> Json | None:
        """Catalog paper for a numeric id or an arXiv ID (a version suffix must exist)."""
        ref = ref.strip()
        if ref.isdigit():
            return self.papers.get(str(int(ref)))
        parsed = split_arxiv(ref)
        paper = self._by_key.get(parsed[0].casefold()) if parsed else None
        if (
            paper
            and parsed
            and parsed[1] is not None
            and not 1 <= parsed[1] <= paper.get("versions", 1)
        ):
            return None
        return paper

    def paper(self, ref: str) -> Json:
        paper = self.find_paper(ref)
        if paper is None:
            raise ApiError(404, "Not found.")
        return paper

    def keyed(self, key: str) -> Json | None:
        """The paper with this arXiv ID (without version) or DOI, in any case."""
        return self._by_key.get(key.casefold())

    def summary(self, paper: Json, resources: bool = False, methods: bool = False) -> Json:
        row = dict(paper["row"])
        if methods:
            row["methods"] = [self._ref(self.methods[m]) for m in paper.get("methods", [])]
        if resources:
            row.update({key: list(paper.get(key, [])) for key in RESOURCE_KEYS})
        return row

    @staticmethod
    def _ref(record: Json) -> Json:
        return {"id": record["id"], "name": record["name"], "slug": record["slug"]}

    def detail(self, paper: Json, resources: bool) -> Json:
        arxiv = paper.get("arxiv_id")
        conf = self.find("conference", paper.get("conference") or "")
        detail = self.summary(paper) | {
            "abstract": paper["summary"],
            "url_pdf": f"https://arxiv.org/pdf/{arxiv}" if arxiv else None,
            "source": "arxiv" if arxiv else "external",
            "conference_name": conf["name"] if conf else None,
            "conference": conf["slug"] if conf else None,
        }
        for kind, key in PAPER_LINKS.items():
            if kind != "framework":
                detail[key] = [self._ref(self.table(kind)[i]) for i in paper.get(key, [])]
        if resources:
            detail.update({key: list(paper.get(key, [])) for key in RESOURCE_KEYS})
        for field, ids in (
            ("predecessor_papers", paper.get("predecessors", [])),
            ("successor_papers", paper["successors"]),
        ):
            rows = [self.papers[i]["row"] for i in ids]
            detail[field] = [pick(r, "id title route_identifier published") for r in rows]
        return detail

    def lineage(self, paper: Json) -> Json:
        def ref(p: Json) -> Json:
            row = p["row"]
            return {
                "id": row["id"],
                "reference": row["route_identifier"],
                **pick(row, "arxiv_id title"),
            }

        return {
            "paper": ref(paper),
            "predecessors": [ref(self.papers[i]) for i in paper.get("predecessors", [])],
            "successors": [ref(self.papers[i]) for i in paper["successors"]],
        }

    def related(self, paper: Json, limit: int) -> list[Json]:
        """Curated related papers first, then papers sharing the most tasks."""
        chosen = [self.papers[i] for i in paper.get("related", [])]
        seen, tasks = {paper["id"], *(p["id"] for p in chosen)}, set(paper.get("tasks", []))
        others = [
            p
            for p in self.papers.values()
            if p["id"] not in seen and tasks & set(p.get("tasks", ()))
        ]
        others.sort(
            key=lambda p: (-len(tasks & set(p["tasks"])), -p["citation_count"], int(p["id"]))
        )
        return (chosen + others)[:limit]

    def filter_papers(
        self, papers: list[Json], search: str | None, entities: dict[str, Json], authors: list[Json]
    ) -> list[Json]:
        """The ``papers/`` filters: topic words, linked entities and authors (AND semantics)."""
        for kind, record in entities.items():
            if kind == "conference":
                papers = [p for p in papers if p.get("conference") == record["slug"]]
            else:
                papers = [p for p in papers if record["id"] in p.get(PAPER_LINKS[kind], [])]
        for author in authors:
            papers = [p for p in papers if author["id"] in {a["id"] for a in p["author_refs"]}]
        words = fold(search or "").split()
        return [p for p in papers if all(w in fold(f"{p['title']} {p['summary']}") for w in words)]

    def recent_cutoff(self, days: int) -> str:
        return (self.as_of - timedelta(days=days)).isoformat()
