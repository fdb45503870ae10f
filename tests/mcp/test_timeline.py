"""get_benchmark with `timeline` (README "SOTA over time"): the CLI's `data.timeline` beside the
page of rows, sent once (issue #26), a text that lists every record, and clear `invalid_argument`
refusals. Through a real MCP client against the sample catalog."""

from __future__ import annotations

import pytest
from fastmcp import Client

from pwc_core.values import MAX_METRIC_NAME
from tests.helpers.mcp import call, error_of

METRIC_REQUEST = MAX_METRIC_NAME + len(":higher")  # a name and its stated direction

pytestmark = pytest.mark.anyio

PTB = "Penn Treebank (Word Level)"


async def test_penn_treebank_perplexity_year_by_year(cached_client: Client) -> None:
    data, text = await call(cached_client, "get_benchmark", benchmark=PTB, timeline=True)
    timeline = data["data"]["timeline"]
    assert "timeline" not in data, "the CLI's payload holds it: not twice"
    assert (timeline["metric"], timeline["direction"], timeline["complete"]) == (
        "Test perplexity",
        "lower",
        True,
    )
    assert [(r["date"][:4], r["value"]) for r in timeline["records"]] == [
        ("2014", 78.4),
        ("2015", 73.4),
        ("2016", 65.4),
        ("2016", 62.4),
        ("2017", 57.3),
        ("2017", 54.44),
        ("2019", 35.76),
        ("2020", 20.5),
    ]
    assert len(data["data"]["results"]) == 13  # the page of rows stays alongside
    lines = text.splitlines()
    start = lines.index(
        "SOTA over time: 8 records of Test perplexity (lower is better) among 13 rows reporting it."
    )
    assert lines[start + 1 :] == [
        "- 2014-09-08: 78.4 · LSTM (large, regularized) · Recurrent Neural Network "
        "Regularization (arXiv 1409.2329) · 66M params · open",
        "- 2015-12-16: 73.4 (5 better) · Variational LSTM (large, MC dropout) · A Theoretically "
        "Grounded Application of Dropout in Recurrent Neural Networks (arXiv 1512.05287) · 66M "
        "params · open",
        "- 2016-07-12: 65.4 (8 better) · Variational RHN + weight tying · Recurrent Highway "
        "Networks (arXiv 1607.03474) · 23M params · open",
        "- 2016-11-05: 62.4 (3 better) · NAS Cell (54M) · Neural Architecture Search with "
        "Reinforcement Learning (arXiv 1611.01578) · 54M params",
        "- 2017-08-07: 57.3 (5.1 better) · AWD-LSTM · Regularizing and Optimizing LSTM Language "
        "Models (arXiv 1708.02182) · 24M params · open",
        "- 2017-11-10: 54.44 (2.86 better) · AWD-LSTM-MoS + finetune · Breaking the Softmax "
        "Bottleneck: A High-Rank RNN Language Model (arXiv 1711.03953) · 22M params · open",
        "- 2019-02-14: 35.76 (18.68 better) · GPT-2 1.5B (zero-shot) · Language Models are "
        "Unsupervised Multitask Learners (ID 54766) · 1.54B params · open",
        "- 2020-05-28: 20.5 (15.26 better) · GPT-3 175B (zero-shot) · Language Models are "
        "Few-Shot Learners (arXiv 2005.14165) · 175B params · closed",
    ]


async def test_the_best_open_model_under_1b_on_imagenet(cached_client: Client) -> None:
    data, text = await call(
        cached_client,
        "get_benchmark",
        benchmark="ImageNet",
        timeline=True,
        is_open=True,
        max_parameters=1_000_000_000,
        metric="top1",
    )
    records = data["data"]["timeline"]["records"]
    assert [(r["model_name"], r["value"]) for r in records] == [
        ("ResNet-152 (10-crop)", 78.57),
        ("EfficientNet-B7", 84.3),
        ("ViT-L/16", 87.76),
    ]
    assert data["data"]["timeline"]["metric"] == "Top 1 Accuracy"
    assert "- 2020-10-22: 87.76 (3.46 better) · ViT-L/16 · An Image is Worth 16x16 Words" in text


async def test_no_timeline_unless_asked(cached_client: Client) -> None:
    data, text = await call(cached_client, "get_benchmark", benchmark=PTB)
    assert "timeline" not in data and "timeline" not in data["data"]
    assert "SOTA over time" not in text


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (
            {"timeline": True, "sort_metric": "Test perplexity"},
            "invalid_argument: timeline cannot be combined with sort_metric",
        ),
        (
            {"timeline": True, "pareto": ["Test perplexity:lower", "Validation perplexity:lower"]},
            "invalid_argument: timeline cannot be combined with pareto",
        ),
        (
            {"metric": "Test perplexity"},
            "invalid_argument: metric is only valid with timeline: true",
        ),
        (
            {"timeline": True, "metric": "bleu"},
            'invalid_argument: unknown metric(s): metric "bleu"; available metrics: Test '
            "perplexity, Validation perplexity",
        ),
        ({"timeline": True, "metric": "x" * (METRIC_REQUEST + 1)}, "invalid_argument: metric"),
    ],
)
async def test_refusals_name_the_parameters(
    cached_client: Client, arguments: dict[str, object], message: str
) -> None:
    assert (await error_of(cached_client, "get_benchmark", benchmark=PTB, **arguments)).startswith(
        message
    )


async def test_the_parameters_are_listed(cached_client: Client) -> None:
    tool = next(t for t in await cached_client.list_tools() if t.name == "get_benchmark")
    properties = tool.input_schema["properties"]
    assert properties["timeline"]["type"] == "boolean"
    assert (properties["metric"]["type"], properties["metric"]["maxLength"]) == (
        "string",
        METRIC_REQUEST,
    )
    assert "chart" in (tool.output_schema or {})["properties"]  # its timeline: data.timeline
