"""Methods, conferences, organizations, frameworks and the public-metadata endpoints."""

from __future__ import annotations

from urllib.parse import quote

import httpx
import pytest

from tests.helpers.sample import error, ok


def test_methods(api: httpx.Client) -> None:
    listing = ok(api.get("methods/", params={"page": 1, "page_size": 500}))
    assert listing["count"] >= 25 and set(listing["results"][0]) == {
        "id",
        "slug",
        "name",
        "full_name",
        "area_id",
        "introduced_year",
        "paper_count",
    }
    assert [
        m["slug"] for m in ok(api.get("methods/", params={"q": "vision transformer"}))["results"]
    ] == ["vision-transformer"]
    vision_2020 = ok(api.get("methods/", params={"area_id": "1", "introduced_year": 2020}))[
        "results"
    ]
    assert {m["slug"] for m in vision_2020} == {"vision-transformer", "ddpm", "detr"}
    years = [
        m["introduced_year"]
        for m in ok(api.get("methods/", params={"ordering": "-introduced_year", "page_size": 500}))[
            "results"
        ]
    ]
    assert years == sorted(years, reverse=True)
    assert error(api.get("methods/", params={"page_size": 501}), 422)
    detail = ok(api.get("methods/2"))
    assert detail == ok(api.get("methods/transformer"))
    assert detail["source_url"] == "/paper/1706.03762" and detail["source_paper_id"] == "48213"
    assert detail["source_title"] == "Attention Is All You Need" and detail["description"]
    rope = ok(api.get("methods/rope"))
    assert rope["source_paper_id"] is None and rope["source_url"] == "/paper/2104.09864"
    assert error(api.get("methods/unknown-method"), 404) == "Not found."


def test_conferences(api: httpx.Client) -> None:
    listing = ok(api.get("conferences/"))
    assert (
        set(listing) == {"count", "results"} and listing["count"] == len(listing["results"]) >= 20
    )
    assert set(listing["results"][0]) == {"id", "slug", "name", "year", "paper_count", "location"}
    detail = ok(api.get("conferences/neurips-2017"))
    assert detail == ok(api.get("conferences/41"))
    assert (
        detail["tier"] == "a*"
        and detail["start_date"] == "2017-12-04"
        and detail["venue"]
        and detail["url"]
    )
    assert detail["paper_count"] == 1
    assert "Montréal" in ok(api.get("conferences/neurips-2014"))["location"]
    assert error(api.get("conferences/nope-1999"), 404)


def test_organizations(api: httpx.Client) -> None:
    everything = ok(api.get("organizations/", params={"featured_only": "false"}))
    featured = ok(api.get("organizations/", params={"featured_only": "true"}))
    assert {"count", "next_page", "previous_page", "results"} == set(everything)
    assert 0 < featured["count"] < everything["count"] and all(
        o["is_featured"] for o in featured["results"]
    )
    assert set(everything["results"][0]) == {
        "id",
        "slug",
        "name",
        "paper_count",
        "is_featured",
        "trending_rank",
    }
    microsoft = ok(api.get("organizations/microsoft"))
    assert microsoft == ok(api.get("organizations/9"))
    assert (microsoft["first_paper_year"], microsoft["latest_paper_year"]) == (2015, 2021)
    assert microsoft["website_url"] and microsoft["github_url"] and microsoft["hf_url"]
    assert error(api.get("organizations/nobody"), 404)


def test_frameworks(api: httpx.Client) -> None:
    body = ok(api.get("frameworks/"))
    frameworks = [f for d in body["domains"] for c in d["categories"] for f in c["frameworks"]]
    assert len(body["domains"]) == 4 and len(frameworks) >= 8
    pytorch = next(f for f in frameworks if f["slug"] == "pytorch")
    expected = {
        "id",
        "slug",
        "name",
        "description",
        "when_to_use",
        "platforms",
        "paper_count",
        "organization_name",
        "github_url",
        "docs_url",
        "introducing_paper_arxiv_id",
    }
    assert (
        set(pytorch) == expected
        and pytorch["platforms"] == ["cpu", "gpu", "apple"]
        and pytorch["paper_count"] > 5
    )


@pytest.mark.parametrize(
    ("reference", "catalog_id"),
    [
        ("1706.03762", "48213"),
        ("1706.03762v9", "48213"),
        ("48213", "48213"),
        ("10.1007/978-3-319-24574-4_28", "26788"),
        ("10.1038/S41586-021-03819-2", "910233"),
        ("https://doi.org/10.1109/5.726791", "904512"),
        ("https://arxiv.org/abs/hep-th/9711200v2", "5011"),
        ("arXiv:1810.04805", "52944"),
    ],
)
def test_public_metadata_in_catalog(api: httpx.Client, reference: str, catalog_id: str) -> None:
    body = ok(api.get(f"papers/{quote(reference, safe='')}/public-metadata"))
    assert body["in_catalog"] is True and body["source"] == "catalog" and body["id"] == catalog_id
    assert set(body["catalog_paper"]) == {"id", "arxiv_id", "route_identifier", "title"}
    assert body["catalog_paper"]["id"] == catalog_id and body["available_at"][0]["url"].startswith(
        "https://paperswithcode.co/paper/"
    )


@pytest.mark.parametrize(
    ("reference", "source"),
    [
        ("2501.12948", "arxiv"),
        ("2501.12948v2", "arxiv"),
        ("https://huggingface.co/papers/2501.12599", "huggingface"),
        ("math/0211159", "arxiv"),
        ("10.1038/nature16961", "crossref"),
    ],
)
def test_public_metadata_outside_catalog(api: httpx.Client, reference: str, source: str) -> None:
    body = ok(api.get(f"papers/{quote(reference, safe='')}/public-metadata"))
    assert (
        body["in_catalog"] is False and body["source"] == source and body["reference"] == reference
    )
    keys = {
        "in_catalog",
        "source",
        "reference",
        "arxiv_id",
        "doi",
        "title",
        "authors",
        "abstract",
        "published",
        "available_at",
    }
    assert set(body) == keys and body["title"] and body["authors"]
    assert body["available_at"] and all(
        set(link) == {"label", "url"} for link in body["available_at"]
    )


def test_public_metadata_misses(api: httpx.Client) -> None:
    for reference in (
        "2501.99999",
        "10.9999/unknown.1",
        "https://example.com/paper.pdf",
        "777777777",
    ):
        assert isinstance(
            error(api.get(f"papers/{quote(reference, safe='')}/public-metadata"), 404), str
        )
    assert isinstance(
        error(api.get("papers/Attention%20Is%20All%20You%20Need%21/public-metadata"), 422), str
    )


def test_public_metadata_title_search(api: httpx.Client) -> None:
    def search(title: str) -> dict:
        return ok(api.get("papers/public-metadata/search", params={"title": title}))

    lstm = search("long short-term memory")
    assert lstm["count"] == 1 and lstm["match"] == "exact" and lstm["note"] is None
    assert (
        lstm["results"][0]["doi"] == "10.1162/neco.1997.9.8.1735"
        and lstm["results"][0]["match"] == "exact"
    )
    catalog = search("Attention is all you need!")
    assert catalog["results"][0]["in_catalog"] is True and catalog["results"][0]["id"] == "48213"
    duplicate = search("Neural Architecture Search with Reinforcement Learning")
    assert duplicate["count"] == 2 and {r["id"] for r in duplicate["results"]} == {
        "33801",
        "907341",
    }
    prefix = search("DeepSeek-R1")
    assert (
        prefix["count"] == 1
        and prefix["match"] == "name_prefix"
        and "DeepSeek-R1:" in prefix["note"]
    )
    assert (
        prefix["results"][0]["arxiv_id"] == "2501.12948"
        and prefix["results"][0]["match"] == "name_prefix"
    )
    assert search("YOLOv4")["results"][0]["catalog_paper"]["arxiv_id"] == "2004.10934"
    assert search("An entirely unknown title") == {
        "count": 0,
        "match": None,
        "note": None,
        "results": [],
    }
    assert error(api.get("papers/public-metadata/search"), 422)
