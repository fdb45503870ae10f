"""Tools are written functions, and FastMCP's private attributes are touched in one place. Read
from the served tools and the modules' syntax trees, not from their formatting."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from fastmcp import Client

from pwc_mcp.sample import RunningCatalog
from pwc_mcp.server import build_server
from tests.helpers import PACKAGES, ROOT
from tests.helpers.mcp import make_service

TOOLS_DIR = ROOT / "pwc_mcp" / "tools"
SERVER = ROOT / "pwc_mcp" / "server.py"
PRIVATE = {"_components", "_mcp_server"}  # FastMCP internals, as attributes or getattr names
FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)


def tree(path: Path) -> ast.Module:
    return ast.parse(path.read_text("utf-8"), str(path))


def written_docstrings() -> dict[str, list[str]]:
    """Function name -> the docstrings of every function of that name in pwc_mcp/tools/."""
    found: dict[str, list[str]] = {}
    for path in sorted(TOOLS_DIR.glob("*.py")):
        for node in ast.walk(tree(path)):
            if isinstance(node, FUNCTIONS):
                found.setdefault(node.name, []).append(ast.get_docstring(node) or "")
    return found


@pytest.mark.anyio
async def test_every_tool_is_a_written_function_whose_docstring_is_its_description(
    sample: RunningCatalog,
) -> None:
    written = written_docstrings()
    async with Client(build_server(make_service(sample.url))) as client:
        tools = await client.list_tools()
    assert tools
    for tool in tools:
        assert len(written.get(tool.name, [])) == 1, f"{tool.name}: one function in pwc_mcp/tools/"
        assert written[tool.name][0], f"{tool.name} has no docstring"
        assert tool.description == written[tool.name][0], tool.name


def private_uses(node: ast.AST) -> int:
    return sum(
        (isinstance(n, ast.Attribute) and n.attr in PRIVATE)
        or (isinstance(n, ast.Constant) and n.value in PRIVATE)
        for n in ast.walk(node)
    )


def test_private_fastmcp_attributes_are_touched_in_one_function() -> None:
    modules = [path for package in PACKAGES for path in sorted((ROOT / package).rglob("*.py"))]
    uses = {path.relative_to(ROOT): n for path in modules if (n := private_uses(tree(path)))}
    functions = [n for n in ast.walk(tree(SERVER)) if isinstance(n, FUNCTIONS)]
    (reach,) = [function for function in functions if function.name == "_reach_inside"]
    assert list(uses) == [SERVER.relative_to(ROOT)], uses
    assert private_uses(reach) == uses[SERVER.relative_to(ROOT)], "private access elsewhere"
