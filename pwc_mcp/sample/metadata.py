"""Public metadata of the sample catalog: what a paper reference maps to (a catalog paper, a
public-only record, a stale mapping into the catalog) and the title search.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING
from urllib.parse import unquote, urlsplit

from pwc_mcp.sample.common import MODERN_ARXIV, ApiError, Json, fold, pick, split_arxiv

if TYPE_CHECKING:
    from pwc_mcp.sample.records import CatalogRecords

SITE = "https://paperswithcode.co"
DOI_RE = re.compile(r"^10\.\d{4,9}/\S+$")


def norm_title(title: str) -> str:
    """Title key of the public-metadata search: casefolded, punctuation dropped."""
    return " ".join(re.sub(r"[^\w\s]|_", " ", title.casefold()).split())


class PublicMetadata:
    """The ``papers/{ref}/public-metadata`` and ``papers/public-metadata/search`` answers."""

    def __init__(self, store: CatalogRecords, records: list[Json], stale: list[Json]) -> None:
        self.store = store
        self.records = records
        self.stale: dict[str, Json] = {m["reference"]: m for m in stale}

    def _identify(self, ref: str) -> tuple[str, str] | None:
        """Classify a reference as ("arxiv"|"doi"|"id"|"slug"|"url", value); None for a title."""
        if ref.lower().startswith(("http://", "https://")):
            url = urlsplit(ref)
            host, path = url.netloc.lower().removeprefix("www."), unquote(url.path).strip("/")
            for prefix in ("arxiv.org/abs/", "arxiv.org/pdf/", "huggingface.co/papers/"):
                if f"{host}/{path}".startswith(prefix):
                    inner = f"{host}/{path}"[len(prefix) :].removesuffix(".pdf")
                    return self._identify(inner) or ("url", ref)
            if host in ("doi.org", "dx.doi.org"):
                return ("doi", path)
            if host == "paperswithcode.co" and path.startswith("paper/"):
                return self._identify(path[6:]) or ("slug", path[6:])
            return ("url", ref)
        for prefix in ("arxiv:", "doi:"):
            if ref.lower().startswith(prefix):
                return self._identify(ref[len(prefix) :].strip())
        if DOI_RE.match(ref):
            return ("doi", ref)
        parsed = split_arxiv(ref)
        return ("arxiv", parsed[0]) if parsed else ("id", ref) if ref.isdigit() else None

    def _catalog_entry(self, paper: Json) -> Json:
        row = paper["row"]
        return {
            "in_catalog": True,
            "source": "catalog",
            "id": row["id"],
            "arxiv_id": row["arxiv_id"],
            "title": row["title"],
            "catalog_paper": pick(row, "id arxiv_id route_identifier title"),
            "available_at": [
                {"label": "Papers With Code", "url": f"{SITE}/paper/{row['route_identifier']}"}
            ],
        }

    @staticmethod
    def _public_entry(record: Json, reference: str | None = None) -> Json:
        arxiv, doi = record["arxiv_id"], record["doi"]
        links = [("arXiv abstract", "abs"), ("arXiv PDF", "pdf")] if arxiv else []
        links = [(label, f"https://arxiv.org/{kind}/{arxiv}") for label, kind in links]
        if arxiv and MODERN_ARXIV.match(arxiv):
            links.append(("Hugging Face Papers", f"https://huggingface.co/papers/{arxiv}"))
        links += [("Publisher (DOI)", f"https://doi.org/{doi}")] if doi else []
        fields = ("arxiv_id", "doi", "title", "authors", "abstract", "published")
        entry = {
            "in_catalog": False,
            "source": record["source"],
            "reference": reference or arxiv or doi,
        }
        entry |= {k: record.get(k) for k in fields}
        return entry | {"available_at": [{"label": label, "url": url} for label, url in links]}

    @staticmethod
    def _stale_entry(mapping: Json) -> Json:
        """A mapping into the catalog that the catalog itself does not hold (as after a merge)."""
        target = mapping["maps_to"]
        paper = {
            "id": target,
            "arxiv_id": None,
            "route_identifier": target,
            "title": mapping["title"],
        }
        return {"in_catalog": True, "source": "catalog", **paper, "catalog_paper": paper}

    def lookup(self, reference: str) -> Json:
        """A catalog mapping (in_catalog true), a public-only record, 404, or 422 for titles
        (docs/upstream-api.md#public-metadata)."""
        ref = reference.strip()
        kind = self._identify(ref)
        if kind is None:
            raise ApiError(422, "Not a paper identifier; search titles with public-metadata/search")
        kind_name, value = kind
        if kind_name in ("arxiv", "id"):
            paper = self.store.find_paper(value)
        elif kind_name == "slug":
            paper = next(
                (p for p in self.store.papers.values() if p["row"]["slug"] == fold(value)), None
            )
        else:
            paper = self.store.keyed(value) if kind_name == "doi" else None
        if paper is not None:
            return self._catalog_entry(paper)
        if value in self.stale:
            return self._stale_entry(self.stale[value])
        field = {"arxiv": "arxiv_id", "doi": "doi"}.get(kind_name)
        if field is not None:
            for record in self.records:
                if fold(record[field] or "") == fold(value):
                    return self._public_entry(record, ref)
        raise ApiError(404, f"No public metadata found for {ref}")

    def search(self, title: str) -> Json:
        """Exact normalized title match, else the single arXiv paper with that "Name:" prefix."""
        target = norm_title(title)
        entries = [
            (p["title"], p["row"]["arxiv_id"], self._catalog_entry(p))
            for p in self.store.papers.values()
        ]
        entries += [(r["title"], r["arxiv_id"], self._public_entry(r)) for r in self.records]
        exact = [entry | {"match": "exact"} for t, _, entry in entries if norm_title(t) == target]
        if exact:
            return {"count": len(exact), "match": "exact", "note": None, "results": exact}
        names = [(t.split(":")[0], e) for t, arxiv, e in entries if arxiv and ":" in t]
        prefixed = [(name, e) for name, e in names if norm_title(name) == target]
        if target and len(prefixed) == 1:
            name = prefixed[0][0]
            note = f'No exact title match; returning the only arXiv paper whose title starts with "{name}:".'
            entry = prefixed[0][1] | {"match": "name_prefix", "note": note}
            return {"count": 1, "match": "name_prefix", "note": note, "results": [entry]}
        return {"count": 0, "match": None, "note": None, "results": []}
