"""Every generated file is what `make regen` (scripts/regen.py) writes, and the generator rewrites
only the README's marked regions: the prose around them is hand-written."""

from __future__ import annotations

import difflib
from pathlib import Path
from typing import Any

import pytest

from pwc_mcp.site.examples import TOOL_EXAMPLES
from tests.helpers import PACKAGES, ROOT
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
    fields["server"] = "pwc"
    return regen.Served(**(fields | overrides))


PROSE = "Hand-written <!-- generated: counts -->41 tools<!-- end --> prose.\n"
REQUIRED = "".join(f"<!-- generated: {name} -->OLD TEXT<!-- end -->\n" for name in regen.REQUIRED)


def test_the_regions_are_rendered_and_the_prose_around_them_is_kept() -> None:
    readme = regen.rewrite(PROSE + REQUIRED, served())
    prose = readme.splitlines()[0]
    tools = f"{len(TOOL_EXAMPLES)} tools, 4 resource templates, 1 prompts"
    assert prose == f"Hand-written <!-- generated: counts -->{tools}<!-- end --> prose."
    assert "OLD TEXT" not in readme
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
        REQUIRED.replace("<!-- generated: tools -->OLD TEXT<!-- end -->\n", ""),
        REQUIRED + "<!-- generated: tool-count -->21<!-- end -->\n",
    ],
    ids=["missing", "unknown"],
)
def test_a_lost_or_misspelt_region_stops_the_generator(readme: str) -> None:
    with pytest.raises(SystemExit, match="README.md regions"):
        regen.rewrite(readme, served())


def test_the_module_map_names_every_module_of_the_packages() -> None:
    """Walked here on its own: every folder and every module, under its folder."""
    rendered = regen.module_map(served())
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            folder = f"- **`{path.parent.relative_to(ROOT).as_posix()}/`**: "
            assert folder in rendered, path
            if path.name != "__init__.py":
                below = rendered.split(folder, 1)[1].split("\n- ", 1)[0]
                assert f"\n  - `{path.name}`: " in below, path


def test_the_module_map_is_each_rooms_purpose_and_each_modules_opening_sentence(
    tmp_path: Path,
) -> None:
    files = {
        "pwc_core/__init__.py": '"""The core."""',
        "pwc_core/board.py": '"""One board, read whole. Then paged.\n\nMore."""',
        "pwc_cli/main.py": '"""The entry\npoint: parse, run."""',
        "pwc_mcp/__init__.py": '"""The server."""',
        "pwc_mcp/edge/__init__.py": '"""The edge: what a request meets."""',
        "pwc_mcp/edge/guards.py": '"""Guards (v1.2 rules). Pure ASGI."""',
    }
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text + "\n", encoding="utf-8")
    assert regen.module_map(served(), tmp_path).splitlines()[1:] == [
        "- **`pwc_core/`**: The core.",
        "  - `board.py`: One board, read whole.",
        "- **`pwc_cli/`**: (no `__init__.py`)",
        "  - `main.py`: The entry point: parse, run.",
        "- **`pwc_mcp/`**: The server.",
        "- **`pwc_mcp/edge/`**: The edge: what a request meets.",
        "  - `guards.py`: Guards (v1.2 rules).",
    ]
    (tmp_path / "pwc_mcp/edge/quiet.py").write_text("X = 1\n", encoding="utf-8")
    with pytest.raises(SystemExit, match="pwc_mcp/edge/quiet.py has no docstring"):
        regen.module_map(served(), tmp_path)
