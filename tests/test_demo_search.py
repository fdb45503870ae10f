"""Every search, recent and trending example in the README and in pwc_mcp/site/examples.py gives a
non-empty, sensible answer on the sample catalog (what a newcomer's first `make demo` shows)."""

from __future__ import annotations

import json
import re
import shlex
from datetime import timedelta
from typing import Any

import pytest
from fastmcp import Client

from pwc_mcp.sample import RunningCatalog
from pwc_mcp.server import build_server
from pwc_mcp.site.examples import TOOL_EXAMPLES
from tests.helpers import ROOT
from tests.helpers.cli import run_cli
from tests.helpers.mcp import make_service

README = (ROOT / "README.md").read_text()
# `pwc search|paper recent|paper trending ...` in code blocks and in the demo's `try:` line;
# table cells are left out (they quote usage errors such as `pwc search ""`).
CLI_EXAMPLES = sorted(
    {
        re.sub(r"\s+#.*$", "", match.group(1)).strip()
        for line in README.splitlines()
        if not line.startswith("|")
        for match in [
            re.search(r"(?:^|\s|/)pwc ((?:search|paper recent|paper trending)\b.*)$", line)
        ]
        if match
    }
)
# The paper a README search must show first (a new example needs its line here).
FIRST: dict[str, str] = {
    "search transformer": "48213",  # Attention Is All You Need: "the Transformer"
    "search transformer --limit 3": "48213",
    'search "vision transformer" --mode keyword --start-date 2021-01-01 '
    "--has-official-implementation": "78035",  # Swin; ViT (2020) is before the start date
    "paper recent --limit 5": "128410",
    "paper trending --max-age-days 365 --min-velocity 0.5": "121877",
}
TOOLS = ("search_papers", "list_recent_papers", "list_trending_papers")
TOOL_FIRST = {"search_papers": "101552"}  # Scalable Diffusion Models with Transformers
TOOL_CALLS = [(tool, example) for tool in TOOLS for example in TOOL_EXAMPLES[tool]]


def test_every_readme_example_is_in_the_table() -> None:
    assert len(CLI_EXAMPLES) >= 4 and set(CLI_EXAMPLES) == set(FIRST)


@pytest.mark.parametrize("line", CLI_EXAMPLES)
def test_cli_example_shows_its_paper_first(line: str, sample: RunningCatalog) -> None:
    result = run_cli(sample.url, [*shlex.split(line), "--json"])
    assert result.code == 0, result.err
    data = json.loads(result.out)["data"]
    rows = data["results"] if isinstance(data, dict) else data
    assert rows and rows[0]["id"] == FIRST[line], [r["title"] for r in rows]


@pytest.mark.anyio
@pytest.mark.parametrize(("tool", "example"), TOOL_CALLS)
async def test_tool_example_returns_papers(
    tool: str, example: dict[str, Any], sample: RunningCatalog
) -> None:
    async with Client(build_server(make_service(sample.url))) as client:
        result = await client.call_tool_mcp(tool, example)
    assert not result.is_error, result.content[0].text
    data = result.structured_content["data"]
    items = data["results"] if isinstance(data, dict) else data
    assert items, f"{tool} {example} returned nothing"
    if tool in TOOL_FIRST:
        assert items[0]["id"] == TOOL_FIRST[tool], [i["title"] for i in items]
    if "max_age_days" in example:  # the window is counted back from the sample's "today"
        oldest = sample.store.as_of - timedelta(days=example["max_age_days"])
        assert all(item["published"] >= oldest.isoformat() for item in items)
