"""A tool's values reach the handler typed, as the declaration converts them (issue #25): a list
stays a list (no comma-joined text split again), each value is checked once, and a value of the
wrong JSON type is refused by the schema instead of becoming text. Through a real MCP client
against the sample catalog."""

from __future__ import annotations

import pytest
from fastmcp import Client

from tests.helpers.mcp import call, error_of

pytestmark = pytest.mark.anyio
IMAGENET = {"benchmark": "ImageNet"}


async def test_a_metric_name_with_a_comma_is_one_name(cached_client: Client) -> None:
    # before: `unknown metric(s): val` (the name was joined with commas and split again)
    said = await error_of(
        cached_client, "get_benchmark", **IMAGENET, require_metrics=["Top 1 Accuracy, val"]
    )
    assert "top 1 accuracy, val" in said.casefold() and "metric(s): val" not in said


async def test_a_pareto_objective_with_a_comma_is_one_objective(cached_client: Client) -> None:
    # before: refused as `expected METRIC:higher,METRIC:lower` (split at the comma)
    said = await error_of(
        cached_client,
        "get_benchmark",
        **IMAGENET,
        pareto=["Top 1, Accuracy:higher", "Params:lower"],
    )
    assert "expected METRIC" not in said and "top 1, accuracy" in said.casefold()


async def test_listed_metrics_are_used_as_given(cached_client: Client) -> None:
    data, _ = await call(
        cached_client,
        "get_benchmark",
        **IMAGENET,
        require_metrics=["Top 1 Accuracy", "GFLOPs"],
        pareto=["Top 1 Accuracy:higher", "GFLOPs:lower"],
    )
    assert data["evaluations"] and data["data"]["ordering"]["by"] == "pareto"


async def test_a_list_where_text_belongs_is_refused_by_the_schema(cached_client: Client) -> None:
    # the schema's type check refuses it: no value is ever turned into its Python text
    said = await error_of(
        cached_client, "get_benchmark", **IMAGENET, sort_metric=["Top 1 Accuracy"]
    )
    assert "sort_metric" in said and "['Top 1 Accuracy']" not in said


async def test_a_semantic_refusal_names_the_parameter(cached_client: Client) -> None:
    said = await error_of(cached_client, "get_benchmark", **IMAGENET, pareto=["a:up", "b:lower"])
    assert said.startswith("invalid_argument: pareto") and "--pareto" not in said
