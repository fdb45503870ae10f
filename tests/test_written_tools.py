"""Tools are written functions, and FastMCP's private attributes are touched in one place."""

from __future__ import annotations

import re
from pathlib import Path

from pwc_mcp.params import TOOLS

PACKAGE = Path(__file__).resolve().parents[1] / "pwc_mcp"
PRIVATE = re.compile(r"\._(components|mcp_server)\b")


def test_every_tool_is_a_written_function_with_its_own_docstring() -> None:
    sources = "\n".join(p.read_text() for p in (PACKAGE / "tools").glob("*.py"))
    for tool in TOOLS:
        written = re.search(rf'@generated\("{tool}"\)\n    def {tool}\(\*\*params: Any\)', sources)
        assert written, f"{tool} is not a decorated function in pwc_mcp/tools/"
        after = sources[written.end() :]
        assert re.match(r' -> ToolResult:\n        """', after), f"{tool} has no docstring"


def test_private_fastmcp_attributes_are_touched_in_one_function() -> None:
    places = [
        f"{path.relative_to(PACKAGE)}:{number}"
        for path in PACKAGE.rglob("*.py")
        for number, line in enumerate(path.read_text().splitlines(), 1)
        if PRIVATE.search(line)
    ]
    server = (PACKAGE / "server.py").read_text()
    body = server[server.index("def _reach_inside(") :]
    assert places and all(p.startswith("server.py:") for p in places), places
    assert len(PRIVATE.findall(body)) == len(places), "private access outside _reach_inside"
