"""read_paper for a client that shows a model only the text content (issue #23): every truncated
text ends with the very call that reads on, cursor value included, so a whole paper and a whole
section can be read from the text channel alone."""

from __future__ import annotations

import re
from typing import Any

import pytest
from fastmcp import Client
from mcp.types import TextContent

from pwc_core.outline import outline, section_text
from pwc_mcp.sample import RunningCatalog
from tests.mcp.test_read_paper import stored_markdown
from tests.test_outline import LONG, markdown_of

pytestmark = pytest.mark.anyio
APPENDIX = "appendix-extended-ablation-notes@1729"
# What a model reads at the end of a truncated text; nothing else in the text is parsed.
MORE = re.compile(
    r'\n\nMore remains: call read_paper again with (?:section="(?P<section>[^"]+)" and )?'
    r'cursor="(?P<cursor>[A-Za-z0-9_.-]+)"\Z'
)


async def text_of(client: Client, **arguments: Any) -> str:
    result = await client.call_tool_mcp("read_paper", arguments)
    assert not result.is_error and len(result.content) == 1
    content = result.content[0]
    assert isinstance(content, TextContent)
    return content.text


async def read_by_text(client: Client, paper: str, section: str | None = None) -> list[str]:
    """Follow the text's own instructions to the end; the Markdown of every call."""
    asked = {"paper": paper} if section is None else {"paper": paper, "section": section}
    parts: list[str] = []
    while True:
        text = await text_of(client, **asked)
        more = MORE.search(text)
        if more is None:
            assert "More remains" not in text and "cursor" not in text[-200:]
            return [*parts, text]
        assert more["section"] == section, "a section read says which section goes on"
        parts.append(text[: more.start()])
        asked["cursor"] = more["cursor"]


async def test_a_long_paper_is_read_whole_from_the_text(
    client: Client, sample: RunningCatalog
) -> None:
    parts = await read_by_text(client, "1706.03762")
    assert "".join(parts).encode() == stored_markdown(sample, "1706.03762")
    assert len(parts) >= 4 and all(len(p.encode()) <= 65_536 for p in parts)


async def test_long_sections_are_read_whole_from_the_text(
    client: Client, sample: RunningCatalog
) -> None:
    whole = stored_markdown(sample, "1706.03762")
    parts = await read_by_text(client, "1706.03762", APPENDIX)
    assert "".join(parts).encode() == whole[1729:] and len(parts) >= 4
    with markdown_of(sample, "2010.11929", LONG):  # a long section that is not the last one
        method = outline(LONG.encode())[1]
        assert method.title == "1 Method"
        _, expected = section_text(LONG.encode(), method.id)
        parts = await read_by_text(client, "2010.11929", method.id)
    assert "".join(parts).encode() == expected and len(parts) >= 2


async def test_the_text_gives_the_structured_cursor_itself(client: Client) -> None:
    for arguments in ({}, {"section": APPENDIX}):
        result = await client.call_tool_mcp("read_paper", {"paper": "1706.03762", **arguments})
        content = result.content[0]
        assert isinstance(content, TextContent)
        assert content.text.endswith(f'cursor="{result.structured_content["next_cursor"]}"')
