"""The README's "Connect a client" shows exactly the snippets the landing page shows (both from
pwc_mcp/site/connect.py), for the hosted endpoint, and no other copy of them.
Regenerate the block with `python -m pwc_mcp.site.connect readme`."""

from __future__ import annotations

import re

from pwc_mcp.site.connect import HOSTED_ENDPOINT, markdown, snippets
from tests.helpers import ROOT

README = (ROOT / "README.md").read_text()


def section(title: str) -> str:
    start = README.index(f"\n## {title}\n")
    end = README.index("\n## ", start + 1)
    return README[start:end]


def test_the_section_holds_the_generated_block() -> None:
    assert markdown(HOSTED_ENDPOINT) in section("Connect a client")


def test_its_set_up_blocks_are_exactly_the_snippets() -> None:
    """Every fenced block of the section is one of the snippets, in order: no stale extra."""
    blocks = re.findall(r"^```(\w+)\n(.*?)\n```$", section("Connect a client"), re.M | re.S)
    assert blocks == [(s.language, s.text) for s in snippets(HOSTED_ENDPOINT)]


def test_the_readme_names_the_hosted_endpoint_the_snippets_use() -> None:
    assert f"Hosted endpoint: `{HOSTED_ENDPOINT}`." in " ".join(README.split())
