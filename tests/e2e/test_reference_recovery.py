"""Recovery everywhere (issue #36 item 8), paper references: a reference that is no title, ID
or URL but the exact alias of the paper search ranks first (`resnet`: the method ResNet,
introduced by that paper) suggests the paper by title and ID, in the CLI and through a real MCP
client against the sample catalog on loopback, for every command and tool that takes a paper;
it never selects it, and costs one request."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from fastmcp import Client

from pwc_mcp.sample import RunningCatalog
from pwc_mcp.server import build_server
from tests.helpers.cli import run_cli
from tests.helpers.mcp import error_of, make_service

RESNET = "Deep Residual Learning for Image Recognition (1512.03385)"
# (reference, the method it names, the paper that introduced it, as suggested)
ALIASES = [
    ("resnet", "ResNet", RESNET),
    ("ResNet", "ResNet", RESNET),
    (
        "vision transformer",
        "ViT",
        "An Image is Worth 16x16 Words: Transformers for Image Recognition at Scale (2010.11929)",
    ),
]
PAPER_COMMANDS = [["paper", "info"], ["paper", "read"], ["paper", "evaluations"]]
PAPER_COMMANDS += [["paper", "related"], ["paper", "lineage", "list"]]
PAPER_TOOLS = [
    "get_paper_info",
    "get_paper_evaluations",
    "read_paper",
    "get_related_papers",
    "get_paper_lineage",
]


def suggestion(reference: str, method: str, paper: str) -> str:
    return f"Paper title not found: {reference}; the paper that introduced {method} is {paper}"


@pytest.mark.parametrize(("reference", "method", "paper"), ALIASES)
def test_the_cli_suggests_the_paper_an_alias_names(
    sample: RunningCatalog, reference: str, method: str, paper: str
) -> None:
    sample.stats.reset()
    result = run_cli(sample.url, ["paper", "info", reference])
    assert result.code == 4 and result.out == ""  # suggested, never selected
    assert result.err.startswith(f"pwc: {suggestion(reference, method, paper)}; "), result.err
    assert "closest results" not in result.err
    # the title search, the public-metadata misses, and one method lookup: no more searches
    assert sample.stats.requests.get("papers/search") == 1
    assert [r for r in sample.stats.requests if r.startswith("methods/")] == [
        f"methods/{reference.lower().replace(' ', '-')}"
    ]


@pytest.mark.parametrize("command", PAPER_COMMANDS)
def test_every_command_taking_a_paper_suggests_it(sample: RunningCatalog, command: list[str]):
    result = run_cli(sample.url, [*command, "resnet"])
    assert result.code == 4, result.err
    assert result.err.startswith(f"pwc: {suggestion('resnet', 'ResNet', RESNET)}"), result.err


@pytest.mark.parametrize(
    ("reference", "looked_up"),
    [
        # a method introduced by "Attention Is All You Need", which search ranks second
        ("Multi-Head Attention", True),
        # a method whose introducing paper the catalog lacks; search ranks another first
        ("Layer Normalization", True),
        ("residual learning", True),  # search ranks the ResNet paper first; no such method
        ("Residual Connection", False),  # search ranks nothing: no lookup
        ("https://paperswithcode.co/paper/resnet", False),  # a URL: matched by slug only
    ],
)
def test_only_an_exact_alias_of_the_first_result_is_suggested(
    sample: RunningCatalog, reference: str, looked_up: bool
) -> None:
    sample.stats.reset()
    result = run_cli(sample.url, ["paper", "info", reference])
    assert result.code == 4 and "the paper that introduced" not in result.err, result.err
    assert any(r.startswith("methods/") for r in sample.stats.requests) == looked_up


def test_what_an_exact_reference_resolves_to_is_unchanged(sample: RunningCatalog) -> None:
    # a short name before a colon still resolves, and the title and ID of the suggestion do too
    for reference in ("BERT", "Deep Residual Learning for Image Recognition", "1512.03385"):
        result = run_cli(sample.url, ["paper", "info", reference, "--json"])
        assert result.code == 0, result.err
    assert result.data["title"] == "Deep Residual Learning for Image Recognition"


@pytest.fixture
async def client(sample: RunningCatalog) -> AsyncIterator[Client]:
    async with Client(build_server(make_service(sample.url, cached=False))) as connected:
        yield connected


@pytest.mark.anyio
@pytest.mark.parametrize("tool", PAPER_TOOLS)
async def test_every_tool_taking_a_paper_suggests_it(client: Client, tool: str) -> None:
    text = await error_of(client, tool, paper="resnet")
    assert text.startswith(f"not_found: {suggestion('resnet', 'ResNet', RESNET)}"), text
