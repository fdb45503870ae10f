"""Failures typed once (issue #35): every failure the server says is a `Failure` of one kind,
mapped to a tool error where it is raised and to a JSON-RPC error by its kind alone; no module
writes a `<kind>:` prefix by hand or reads one back from a message."""

from __future__ import annotations

import ast
import re
from collections.abc import AsyncIterator
from typing import Any

import pytest
from fastmcp import Client, FastMCP
from fastmcp.exceptions import ToolError
from fastmcp.server.providers import LocalProvider
from hypothesis import example, given
from hypothesis import strategies as st
from mcp import MCPError

from pwc_mcp.answers.tool_errors import tool_error
from pwc_mcp.edge.jsonrpc import INTERNAL_ERROR, INVALID_PARAMS
from pwc_mcp.failures import Failure, Kind
from pwc_mcp.sample import RunningCatalog
from pwc_mcp.server import ToolCalls
from tests.helpers import ROOT
from tests.helpers.mcp import error_of
from tests.mcp.test_error_types import EXPECTED, build

MESSAGES = st.text(min_size=1, max_size=60).filter(str.strip)

pytestmark = pytest.mark.anyio

PREFIX = re.compile(rf"({'|'.join(Kind)}):")


def hand_prefixes(source: str, name: str = "<source>") -> list[str]:
    """`file:line` of each `<kind>:` written as text: a string (or the literal start of an
    f-string) that begins with one, whether it builds a message or is matched against one."""
    lines = set()
    for node in ast.walk(ast.parse(source, name)):
        if isinstance(node, ast.JoinedStr):
            first = node.values[0] if node.values else None
            text = first.value if isinstance(first, ast.Constant) else ""
        elif isinstance(node, ast.Constant):
            text = node.value
        else:
            continue
        if isinstance(text, str) and PREFIX.match(text):
            lines.add(node.lineno)
    return [f"{name}:{line}" for line in sorted(lines)]


def test_the_finder_sees_a_prefix_written_or_read_by_hand() -> None:
    source = (
        'raise ToolError("not_found: no such paper")\n'
        'raise ResourceError(f"invalid_argument: {name} must not be blank")\n'
        'if message.startswith("upstream_error:"):\n    pass\n'
        'reason = message.removeprefix("not_found:")\n'
        'CHANGED = "paper_changed: ask again"\n'
        'fine = f"{Kind.NOT_FOUND}: said from the kind"\n'
        'also_fine = "the catalog has no not_found: here"\n'
        'raise Failure(Kind.NOT_FOUND, "no such paper")\n'
    )
    assert hand_prefixes(source) == [f"<source>:{line}" for line in (1, 2, 3, 5, 6)]


def test_no_module_writes_or_reads_a_kind_prefix_by_hand() -> None:
    """The kind is the category, decided where the failure is raised: a message prefix written
    by hand can drift from it, and one parsed back makes a rewording change the category."""
    found = [
        line
        for path in sorted((ROOT / "pwc_mcp").rglob("*.py"))
        for line in hand_prefixes(path.read_text("utf-8"), str(path.relative_to(ROOT)))
    ]
    assert found == []


@given(
    kind=st.sampled_from(list(Kind)),
    message=MESSAGES,
)
@example(kind=Kind.UPSTREAM_ERROR, message="not_found: reads like another kind")
@example(kind=Kind.NOT_FOUND, message="invalid_argument: reads like another kind")
def test_a_failure_is_its_kind_whatever_its_words(kind: Kind, message: str) -> None:
    failure = Failure(kind, message)
    assert isinstance(failure, ToolError)  # the framework says it as an isError tool result
    assert (failure.kind, failure.message, str(failure)) == (kind, message, f"{kind}: {message}")


@given(name=st.sampled_from(sorted(EXPECTED)), message=MESSAGES)
@example(name="NotFoundError", message="invalid_argument: reads like a refused argument")
@example(name="UpstreamShapeError", message="not_found: reads like a missing record")
@example(name="ArgumentError", message="upstream_timeout: reads like a slow catalog")
def test_rewording_a_core_error_keeps_its_kind(name: str, message: str) -> None:
    """The kind of each pwc_core error is its type's (test_error_types.EXPECTED), whatever its
    message says, even one that begins like another kind."""
    assert tool_error(build(name, message)).kind is Kind(EXPECTED[name][1])


# --- resources and prompts: the JSON-RPC error follows the kind ------------------------------

MISLEADING = {kind: f"{Kind.NOT_FOUND}: reads like a missing record" for kind in Kind}
MISLEADING[Kind.NOT_FOUND] = f"{Kind.INVALID_ARGUMENT}: reads like a refused argument"


def _failing_server() -> FastMCP:
    """A server whose one resource template and one prompt fail with the kind they are given,
    in words that read like another kind."""
    provider = LocalProvider()

    @provider.resource("test://fail/{kind}")
    def fail(kind: str) -> str:
        raise Failure(Kind(kind), MISLEADING[Kind(kind)])

    @provider.prompt(name="fail")
    def fail_prompt(kind: str) -> str:
        raise Failure(Kind(kind), MISLEADING[Kind(kind)])

    return FastMCP("failures", providers=[provider], middleware=[ToolCalls()])


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
async def failing() -> AsyncIterator[Client[Any]]:
    async with Client(_failing_server()) as client:
        yield client


def _resource_error(kind: Kind, uri: str) -> tuple[int, str, Any]:
    """The error of a resource read that fails with `kind`: the 2026-07-28 resource-not-found
    for a record the catalog lacks, invalid params for a refused argument, else an internal
    error in the tools' words."""
    words = MISLEADING[kind]
    if kind is Kind.NOT_FOUND:
        return INVALID_PARAMS, f"resource not found: {words}", {"uri": uri}
    code = INVALID_PARAMS if kind is Kind.INVALID_ARGUMENT else INTERNAL_ERROR
    return code, f"{kind}: {words}", None


@pytest.mark.parametrize("kind", list(Kind))
async def test_a_resource_read_fails_by_its_kind_not_its_words(
    failing: Client[Any], kind: Kind
) -> None:
    uri = f"test://fail/{kind}"
    with pytest.raises(MCPError) as raised:
        await failing.read_resource(uri)
    error = raised.value.error
    assert (error.code, error.message, error.data) == _resource_error(kind, uri)


@pytest.mark.parametrize("kind", list(Kind))
async def test_a_prompt_fails_by_its_kind_not_its_words(failing: Client[Any], kind: Kind) -> None:
    with pytest.raises(MCPError) as raised:
        await failing.get_prompt("fail", {"kind": str(kind)})
    words = MISLEADING[kind]
    expected = (
        (INVALID_PARAMS, f"invalid params: {words}")
        if kind is Kind.INVALID_ARGUMENT
        else (INTERNAL_ERROR, f"{kind}: {words}")
    )
    assert (raised.value.error.code, raised.value.error.message) == expected


# --- read_paper's outline: a change under it is said in the outline's words ------------------


async def test_a_paper_changing_under_an_outline_says_ask_again(
    client: Client[Any], sample: RunningCatalog
) -> None:
    """The catalog's 409 is the reader's `paper_changed` failure; the outline, which keeps no
    cursor, re-says it by its kind (never by its text) as the outline to ask for again."""
    sample.faults.fail(status=409, path_prefix="research/papers/1706.03762/read")
    text = await error_of(client, "read_paper", paper="1706.03762", outline=True)
    assert text == "paper_changed: paper changed while it was read; ask for the outline again"


def test_the_prefixes_named_in_the_readme_are_the_kinds() -> None:
    """README's list of error prefixes is the enum's, both ways."""
    readme = (ROOT / "README.md").read_text("utf-8")
    listed = readme.split("Errors are `isError` results", 1)[1].split("Every `invalid_argument:`")[
        0
    ]
    assert set(re.findall(r"`([a-z_]+):`", listed)) == {str(kind) for kind in Kind}
