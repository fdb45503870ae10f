"""The agent skill over MCP (skills over MCP, SEP-2640): the real app under uvicorn lists
`skill://pwc/SKILL.md` with the skill's name, description and `text/markdown`, and reading it
through the official SDK client gives exactly the file `pwc skills add` installs."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
import yaml
from mcp import Client as SDKClient
from mcp_types import TextResourceContents

from pwc_cli.main import main
from pwc_core import skill
from pwc_mcp.serving.localserver import Running

pytestmark = pytest.mark.anyio


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.mark.parametrize("mode", ["legacy", "2026-07-28"])
async def test_the_served_skill_is_the_installed_file(
    server: Running, mode: str, tmp_path: Path
) -> None:
    out, err = io.StringIO(), io.StringIO()
    assert main(["skills", "add", "--dest", str(tmp_path)], stdout=out, stderr=err) == 0, err
    installed = (tmp_path / "pwc" / "SKILL.md").read_text(encoding="utf-8")
    async with SDKClient(f"{server.origin}/mcp", mode=mode) as client:
        listed = {str(r.uri): r for r in (await client.list_resources()).resources}
        read = await client.read_resource(skill.URI)
    entry = listed[skill.URI]
    front = yaml.safe_load(installed.split("---\n")[1])
    assert (entry.name, entry.description) == (front["name"], front["description"])
    assert entry.mime_type == "text/markdown"
    [content] = read.contents
    assert isinstance(content, TextResourceContents) and content.mime_type == "text/markdown"
    assert content.text == installed
