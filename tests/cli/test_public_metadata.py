"""The public-metadata fallback for papers the catalog does not hold (SPEC "Paper references")."""

from __future__ import annotations

import httpx
import respx

from tests.helpers.cli import fixture, params_of

EMPTY = {"count": 0, "match": None, "results": []}


def test_unknown_identifier_returns_labelled_metadata(api: respx.MockRouter, pwc) -> None:
    api.get("/papers/2501.12948").respond(404, json={"detail": "Not found."})
    api.get("/papers/2501.12948/public-metadata").respond(
        json=fixture("public_metadata_arxiv.json")
    )
    result = pwc("paper", "info", "2501.12948", "--json")
    assert result.code == 0
    assert result.data["in_catalog"] is False and result.data["source"] == "arxiv"
    assert result.data["available_at"][0]["url"].startswith("https://arxiv.org/abs/")
    human = pwc("paper", "info", "2501.12948").out
    assert "in_catalog: false" in human and "## Available at" in human


def test_reference_mapped_to_a_catalog_paper_is_retried(api: respx.MockRouter, pwc) -> None:
    api.get("/papers/1706.03762v99").respond(404, json={"detail": "Not found."})
    api.get("/papers/1706.03762v99/public-metadata").respond(
        json=fixture("public_metadata_in_catalog.json")
    )
    detail = api.get("/papers/1706.03762").respond(json=fixture("paper_detail_basic.json"))
    result = pwc("paper", "info", "1706.03762v99", "--json")
    assert (
        result.code == 0 and detail.called and result.data["title"] == "Attention Is All You Need"
    )


def test_title_outside_catalog_goes_to_title_search(api: respx.MockRouter, pwc) -> None:
    title = "Mastering the game of Go with deep neural networks and tree search"
    api.get("/papers/search").respond(json={"count": 0, "results": []})
    api.get(url__regex=r"/papers/Mastering.*/public-metadata").respond(422, json={"detail": "x"})
    search = api.get("/papers/public-metadata/search").respond(
        json=fixture("public_metadata_search_title.json")
    )
    result = pwc("paper", "info", title, "--json")
    assert result.code == 0 and result.data["doi"] == "10.1038/nature16961"
    assert result.data["in_catalog"] is False
    assert params_of(search) == {"title": [title]}


def test_unknown_identifier_miss_says_identifier_tried(api: respx.MockRouter, pwc) -> None:
    api.get("/papers/2999.00001").respond(404, json={"detail": "Not found."})
    api.get("/papers/2999.00001/public-metadata").respond(404, json={"detail": "Not found."})
    result = pwc("paper", "info", "2999.00001")
    assert result.code == 4
    assert result.err == (
        "pwc: Paper not found: 2999.00001; identifier tried in the catalog and "
        "in public metadata (Hugging Face Papers, arXiv and Crossref)\n"
    )


def test_unavailable_lookup_is_reported_as_such(api: respx.MockRouter, pwc) -> None:
    api.get("/papers/2999.00001").respond(404, json={"detail": "Not found."})
    api.get("/papers/2999.00001/public-metadata").mock(side_effect=httpx.ConnectError("down"))
    result = pwc("paper", "info", "2999.00001")
    assert result.code == 4 and "public metadata lookup is unavailable right now" in result.err


def test_title_with_unavailable_lookup(api: respx.MockRouter, pwc) -> None:
    api.get("/papers/search").respond(json={"count": 0, "results": []})
    api.get(url__regex=r"/public-metadata$").respond(503, text="busy")
    result = pwc("paper", "info", "Some Title")
    assert result.code == 4
    assert result.err.endswith("; the public metadata lookup is unavailable right now\n")


def test_other_commands_refuse_papers_outside_the_catalog(api: respx.MockRouter, pwc) -> None:
    api.get("/papers/search").respond(json={"count": 0, "results": []})
    api.get(url__regex=r"/papers/Mastering.*/public-metadata").respond(422, json={"detail": "x"})
    api.get("/papers/public-metadata/search").respond(
        json=fixture("public_metadata_search_title.json")
    )
    result = pwc(
        "paper", "read", "Mastering the game of Go with deep neural networks and tree search"
    )
    assert result.code == 4
    assert result.err.startswith("pwc: Paper not in the catalog: Mastering the game of Go")
    assert "available at Publisher (DOI): https://doi.org/10.1038/nature16961" in result.err
