"""Issue #23 item 7 through the tools: a misspelt name is a `not_found:` naming the closest
catalog names in the tool's own words (no CLI flags), found through the server's cached client;
an exact benchmark name that other benchmarks contain names them in the leaderboard text."""

from __future__ import annotations

import pytest
from fastmcp import Client

from pwc_mcp.sample import RunningCatalog
from pwc_mcp.server import build_server
from tests.helpers.mcp import call, error_of, make_service

pytestmark = pytest.mark.anyio


@pytest.mark.parametrize(
    ("tool", "arguments", "message"),
    [
        (
            "get_benchmark",
            {"benchmark": "LSUN Bedrom 256 x 256"},
            "Benchmark not found: LSUN Bedrom 256 x 256; closest results: LSUN Bedroom 256 x 256",
        ),
        (
            "get_benchmark",
            {"benchmark": "WMT2014 Englsh-French"},
            "Benchmark not found: WMT2014 Englsh-French; closest results: "
            "WMT2014 English-French, WMT2014 English-German",
        ),
        (
            "get_task",
            {"task": "Few Shot Lerning"},
            "Task not found: Few Shot Lerning; closest results: Few-Shot Image Classification, "
            "Zero-Shot Image Classification",
        ),
        (
            "get_task",
            {"task": "image-clasification"},
            "Task not found: image-clasification; closest results: Image Classification, "
            "Few-Shot Image Classification, Zero-Shot Image Classification",
        ),
        (
            "get_method",
            {"method": "transfomer"},
            "Method not found: transfomer; closest results: Transformer, Swin Transformer, "
            "Decision Transformer",
        ),
        (
            "get_organization",
            {"organization": "Google Deepmnd"},
            "Organization not found: Google Deepmnd; closest results: Google DeepMind, Google",
        ),
        (
            "get_framework",
            {"framework": "Pytorch Imag Models"},
            "Framework not found: Pytorch Imag Models; closest results: PyTorch Image Models, "
            "PyTorch",
        ),
        (
            "get_conference",
            {"conference": "Nuerips 2019"},
            "Conference not found: Nuerips 2019; closest results: NeurIPS 2019, ICML 2019, "
            "NAACL 2019",
        ),
        (
            "get_paper_info",
            {"paper": "Atention Is All You Need"},
            "Paper title not found: Atention Is All You Need; closest results: Attention Is All "
            "You Need (1706.03762); title also tried in public metadata (Hugging Face Papers, "
            "arXiv and Crossref)",
        ),
    ],
)
async def test_a_misspelt_name_suggests_the_closest_names(
    cached_client: Client, tool: str, arguments: dict[str, str], message: str
) -> None:
    text = await error_of(cached_client, tool, **arguments)
    assert text == f"not_found: {message}"
    assert "--" not in text  # the tool's words, never a CLI flag


async def test_the_fallback_searches_go_through_the_cache(sample: RunningCatalog) -> None:
    async with Client(build_server(make_service(sample.url))) as client:
        before = sample.stats.requests.get("datasets/", 0)
        first = await error_of(client, "get_benchmark", benchmark="LSUN Bedrom 256 x 256")
        # the name, "Bedrom", then "LSUN", which finds a name with every typed word
        assert sample.stats.requests.get("datasets/", 0) - before == 3
        again = await error_of(client, "get_benchmark", benchmark="LSUN Bedrom 256 x 256")
        assert (again, sample.stats.requests.get("datasets/", 0) - before) == (first, 3)


async def test_an_exact_name_with_siblings_names_them(cached_client: Client) -> None:
    structured, text = await call(cached_client, "get_benchmark", benchmark="Penn Treebank")
    assert structured["data"]["benchmark"]["id"] == "455"
    assert structured["data"]["similar_benchmarks"] == ["Penn Treebank (Word Level)"]
    assert text.splitlines()[2] == "Other benchmarks with this name: Penn Treebank (Word Level)."
    _, text = await call(cached_client, "get_benchmark", benchmark="Penn Treebank (Word Level)")
    assert "Other benchmarks" not in text
