"""A tool's name is written once: in its declaration (`tool=` in pwc_core/declarations), which
its function's name repeats for the reader. The tool modules never write it again as text: the
function receives its declared name (pwc_mcp.tools.generated) and hands that on."""

from __future__ import annotations

import ast
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from fastmcp.tools import ToolResult

import pwc_mcp.tools
from pwc_mcp.params import TOOLS
from pwc_mcp.tools import generated

MODULES = sorted(Path(pwc_mcp.tools.__file__).parent.glob("*.py"))


def named_as_text(source: str) -> Counter[str]:
    """How often each tool name appears as a string literal in the source."""
    return Counter(
        node.value
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Constant) and node.value in TOOLS
    )


@pytest.mark.parametrize("module", MODULES, ids=[path.stem for path in MODULES])
def test_no_tool_module_writes_a_tool_name_as_text_twice(module: Path) -> None:
    repeated = {name: n for name, n in named_as_text(module.read_text("utf-8")).items() if n > 1}
    assert not repeated, f"{module.name} writes these tool names more than once: {repeated}"


def test_the_count_sees_a_repeated_name() -> None:
    source = '@generated("list_tasks")\ndef f(**p): return payload_of(c, "list_tasks", p)\n'
    assert named_as_text(source) == Counter({"list_tasks": 2})


def test_a_tool_function_is_its_declared_tool_and_receives_that_name() -> None:
    seen: list[str] = []

    def list_tasks(name: str, /, **params: Any) -> ToolResult:
        seen.append(name)
        return ToolResult(content=[])

    tool = generated(list_tasks)
    assert tool.__name__ == "list_tasks"
    tool(query="vision")
    assert seen == ["list_tasks"]


def test_a_function_no_declaration_names_is_refused_at_import() -> None:
    def list_areas(name: str, /, **params: Any) -> ToolResult:
        return ToolResult(content=[])

    with pytest.raises(ValueError, match=r"list_areas.*tool=.*pwc_core/declarations"):
        generated(list_areas)
