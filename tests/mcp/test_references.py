"""Every way people name a paper, through the tools, and the public-metadata fallback."""

from __future__ import annotations

import pytest
from fastmcp import Client

from pwc_core.resolution import MAX_HOPS
from pwc_mcp.sample import RunningCatalog
from pwc_mcp.server import build_server
from tests.helpers.mcp import call, error_of, make_service

pytestmark = pytest.mark.anyio

ATTENTION = [
    "1706.03762",
    "1706.03762v5",
    "arxiv:1706.03762",
    "48213",
    "Attention Is All You Need",
    "  attention is ALL you need ",
    "https://arxiv.org/abs/1706.03762",
    "https://arxiv.org/pdf/1706.03762v7.pdf",
    "https://huggingface.co/papers/1706.03762",
    "https://paperswithcode.co/paper/1706.03762",
    "https://paperswithcode.co/paper/attention-is-all-you-need",
]


@pytest.mark.parametrize("reference", ATTENTION)
async def test_every_form_names_the_same_paper(client: Client, reference: str) -> None:
    structured, _ = await call(client, "get_paper_info", paper=reference)
    assert structured["data"]["arxiv_id"] == "1706.03762"


@pytest.mark.parametrize(
    ("reference", "arxiv_id"),
    [
        ("BERT", "1810.04805"),
        ("hep-th/9711200", "hep-th/9711200"),
        ("https://arxiv.org/abs/hep-th/9711200", "hep-th/9711200"),
    ],
)
async def test_short_names_and_legacy_ids(client: Client, reference: str, arxiv_id: str) -> None:
    structured, _ = await call(client, "get_paper_info", paper=reference)
    assert structured["data"]["arxiv_id"] == arxiv_id


async def test_external_paper_keeps_its_numeric_id(client: Client) -> None:
    structured, _ = await call(client, "get_paper_info", paper="904512")
    assert structured["data"]["id"] == "904512" and not structured["data"].get("arxiv_id")


@pytest.mark.parametrize(
    ("reference", "prefix"),
    [
        ("https://example.org/papers/10.1145/3065386", "invalid_argument: Paper URL not supported"),
        ("http://10.0.0.1/paper/1706.03762", "invalid_argument: Paper URL not supported"),
        ("http://localhost:8080/abs/1706.03762", "invalid_argument: Paper URL not supported"),
        (
            "Attention\x07Is",
            "invalid_argument: Paper reference must not contain control characters",
        ),
        ("x" * 501, "invalid_argument: paper: "),
        ("   ", "invalid_argument: "),  # the wording belongs to parameter validation
    ],
)
async def test_refused_without_an_upstream_request(
    client: Client, sample: RunningCatalog, reference: str, prefix: str
) -> None:
    sample.stats.reset()
    text = await error_of(client, "get_paper_info", paper=reference)
    assert text.startswith(prefix), text
    assert sample.stats.total() == 0


async def test_ambiguous_title_lists_candidates(client: Client) -> None:
    text = await error_of(
        client, "get_paper_info", paper="Neural Architecture Search with Reinforcement Learning"
    )
    # each candidate as the setting to retry with, told apart by its year and venue
    assert text == (
        'ambiguous: paper "Neural Architecture Search with Reinforcement Learning" matches 2 '
        'catalog papers; retry with paper: "1611.01578" (2016, ICLR 2017) or paper: "907341" '
        "(2019)"
    )


@pytest.mark.parametrize(
    ("reference", "source"),
    [
        ("2501.12948", "arxiv"),
        ("2501.12599", "huggingface"),
        ("math/0211159", "arxiv"),
        ("10.1038/nature16961", "crossref"),
        ("Long Short-Term Memory", "crossref"),
    ],
)
async def test_papers_outside_the_catalog(client: Client, reference: str, source: str) -> None:
    structured, text = await call(client, "get_paper_info", paper=reference)
    paper = structured["data"]
    assert paper["in_catalog"] is False and paper["available_at"]
    assert structured["data"]["source"] == source
    assert paper["repositories"] == [] and text.startswith("## ")


async def test_name_prefix_match_is_noted(client: Client) -> None:
    structured, _ = await call(client, "get_paper_info", paper="DeepSeek-R1")
    assert structured["data"]["in_catalog"] is False
    assert structured["data"].get("note")


@pytest.mark.parametrize(
    ("reference", "message"),
    [
        (
            "2999.00001",
            "not_found: Paper not found: 2999.00001; identifier tried in the catalog and "
            "in public metadata",
        ),
        (
            "A Title Nobody Ever Wrote",
            "not_found: Paper title not found: A Title Nobody Ever Wrote",
        ),
    ],
)
async def test_misses_say_what_was_tried(client: Client, reference: str, message: str) -> None:
    text = await error_of(client, "get_paper_info", paper=reference)
    assert text.startswith(message), text
    if "Title" in reference:
        assert text.endswith(
            "title also tried in public metadata (Hugging Face Papers, arXiv and Crossref)"
        )


async def test_unavailable_lookup(client: Client, sample: RunningCatalog) -> None:
    sample.faults.fail(503, times=5, path_prefix="papers/2999.00002/public-metadata")
    text = await error_of(client, "get_paper_info", paper="2999.00002")
    assert "public metadata lookup is unavailable right now" in text


async def test_misses_are_cached_for_an_hour(sample: RunningCatalog) -> None:
    async with Client(build_server(make_service(sample.url, cached=True))) as client:
        sample.stats.reset()
        for _ in range(3):
            await error_of(client, "get_paper_info", paper="2999.00003")
    assert sample.stats.requests.get("papers/2999.00003/public-metadata") == 1
    # The catalog's own 404 is an error, and errors are never cached.
    assert sample.stats.requests.get("papers/2999.00003") == 3


# Catalog IDs whose public metadata maps them to IDs the catalog lacks (sample `stale_mappings`).
@pytest.mark.parametrize("tool", ["read_paper", "get_paper_info", "get_paper_evaluations"])
async def test_a_mapping_cycle_is_a_clean_not_found(
    client: Client, sample: RunningCatalog, tool: str
) -> None:
    sample.stats.reset()
    text = await error_of(client, tool, paper="990001")  # 990001 -> 990002 -> 990001
    assert text == "not_found: Paper not found: 990001; the catalog maps it in a cycle"
    # papers/{id} and its public metadata, once per ID: no crawl, no RecursionError.
    assert sample.stats.total() == 4


async def test_a_mapping_chain_stops_after_the_hop_limit(
    client: Client, sample: RunningCatalog
) -> None:
    sample.stats.reset()
    text = await error_of(client, "read_paper", paper="990101")  # 990101 -> ... -> 990106
    assert text.startswith("not_found: Paper not found: 990101; the catalog maps it through more")
    assert sample.stats.total() == 2 * (MAX_HOPS + 1)
