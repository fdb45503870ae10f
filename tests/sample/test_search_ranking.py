"""The sample catalog's search ranks like a search engine: an exact title, short name or known
alias first, then BM25 over title and abstract; weak matches are not padding."""

from __future__ import annotations

import httpx
import pytest

from tests.helpers.sample import ok

MODES = ("keyword", "hybrid", "semantic")
# query -> the paper it names (by title, the part before a colon, or a common alias)
NAMED = {
    "bert": "52944",  # BERT: Pre-training of ... (RoBERTa mentions BERT in its title too)
    "resnet": "30571",  # Deep Residual Learning for Image Recognition
    "gpt-3": "66120",  # Language Models are Few-Shot Learners (not Gemma 3)
    "vision transformer": "71206",  # An Image is Worth 16x16 Words (ViT)
    "attention is all you need": "48213",
    "GPT3": "66120",
    "ResNets": "30571",
    "Vision Transformers": "71206",
}


def search(api: httpx.Client, q: str, mode: str, **params: str) -> list[str]:
    body = ok(api.get("papers/search", params={"q": q, "mode": mode, **params}))
    assert isinstance(body, dict)
    return [row["id"] for row in body["results"]]


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize(("query", "expected"), NAMED.items())
def test_a_named_paper_comes_first(api: httpx.Client, query: str, expected: str, mode: str) -> None:
    assert search(api, query, mode)[:1] == [expected]


@pytest.mark.parametrize("mode", ["hybrid", "semantic"])
def test_weak_matches_are_not_padding(api: httpx.Client, mode: str) -> None:
    # "models" alone is in most abstracts: an LLM report is no answer to "diffusion models".
    recent = search(api, "diffusion models", mode, start_date="2022-01-01")
    assert recent == ["101552"]  # Scalable Diffusion Models with Transformers
    assert search(api, "diffusion models", mode)[:2] == ["69304", "101552"]
    assert "125902" not in search(api, "gpt-3", mode)  # Gemma 3 shares only the "3"
