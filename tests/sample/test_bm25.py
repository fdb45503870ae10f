"""The sample search's text analysis and BM25 scoring, without a server."""

from __future__ import annotations

import pytest

from pwc_mcp.sample.bm25 import Bm25, name_key, tokenize


def test_bm25_prefers_the_rarer_term_and_the_shorter_field() -> None:
    index = Bm25([{"t": ["rare", "common"]}, {"t": ["common"]}, {"t": ["common"] + ["pad"] * 9}])
    assert index.idf("rare") > index.idf("common") > 0 == index.idf("absent")
    weights = {"t": 1.0}
    scores = [index.score(i, ["rare", "common"], weights) for i in range(3)]
    assert scores[0] > scores[1] > scores[2] > 0
    assert index.matched(1, ["rare", "common"], weights) == {"common"}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("GPT-3", ["gpt3", "gpt", "3"]),
        ("ResNets", ["resnet"]),
        ("Qwen2.5", ["qwen25", "qwen", "2", "5"]),
        ("HuggingFace's Transformers", ["huggingface", "huggingface", "transformer"]),
        ("16x16 Words", ["16x16", "16", "16", "word"]),
    ],
)
def test_tokens_keep_compounds_and_their_parts(text: str, expected: list[str]) -> None:
    assert tokenize(text) == expected


def test_names_compare_without_case_spacing_hyphens_or_plurals() -> None:
    assert name_key("GPT-3") == name_key("gpt 3") == name_key("GPT3")
    assert name_key("Vision Transformers") == name_key("vision transformer")
    assert name_key("ResNet") != name_key("RoBERTa")
