"""Every accepted paper reference form, parsed without network access; one module resolves
them against the catalog."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from pwc_core import resolution
from pwc_core.errors import ResponseError, UsageError
from pwc_core.references import parse_reference
from tests.helpers import PACKAGES


@pytest.mark.parametrize(
    ("raw", "identifier"),
    [
        ("1706.03762", "1706.03762"),
        ("1706.03762v7", "1706.03762v7"),
        ("2401.12345", "2401.12345"),
        ("math.GT/0309136", "math.GT/0309136"),
        ("hep-th/9711200v2", "hep-th/9711200v2"),
        ("904512", "904512"),
        ("arxiv:1706.03762", "1706.03762"),
        ("arXiv:math.GT/0309136", "math.GT/0309136"),
        ("https://arxiv.org/abs/1706.03762", "1706.03762"),
        ("https://arxiv.org/abs/1706.03762v5", "1706.03762"),
        ("https://arxiv.org/pdf/1706.03762v2.pdf", "1706.03762"),
        ("http://www.arxiv.org/abs/math.GT/0309136", "math.GT/0309136"),
        ("https://huggingface.co/papers/1706.03762", "1706.03762"),
        ("https://paperswithcode.co/paper/1706.03762", "1706.03762"),
        ("https://paperswithcode.co/paper/904512", "904512"),
    ],
)
def test_identifiers(raw: str, identifier: str) -> None:
    assert parse_reference(raw).identifier == identifier


def test_papers_with_code_slug_is_kept_for_title_matching() -> None:
    parsed = parse_reference("https://paperswithcode.co/paper/attention-is-all-you-need")
    assert parsed.identifier is None and parsed.slug == "attention-is-all-you-need"


def test_titles_are_not_identifiers() -> None:
    parsed = parse_reference("  Attention Is All You Need ")
    assert parsed.identifier is None and parsed.text == "Attention Is All You Need"


@pytest.mark.parametrize(
    "url",
    [
        "https://openreview.net/forum?id=abc",
        "http://192.168.1.10/paper/1706.03762",
        "http://localhost:8080/abs/1706.03762",
        "ftp://arxiv.org/abs/1706.03762",
        "https://arxiv.org/list/cs.LG",
    ],
)
def test_unsupported_urls_are_refused_without_fetching(url: str) -> None:
    with pytest.raises(UsageError, match="Paper URL not supported"):
        parse_reference(url)


def test_bad_input() -> None:
    with pytest.raises(ResponseError, match="Paper reference cannot be empty"):
        parse_reference(" \t ")
    with pytest.raises(UsageError, match="too long"):
        parse_reference("x" * 501)
    with pytest.raises(UsageError, match="control characters"):
        parse_reference("Attention\x00Is")


# Resolution against the catalog: the public-metadata fallback, title search and hop bound.
RESOLUTION_PRIMITIVES = {
    "identifier_fallback",
    "public_metadata",
    "Hops",
    "resolve_title",
    "search_titles",
    "resolve_or_metadata",
}


def test_one_module_resolves_paper_references() -> None:
    """The CLI's handlers and the MCP server resolve a reference through pwc_core.resolution's
    entry points (resolve_in_catalog, about_paper, canonical_reference, require_paper), never by
    composing its primitives themselves: one path, so their behaviours cannot drift apart."""
    root = Path(resolution.__file__).resolve().parents[1]
    users = []
    for path in sorted(p for package in PACKAGES for p in (root / package).rglob("*.py")):
        if path.name == "resolution.py" and path.parent.name == "pwc_core":
            continue
        tree = ast.parse(path.read_text())
        names = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
        names |= {
            alias.name
            for node in ast.walk(tree)
            if isinstance(node, ast.ImportFrom)
            for alias in node.names
        }
        if names & RESOLUTION_PRIMITIVES:
            users.append(f"{path.relative_to(root)}: {sorted(names & RESOLUTION_PRIMITIVES)}")
    assert users == []
