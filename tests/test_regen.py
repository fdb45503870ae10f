"""Every generated file is what `make regen` (scripts/regen.py) writes, and the generator rewrites
only the README's marked regions: the prose around them is hand-written."""

from __future__ import annotations

import difflib
from typing import Any

import pytest

from pwc_mcp.site.examples import TOOL_EXAMPLES
from tests.helpers.ops import load_script

regen = load_script("regen")


def test_every_generated_file_is_what_make_regen_writes() -> None:
    stale = regen.stale()
    diffs = [
        "".join(
            difflib.unified_diff(
                (regen.ROOT / path).read_text(encoding="utf-8").splitlines(keepends=True)
                if (regen.ROOT / path).is_file()
                else [],
                text.splitlines(keepends=True),
                str(path),
                f"{path} (make regen)",
                n=1,
            )
        )[:2000]
        for path, text in stale.items()
    ]
    if stale:  # pytest.fail: the message alone, not the whole generated text
        pytest.fail("stale; run `make regen` and review the diff:\n" + "\n".join(diffs))


def served(**overrides: Any) -> Any:
    tools = [{"name": name, "inputSchema": {}} for name in sorted(TOOL_EXAMPLES)]
    fields = {"tools": tools, "templates": 4, "prompts": [("find_papers", ["topic"])], "texts": {}}
    return regen.Served(**(fields | overrides))


PROSE = "Hand-written <!-- generated: counts -->41 tools<!-- end --> prose.\n"
REQUIRED = "".join(f"<!-- generated: {name} -->stale<!-- end -->\n" for name in regen.REQUIRED)


def test_the_regions_are_rendered_and_the_prose_around_them_is_kept() -> None:
    readme = regen.rewrite(PROSE + REQUIRED, served())
    prose = readme.splitlines()[0]
    tools = f"{len(TOOL_EXAMPLES)} tools, 4 resource templates, 1 prompts"
    assert prose == f"Hand-written <!-- generated: counts -->{tools}<!-- end --> prose."
    assert "stale" not in readme
    assert "<!-- generated: prompts -->`find_papers(topic)`<!-- end -->" in readme
    assert "| `get_task` | `pwc task --name` | " in readme  # an entity command takes --name
    assert "| `list_tasks` | `pwc task list` | " in readme
    assert "| `read_paper` | `pwc paper read` | " in readme


def test_a_tool_without_examples_stops_the_generator() -> None:
    tools = [{"name": "list_areas", "inputSchema": {}}, *served().tools]
    with pytest.raises(SystemExit, match="pwc_mcp/site/examples.py"):
        regen.rewrite(REQUIRED, served(tools=tools))


@pytest.mark.parametrize(
    "readme",
    [
        REQUIRED.replace("<!-- generated: tools -->stale<!-- end -->\n", ""),
        REQUIRED + "<!-- generated: tool-count -->21<!-- end -->\n",
    ],
    ids=["missing", "unknown"],
)
def test_a_lost_or_misspelt_region_stops_the_generator(readme: str) -> None:
    with pytest.raises(SystemExit, match="README.md regions"):
        regen.rewrite(readme, served())
