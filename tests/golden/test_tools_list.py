"""The public surface, pinned: `tools/list` as a real MCP client reads it over HTTP from the real
application equals tests/golden/tools_list.json (tools sorted by name, pretty-printed), so any
change to a tool's name, description, parameters, output schema or annotations shows in review.

After an intended change, regenerate it and review the diff:

    .venv/bin/python -m tests.golden.test_tools_list
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import anyio
import pytest
from fastmcp import Client
from fastmcp.client.transports import StreamableHttpTransport

from pwc_mcp.app import create_app
from pwc_mcp.config import Settings
from pwc_mcp.localserver import serve_in_thread
from pwc_mcp.sample import RunningCatalog, start_sample_catalog

GOLDEN = Path(__file__).with_name("tools_list.json")


async def tools_list(catalog_url: str) -> list[dict[str, Any]]:
    """Every tool of a real server's `tools/list`, as JSON, sorted by name."""
    with serve_in_thread(create_app(Settings(api_url=catalog_url)), name="pwc-mcp") as running:
        async with Client(StreamableHttpTransport(f"{running.origin}/mcp")) as client:
            result = await client.list_tools_mcp()
    assert not result.next_cursor, "tools/list must fit one page"
    tools = [t.model_dump(mode="json", by_alias=True, exclude_none=True) for t in result.tools]
    return sorted(tools, key=lambda tool: tool["name"])


def render(tools: list[dict[str, Any]]) -> str:
    return json.dumps(tools, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


@pytest.mark.anyio
async def test_tools_list_matches_the_golden_snapshot(sample: RunningCatalog) -> None:
    shown = render(await tools_list(sample.url))
    assert shown == GOLDEN.read_text(encoding="utf-8"), (
        "tools/list changed; if on purpose: .venv/bin/python -m tests.golden.test_tools_list"
    )


def main() -> None:
    with start_sample_catalog() as catalog:
        GOLDEN.write_text(render(anyio.run(tools_list, catalog.url)), encoding="utf-8")
    print(f"wrote {GOLDEN}")


if __name__ == "__main__":
    main()
