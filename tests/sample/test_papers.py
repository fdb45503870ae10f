"""Paper endpoints of the sample catalog: search, listing, detail, bare lists, lineage."""

from __future__ import annotations

import httpx
import pytest

from tests.helpers.sample import error, ok

SUMMARY_KEYS = {
    "id",
    "arxiv_id",
    "slug",
    "route_identifier",
    "title",
    "authors",
    "published",
    "citation_count",
    "has_official_implementation",
    "code_repository_count",
    "url_abs",
}
RESOURCE_KEYS = {"repositories", "project_pages", "hf_models", "hf_datasets", "hf_spaces"}


def test_search_pagination(api: httpx.Client) -> None:
    first = ok(
        api.get("papers/search", params={"q": "transformer", "mode": "keyword", "page_size": 2})
    )
    assert list(first) == ["count", "next_page", "previous_page", "applied_filters", "results"]
    assert first["count"] > 4 and first["next_page"] == 2 and first["previous_page"] is None
    assert all(set(row) >= SUMMARY_KEYS for row in first["results"])
    second = ok(
        api.get(
            "papers/search",
            params={"q": "transformer", "mode": "keyword", "page": 2, "page_size": 2},
        )
    )
    assert second["previous_page"] == 1
    assert {r["id"] for r in first["results"]}.isdisjoint(r["id"] for r in second["results"])
    beyond = ok(api.get("papers/search", params={"q": "transformer", "page": 99, "page_size": 2}))
    assert beyond["results"] == [] and beyond["next_page"] is None


def test_search_phrase_author_and_id(api: httpx.Client) -> None:
    phrase = ok(
        api.get(
            "papers/search",
            params={"q": '"Attention Is All You Need"', "mode": "keyword", "page_size": 100},
        )
    )
    assert [r["id"] for r in phrase["results"]] == ["48213"]
    by_author = ok(
        api.get("papers/search", params={"q": "kaiming he", "mode": "keyword", "page_size": 100})
    )
    assert {"30571", "31102", "37015", "28820"} == {r["id"] for r in by_author["results"]}
    by_id = ok(api.get("papers/search", params={"q": "1810.04805", "mode": "keyword"}))
    assert by_id["results"][0]["arxiv_id"] == "1810.04805"
    hybrid = ok(api.get("papers/search", params={"q": "residual learning image recognition"}))
    assert hybrid["results"][0]["id"] == "30571"
    semantic = ok(
        api.get("papers/search", params={"q": "offline reinforcement", "mode": "semantic"})
    )
    assert "86077" in {r["id"] for r in semantic["results"]}
    empty = ok(api.get("papers/search", params={"q": "zzqx nonexistent topic", "mode": "keyword"}))
    assert empty == {
        "count": 0,
        "next_page": None,
        "previous_page": None,
        "applied_filters": empty["applied_filters"],
        "results": [],
    }


def test_search_filters_are_applied_and_echoed(api: httpx.Client) -> None:
    params = {
        "q": "transformer",
        "has_official_implementation": "true",
        "start_date": "2020-01-01",
        "end_date": "2021-12-31",
        "page_size": 100,
    }
    body = ok(api.get("papers/search", params=params))
    assert body["applied_filters"] == {
        "has_official_implementation": "true",
        "start_date": "2020-01-01",
        "end_date": "2021-12-31",
    }
    assert body["results"] and all(
        r["has_official_implementation"] is True for r in body["results"]
    )
    assert all("2020-01-01" <= r["published"] <= "2021-12-31" for r in body["results"])
    plain = ok(api.get("papers/search", params={"q": "transformer"}))
    assert plain["applied_filters"] == {
        "has_official_implementation": None,
        "start_date": None,
        "end_date": None,
    }


@pytest.mark.parametrize(
    "params",
    [
        {"q": "x", "mode": "fuzzy"},
        {"mode": "keyword"},
        {"q": "x", "page": "abc"},
        {"q": "x", "page_size": 101},
        {"q": "x", "page": 0},
        {"q": "x", "start_date": "2020-13-01"},
        {"q": "x", "start_date": "2021-01-01", "end_date": "2020-01-01"},
        {"q": "x", "has_official_implementation": "maybe"},
    ],
)
def test_search_rejects_invalid_parameters(api: httpx.Client, params: dict[str, object]) -> None:
    assert isinstance(error(api.get("papers/search", params=params), 422), str)


def test_duplicate_titles_are_two_papers(api: httpx.Client) -> None:
    body = ok(
        api.get(
            "papers/search",
            params={
                "q": "Neural Architecture Search with Reinforcement Learning",
                "mode": "keyword",
            },
        )
    )
    exact = [
        r
        for r in body["results"]
        if r["title"] == "Neural Architecture Search with Reinforcement Learning"
    ]
    assert sorted(r["id"] for r in exact) == ["33801", "907341"]
    assert {r["arxiv_id"] for r in exact} == {"1611.01578", None}


def test_list_filters_echo_and_authors(api: httpx.Client) -> None:
    params = [
        ("task", "Image Classification"),
        ("organization", "Microsoft"),
        ("start_date", "2015-01-01"),
        ("end_date", "2016-12-31"),
        ("has_official_implementation", "true"),
        ("author", "Kaiming He"),
    ]
    body = ok(api.get("papers/", params=params))
    assert [r["id"] for r in body["results"]] == ["30571", "31102"]
    assert body["applied_filters"] == {
        "task": "Image Classification",
        "organization": "Microsoft",
        "start_date": "2015-01-01",
        "end_date": "2016-12-31",
        "has_official_implementation": "true",
        "authors": [{"id": "3117", "name": "Kaiming He", "hf_username": None}],
    }


@pytest.mark.parametrize(
    ("key", "value", "expected"),
    [
        ("method", "transformer", "48213"),
        ("method", "Shifted Window Transformer", "78035"),
        ("conference", "NeurIPS 2017", "48213"),
        ("conference", "neurips-2017", "48213"),
        ("framework", "Detectron2", "37015"),
        ("organization", "9", "30571"),
        ("task", "question-answering", "52944"),
    ],
)
def test_list_entity_filters(api: httpx.Client, key: str, value: str, expected: str) -> None:
    body = ok(api.get("papers/", params={key: value, "page_size": 100}))
    assert expected in {r["id"] for r in body["results"]}
    assert body["applied_filters"][key] == value


def test_list_author_forms(api: httpx.Client) -> None:
    def ids(*authors: str) -> set[str]:
        body = ok(
            api.get("papers/", params=[("author", a) for a in authors] + [("page_size", 100)])
        )
        return {r["id"] for r in body["results"]}

    assert (
        ids("3117") == ids("0003117") == ids("kaiming  HE") == {"30571", "31102", "37015", "28820"}
    )
    assert ids("@thomwolf") == {"61003"}
    assert ids("Kaiming He", "Ross Girshick") == {"37015", "28820"}
    assert ids("1187") == {"30571", "31102", "28820"}
    assert ids("@jiansun-ml") == {"907341"}
    hf = ok(api.get("papers/", params={"author": "@THOMWOLF"}))["applied_filters"]["authors"]
    assert hf == [{"id": "5120", "name": "Thomas Wolf", "hf_username": "thomwolf"}]


def test_list_author_errors(api: httpx.Client) -> None:
    detail = error(api.get("papers/", params={"author": "Jian Sun"}), 409)
    assert detail["code"] == "ambiguous_author" and detail["reference"] == "Jian Sun"
    assert detail["candidates"] == [
        {"id": "1187", "name": "Jian Sun", "hf_username": None},
        {"id": "40321", "name": "Jian Sun", "hf_username": "jiansun-ml"},
    ]
    assert (
        error(api.get("papers/", params={"author": "Nobody Atall"}), 404)
        == "Author not found: Nobody Atall"
    )
    assert error(api.get("papers/", params={"author": "@ghost"}), 404) == "Author not found: @ghost"
    too_many = [("author", "Kaiming He")] * 11
    assert error(api.get("papers/", params=too_many), 422)


def test_list_versions_order_and_resources(api: httpx.Client) -> None:
    latest = ok(api.get("papers/", params={"page_size": 100}))
    assert "10962" not in {r["id"] for r in latest["results"]}
    everything = ok(api.get("papers/", params={"page_size": 100, "latest_only": "false"}))
    assert everything["count"] == latest["count"] + 1 and "10962" in {
        r["id"] for r in everything["results"]
    }
    cited = ok(api.get("papers/", params={"order_by": "citation_count", "page_size": 100}))[
        "results"
    ]
    assert [r["citation_count"] for r in cited] == sorted(
        (r["citation_count"] for r in cited), reverse=True
    )
    oldest = ok(
        api.get(
            "papers/", params={"order_by": "date_published", "order_dir": "asc", "page_size": 5}
        )
    )["results"]
    assert oldest[0]["id"] == "5011" and [r["published"] for r in oldest] == sorted(
        r["published"] for r in oldest
    )
    rows = ok(api.get("papers/", params={"include_resources": "true", "page_size": 3}))["results"]
    assert all(set(r) >= RESOURCE_KEYS for r in rows)
    assert not RESOURCE_KEYS & set(latest["results"][0])
    page = ok(api.get("papers/", params={"page": 2, "page_size": 10}))
    assert page["previous_page"] == 1 and page["next_page"] == 3


@pytest.mark.parametrize(
    ("params", "status"),
    [
        ({"page": 101}, 422),
        ({"page_size": 0}, 422),
        ({"order_by": "stars"}, 422),
        ({"order_dir": "up"}, 422),
        ({"end_date": "yesterday"}, 422),
        ({"task": "Unknown Task"}, 404),
        ({"method": "nope"}, 404),
    ],
)
def test_list_rejects_bad_filters(
    api: httpx.Client, params: dict[str, object], status: int
) -> None:
    assert error(api.get("papers/", params=params), status)


def test_detail_reference_forms(api: httpx.Client) -> None:
    plain = ok(api.get("papers/1706.03762"))
    assert ok(api.get("papers/1706.03762v5")) == plain == ok(api.get("papers/48213"))
    assert (
        plain["source"] == "arxiv"
        and plain["conference_name"] == "NeurIPS 2017"
        and plain["url_pdf"]
    )
    assert not RESOURCE_KEYS & set(plain)
    assert [p["route_identifier"] for p in plain["predecessor_papers"]] == ["1409.0473"]
    assert {"1810.04805", "1910.10683", "2010.11929"} <= {
        p["route_identifier"] for p in plain["successor_papers"]
    }
    assert error(api.get("papers/1706.03762v9"), 404) == "Not found."
    assert error(api.get("papers/9999.99999"), 404) == "Not found."
    full = ok(api.get("papers/1706.03762", params={"include_resources": "true"}))
    assert set(full) >= RESOURCE_KEYS
    assert {r["is_official"] for r in full["repositories"]} == {True, False}
    assert full["project_pages"][0]["is_official"] is True
    clip = ok(api.get("papers/2103.00020", params={"include_resources": "true"}))
    assert clip["project_pages"] == ["https://openai.com/index/clip/"] and clip["hf_spaces"]


def test_external_and_legacy_papers(api: httpx.Client) -> None:
    external = ok(api.get("papers/904512"))
    assert (
        external["source"] == "external"
        and external["arxiv_id"] is None
        and external["url_abs"] is None
    )
    assert external["source_url"] == "https://ieeexplore.ieee.org/document/726791"
    assert external["route_identifier"] == "904512"
    legacy = ok(api.get("papers/hep-th%2F9711200"))
    assert legacy["arxiv_id"] == "hep-th/9711200" and legacy["id"] == "5011"
    assert ok(api.get("papers/hep-th/9711200v3")) == legacy
    assert ok(api.get("papers/hep-th%2F9711200/related", params={"limit": 2})) == []


def test_bare_lists(api: httpx.Client) -> None:
    recent = ok(api.get("papers/recent", params={"limit": 3}))
    assert isinstance(recent, list) and [r["id"] for r in recent] == ["128410", "127733", "125902"]
    trending = ok(api.get("papers/trending", params={"limit": 20, "max_age_days": 180}))
    assert [r["id"] for r in trending] == ["127733", "123410", "125902", "128410"]
    # The window counts back from the sample's as_of (2025-06-30), not from the real date.
    month = ok(api.get("papers/trending", params={"max_age_days": 30}))
    assert [r["id"] for r in month] == ["128410"]
    wider = ok(api.get("papers/trending", params={"max_age_days": 365, "min_velocity": 90.0}))
    assert [r["id"] for r in wider] == ["121877", "127733", "123410"]
    related = ok(api.get("papers/1706.03762/related", params={"limit": 4}))
    assert [r["id"] for r in related] == ["52944", "61532", "19875", "58921"]
    resnet = [r["id"] for r in ok(api.get("papers/30571/related", params={"limit": 20}))]
    assert (
        resnet[:3] == ["31102", "34177", "25113"]
        and "30571" not in resnet
        and 3 < len(resnet) <= 20
    )
    for path, params in [
        ("papers/recent", {"limit": 0}),
        ("papers/trending", {"max_age_days": 366}),
        ("papers/trending", {"min_velocity": "fast"}),
        ("papers/1706.03762/related", {"limit": 21}),
    ]:
        assert error(api.get(path, params=params), 422)
    assert error(api.get("papers/0000.00000/related"), 404)


def test_lineage(api: httpx.Client) -> None:
    body = ok(api.get("research/papers/1706.03762/lineage"))
    assert body["paper"] == {
        "id": "48213",
        "reference": "1706.03762",
        "arxiv_id": "1706.03762",
        "title": "Attention Is All You Need",
    }
    assert [p["reference"] for p in body["predecessors"]] == ["1409.0473"]
    assert "1810.04805" in {p["reference"] for p in body["successors"]}
    dropout = ok(api.get("research/papers/905870/lineage"))
    assert (
        dropout["paper"]["reference"] == "905870"
        and dropout["predecessors"][0]["reference"] == "1207.0580"
    )
    assert error(api.get("research/papers/1234.56789/lineage"), 404)
