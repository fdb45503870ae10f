"""MCP error categories follow the exception's type, never its wording (issue #15).

Every class of `pwc_core.errors` is listed here with its CLI exit code and how the MCP boundary
says it; a new class without a line here fails, and so does a category that a message's wording
could change.
"""

from __future__ import annotations

import ast
import inspect
import string
from collections.abc import AsyncIterator, Callable, Iterator
from typing import Any

import pytest
from fastmcp import Client
from hypothesis import example, given
from hypothesis import strategies as st
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

import pwc_core.errors as errors
from pwc_core.references import parse_reference
from pwc_mcp.answers.tool_errors import tool_error
from pwc_mcp.server import build_server
from pwc_mcp.serving.localserver import serve_in_thread
from tests.helpers import PACKAGES, ROOT
from tests.helpers.mcp import error_of, make_service

GENERIC = {
    "upstream_error": "upstream_error: the Papers With Code catalog request failed",
    "upstream_timeout": "upstream_timeout: the Papers With Code catalog timed out",
}

# class name → (CLI exit code, MCP category, whether the class's own message is shown)
EXPECTED: dict[str, tuple[int, str, bool]] = {
    "PwcError": (1, "upstream_error", False),
    "TransportError": (3, "upstream_error", False),
    "CatalogUnreachable": (3, "upstream_error", False),  # never the catalog's URL to a client
    "UpstreamTimeout": (3, "upstream_timeout", False),
    "HTTPStatusError": (3, "upstream_error", False),  # a 5xx; other statuses below
    "ResponseError": (4, "upstream_error", False),  # a condition nobody named: never shown
    "NotFoundError": (4, "not_found", True),
    "UpstreamShapeError": (4, "upstream_error", True),
    "UnconfirmedFilter": (4, "upstream_error", True),
    "ResponseTooLarge": (4, "upstream_error", True),
    "UndecodableResponse": (4, "upstream_error", False),
    "RefusedRequest": (4, "invalid_argument", True),
    "UsageError": (2, "invalid_argument", True),
    "ArgumentError": (2, "invalid_argument", True),
    "AmbiguousError": (2, "ambiguous", True),
}
FACTORIES: dict[str, Callable[[str], BaseException]] = {
    "UpstreamTimeout": lambda _: errors.UpstreamTimeout(),
    "CatalogUnreachable": lambda reason: errors.CatalogUnreachable(reason, "http://10.0.0.5/api"),
    "HTTPStatusError": lambda message: errors.HTTPStatusError(503, message),
    "ArgumentError": lambda message: errors.ArgumentError("limit", "--limit", message),
}


def error_classes() -> dict[str, type[errors.PwcError]]:
    return {
        name: cls
        for name, cls in inspect.getmembers(errors, inspect.isclass)
        if issubclass(cls, errors.PwcError) and cls.__module__ == errors.__name__
    }


def build(name: str, message: str) -> BaseException:
    return FACTORIES.get(name, getattr(errors, name))(message)


def said(name: str, message: str) -> str:
    return str(tool_error(build(name, message)))


def test_every_error_class_has_its_exit_code_and_category() -> None:
    classes = error_classes()
    assert sorted(classes) == sorted(EXPECTED), "a class of pwc_core.errors needs its line here"
    for name, cls in classes.items():
        exit_code, category, _ = EXPECTED[name]
        assert (name, cls.exit_code) == (name, exit_code)
        assert said(name, "some reason").startswith(f"{category}: "), name


@pytest.mark.parametrize(
    ("status", "category"),
    [
        (404, "not_found"),
        (400, "invalid_argument"),
        (422, "invalid_argument"),
        (429, "rate_limited"),
    ],
)
def test_an_upstream_status_has_its_category(status: int, category: str) -> None:
    text = str(tool_error(errors.HTTPStatusError(status, '{"detail": "limit must be an integer"}')))
    assert text.startswith(f"{category}: ")


MESSAGES = st.text(alphabet=string.ascii_letters + " ", min_size=1, max_size=60).filter(str.strip)


@given(name=st.sampled_from(sorted(EXPECTED)), message=MESSAGES)
# the wordings the old message tables keyed on, on classes they no longer decide
@example(name="ResponseError", message="Paper reference cannot be empty")
@example(name="ResponseError", message="API returned invalid JSON")
@example(name="ResponseError", message="Papers API did not confirm the requested filters")
@example(name="RefusedRequest", message="a paper reference is needed")
@example(name="UnconfirmedFilter", message="the catalog ignored the task filter")
@example(name="UpstreamShapeError", message="the catalog sent a list where an object belongs")
def test_rewording_a_message_cannot_change_its_category(name: str, message: str) -> None:
    _, category, shown = EXPECTED[name]
    error = build(name, message)
    text = str(tool_error(error))
    assert text == (f"{category}: {error}" if shown else GENERIC[category])


def test_an_empty_paper_reference_is_refused_as_an_invalid_argument() -> None:
    with pytest.raises(errors.RefusedRequest) as refused:
        parse_reference("   ")
    assert refused.value.exit_code == 4
    assert str(tool_error(refused.value)) == "invalid_argument: Paper reference cannot be empty"


def _bare_raises(package: str) -> Iterator[str]:
    """`ResponseError(...)` / `PwcError(...)` constructed anywhere: a condition left unnamed."""
    for path in sorted((ROOT / package).rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name | ast.Attribute)
                and (node.func.id if isinstance(node.func, ast.Name) else node.func.attr)
                in ("ResponseError", "PwcError")
            ):
                yield f"{path.relative_to(ROOT)}:{node.lineno}"


def test_every_failure_is_raised_as_its_own_type() -> None:
    assert [line for package in PACKAGES for line in _bare_raises(package)] == []


# --- end to end: a real MCP client, a catalog on loopback that ignores filters ---------------


@pytest.fixture(scope="module")
def careless() -> Iterator[str]:
    """A catalog that answers every listing with one row and confirms no filter."""

    async def answer(request: Request) -> JSONResponse:
        return JSONResponse({"count": 1, "results": [{"id": "1", "title": "t"}]})

    app = Starlette(routes=[Route("/{rest:path}", answer)])
    with serve_in_thread(app, name="careless-catalog", lifespan="off") as running:
        yield running.origin + "/api/v1"


@pytest.fixture
async def client(careless: str) -> AsyncIterator[Client[Any]]:
    async with Client(build_server(make_service(careless))) as connected:
        yield connected


@pytest.mark.anyio
@pytest.mark.parametrize(
    ("arguments", "refusal"),
    [
        ({"task": "image-classification"}, "the requested catalog filters"),
        ({"authors": ["Ada Lovelace"]}, "the requested author filters"),
    ],
)
async def test_an_unconfirmed_filter_reaches_the_client_in_our_words(
    client: Client[Any], arguments: dict[str, Any], refusal: str
) -> None:
    text = await error_of(client, "list_papers", **arguments)
    assert text.startswith(f"upstream_error: Papers API did not confirm {refusal}; ")
