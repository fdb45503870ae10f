"""Cache poisoning, end to end: a filter smuggled into one client's text argument must not let its
cached answer be served to another client that asked for the real filter (issue #14).

Each test runs its own server (a cold cache), over loopback against the sample catalog.
"""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest

from pwc_mcp.app import create_app
from pwc_mcp.sample import RunningCatalog
from pwc_mcp.serving.localserver import Running, serve_in_thread
from tests.helpers.e2e import settings_for, tool_call


@pytest.fixture
def cold(catalog: RunningCatalog) -> Iterator[Running]:
    with serve_in_thread(create_app(settings_for(catalog)), name="pwc-mcp-cold") as running:
        yield running


def call_as_new_client(server: Running, tool: str, arguments: dict) -> dict:
    with httpx.Client(base_url=server.origin, timeout=30) as http:  # its own connection
        return tool_call(http, tool, arguments)["structuredContent"]


def test_a_date_filter_smuggled_into_a_query_does_not_poison_the_filtered_search(
    catalog: RunningCatalog, cold: Running
) -> None:
    attack = {"query": "vision transformer&start_date=2021-01-01"}
    call_as_new_client(cold, "search_papers", attack)
    before = catalog.stats.requests.get("papers/search", 0)
    victim = {"query": "vision transformer", "published_after": "2021-01-01"}
    result = call_as_new_client(cold, "search_papers", victim)
    assert catalog.stats.requests["papers/search"] == before + 1, "served from the attacker's entry"
    published = [item["published"] for item in result["data"]["results"]]
    assert published and all(date >= "2021-01-01" for date in published), published


def test_a_task_filter_smuggled_into_a_search_does_not_poison_the_task_listing(
    catalog: RunningCatalog, cold: Running
) -> None:
    call_as_new_client(cold, "list_benchmarks", {"search": "net&task=image-classification"})
    before = catalog.stats.requests.get("datasets/", 0)
    victim = {"search": "net", "task": "image-classification", "order_by": "name"}
    result = call_as_new_client(cold, "list_benchmarks", victim)
    assert catalog.stats.requests["datasets/"] == before + 1, "served from the attacker's entry"
    assert [item["name"] for item in result["data"]["results"]] == ["ImageNet"]
