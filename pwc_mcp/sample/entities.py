"""Entity payloads of the sample catalog: methods, conferences, organizations and frameworks."""

from __future__ import annotations

from typing import TYPE_CHECKING

from pwc_mcp.sample.common import Json

if TYPE_CHECKING:
    from pwc_mcp.sample.records import CatalogRecords

ENTITY_FIELDS = {  # (list fields, extra detail fields)
    "method": ("id slug name full_name area_id introduced_year", "description"),
    "conference": ("id slug name year", "tier start_date end_date venue description url hf_url"),
    "organization": ("id slug name", "description website_url github_url hf_url"),
}


def entity(store: CatalogRecords, kind: str, record: Json, detail: bool = False) -> Json:
    """A method, conference or organization row (``detail``: as its own endpoint answers)."""
    fields, extra = ENTITY_FIELDS[kind]
    row = {k: record[k] for k in fields.split()} | {"paper_count": len(record["papers"])}
    if kind == "conference":
        row["location"] = record["location"]
    if kind == "organization":
        row |= {"is_featured": record["is_featured"], "trending_rank": record["trending_rank"]}
    if not detail:
        return row
    row |= {k: record.get(k) for k in extra.split()}
    years = sorted(int(p["published"][:4]) for p in record["papers"])
    if kind == "organization":
        row |= {
            "first_paper_year": years[0] if years else None,
            "latest_paper_year": years[-1] if years else None,
        }
    if kind == "method":
        source = store.papers.get(record.get("source_paper_id") or "")
        row |= {
            "source_paper_id": source["id"] if source else None,
            "source_url": f"/paper/{source['row']['route_identifier']}"
            if source
            else record.get("source_url"),
            "source_title": source["title"] if source else record.get("source_title"),
        }
    return row


def frameworks(store: CatalogRecords) -> Json:
    """The framework tree, each framework with its paper count."""

    def framework(f: Json) -> Json:
        return {k: v for k, v in f.items() if k != "papers"} | {"paper_count": len(f["papers"])}

    def category(c: Json) -> Json:
        return c | {"frameworks": [framework(f) for f in c["frameworks"]]}

    domains = store.framework_tree["domains"]
    return {
        "domains": [d | {"categories": [category(c) for c in d["categories"]]} for d in domains]
    }
