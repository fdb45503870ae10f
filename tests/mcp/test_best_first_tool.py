"""The tools project the CLI's ordering and counts (issue #16): get_benchmark's first
evaluation is the state of the art of the benchmark's main task scope, and empty results carry
count 0 and say 0. Through a real MCP cached_client against the sample catalog."""

from __future__ import annotations

import pytest
from fastmcp import Client

from tests.helpers.mcp import call

pytestmark = pytest.mark.anyio


async def test_get_benchmark_puts_the_state_of_the_art_first(cached_client: Client) -> None:
    data, text = await call(cached_client, "get_benchmark", benchmark="ImageNet")
    first = data["data"]["results"][0]
    # before: CLIP ViT-L/14@336px (zero-shot), rank 1 of Zero-Shot Image Classification
    assert (first["model_name"], first["rank_scopes"][0]["task_name"]) == (
        "ViT-H/14",
        "Image Classification",
    )
    scopes = data["data"]["task_scopes"]
    assert [(s["task_name"], s["main"]) for s in scopes][0] == ("Image Classification", True)
    # the zero-shot CLIP row is main-scope rank 27: not on the first page of 20 at all, but
    # named once as the best of its own scope (issue #36)
    zero_shot = "CLIP ViT-L/14@336px (zero-shot)"
    assert "- ViT-H/14" in text and f"- {zero_shot}" not in text
    assert (
        "Best in Zero-Shot Image Classification (Top 1 Accuracy, higher is better; 2 rows): "
        f"{zero_shot}, " in text
    )


async def test_get_paper_evaluations_best_first(cached_client: Client) -> None:
    data, _ = await call(cached_client, "get_paper_evaluations", paper="2103.00020")
    rows = data["data"]["results"]
    # CLIP's ImageNet rows: its main-scope rows (Image Classification) before zero-shot ones
    imagenet = [r["rank_scopes"][0]["task_name"] for r in rows if r["dataset_name"] == "ImageNet"]
    assert imagenet == sorted(imagenet, key=lambda name: name != imagenet[0])
    assert data["data"]["task_scopes"][0]["main"] is True


@pytest.mark.parametrize(
    ("tool", "arguments", "label"),
    [
        ("list_tasks", {"search": "zzzq"}, "tasks"),
        ("list_methods", {"search": "zzzq"}, "methods"),
        ("list_benchmarks", {"search": "zzzq"}, "benchmarks"),
        ("list_benchmarks", {"area": "Audio"}, "benchmarks"),
    ],
)
async def test_empty_results_say_zero(
    cached_client: Client, tool: str, arguments: dict, label: str
) -> None:
    # before: "Found None tasks." and no count; list_benchmarks area Audio: "Area not found"
    data, text = await call(cached_client, tool, **arguments)
    assert data["count"] == 0
    assert "None" not in text and "0" in text
