"""Every command is complete: a handler, a view, a tool, examples, and declared upstream routes.

Adding a command and forgetting any of these fails here. The routes check is by observation: every
example of every tool and every `--help` example runs against the sample catalog through the
server's cache (so each answer is checked against its declared shape) over a client that records
the upstream paths. Each path must resolve to a route some command module declares (`ROUTES`,
pwc_core/routes.py), and to the very route the sample catalog served it with, not a broader
pattern: otherwise the cache would give it a guessed TTL and shape. Declared routes that no
example reads are flagged too, so none is dead.
"""

from __future__ import annotations

import contextlib
import io
import re
import secrets
import shlex
from typing import Any
from urllib.parse import unquote

import pytest
from fastmcp import Client

from pwc_cli.main import main
from pwc_cli.views import load_views
from pwc_core.commands import load_all
from pwc_core.declarations import EXAMPLES as HELP_EXAMPLES
from pwc_core.declarations import RESEARCH_COMMANDS
from pwc_core.routes import Route, routes
from pwc_core.transport import CatalogClient
from pwc_mcp.caching.cache import FAMILIES, ROUTES, CachedCatalog, ChunkCache, route
from pwc_mcp.catalog import CatalogService
from pwc_mcp.cursors import CursorCodec
from pwc_mcp.params import TOOL_OF, TOOLS
from pwc_mcp.sample import RunningCatalog
from pwc_mcp.sample.app import match
from pwc_mcp.sample.endpoints import ROUTES as SAMPLE_ROUTES
from pwc_mcp.server import build_server
from pwc_mcp.site.examples import RESOURCE_EXAMPLES, TOOL_EXAMPLES

# Routes that no documented example reaches, each with the CLI line that reads it: papers
# outside the catalog (public metadata by identifier and by title) and a task by numeric ID.
ROUTE_PROBES = (
    "pwc paper info 2501.12948",
    'pwc paper info "Long Short-Term Memory"',
    "pwc task --name 12",
)


class Recording(CatalogClient):
    """A real client that notes every upstream path asked for."""

    def __init__(self, url: str) -> None:
        super().__init__(url)
        self.paths: list[str] = []

    def get(self, path: str, params: Any = None) -> Any:
        self.paths.append(path)
        return super().get(path, params)


@pytest.mark.parametrize("command", RESEARCH_COMMANDS)
def test_every_command_has_its_handler_view_tool_and_examples(command: str) -> None:
    assert command in load_all(), f"pwc {command}: no @handler in pwc_cli/commands"
    assert command in load_views(), f"pwc {command}: no @view in pwc_cli/views"
    assert command in TOOL_OF, f"pwc {command}: no tool in pwc_mcp.params.TOOLS"
    assert TOOL_EXAMPLES.get(TOOL_OF[command]), (
        f"pwc {command}: no example in pwc_mcp/site/examples.py"
    )
    assert HELP_EXAMPLES.get(command), f"pwc {command}: no --help examples in pwc_core/declarations"


def test_every_tool_runs_its_own_command() -> None:
    assert sorted(TOOLS.values()) == sorted(RESEARCH_COMMANDS)


def test_every_declared_family_is_a_cache() -> None:
    assert {declared.family for declared in ROUTES.values()} == set(FAMILIES)
    assert all(label == declared.path for label, declared in ROUTES.items())


def test_a_route_table_is_read_line_by_line_and_a_typo_fails_the_import() -> None:
    table = """
        tasks/{id}          object   taxonomy

        papers/{ref}/read   any      general
    """
    assert routes(table) == (
        Route("tasks/{id}", "object", "taxonomy"),
        Route("papers/{ref}/read", "any", "general"),
    )
    for line in ("tasks/{id} objects taxonomy", "tasks/{id} object", "tasks/ list taxonomy x"):
        with pytest.raises(ValueError, match="not a route"):
            routes(line)


def _template(pattern: str) -> str:
    return re.sub(r"\{[^}]*\}", "{}", pattern)


def _served_as(path: str) -> str:
    """The sample catalog's own route for an upstream path, matched as the sample matches it."""
    segments = [unquote(part) for part in path.split("?")[0].split("/")]
    return next(_template(p) for p, _ in SAMPLE_ROUTES if match(p, segments) is not None)


def _undeclared(paths: list[str]) -> list[str]:
    """Paths whose label is not a declared route, or not the route the catalog served."""
    return sorted(
        {
            path
            for path in paths
            if route(path)[0] not in ROUTES or _template(route(path)[0]) != _served_as(path)
        }
    )


def _tool_paths(sample: RunningCatalog) -> dict[str, list[str]]:
    """Upstream paths per tool example and resource example, through a real MCP client."""
    import anyio

    seen: dict[str, list[str]] = {}

    async def run() -> None:
        recording = Recording(sample.url)
        service = CatalogService(
            CachedCatalog(recording), CursorCodec(secrets.token_bytes(32)), ChunkCache()
        )
        async with Client(build_server(service)) as client:
            for tool, examples in TOOL_EXAMPLES.items():
                for arguments in examples:
                    recording.paths = []
                    result = await client.call_tool_mcp(tool, arguments)
                    assert not result.is_error, (tool, result.content[0].text)
                    seen[f"{tool} {arguments}"] = recording.paths
            for uri in RESOURCE_EXAMPLES.values():
                recording.paths = []
                await client.read_resource(uri)
                seen[uri] = recording.paths
        recording.close()

    anyio.run(run)
    return seen


def _cli_paths(sample: RunningCatalog) -> dict[str, list[str]]:
    """Upstream paths per `--help` example and route probe, through the CLI itself."""
    seen: dict[str, list[str]] = {}
    lines = {line for examples in HELP_EXAMPLES.values() for line in examples} | set(ROUTE_PROBES)
    for line in sorted(lines):
        recording = Recording(sample.url)
        argv = shlex.split(line.split(" > ")[0])[1:]
        out, err = io.StringIO(), io.StringIO()
        try:
            cached = CachedCatalog(recording)  # the server's shape checks, for every route
            code = main(argv, client=cached, stdout=out, stderr=err, tty=False)
        finally:
            recording.close()
        assert code == 0, (line, err.getvalue())
        seen[line] = recording.paths
    return seen


@pytest.fixture(scope="module")
def observed(
    sample: RunningCatalog, tmp_path_factory: pytest.TempPathFactory
) -> dict[str, list[str]]:
    with contextlib.chdir(tmp_path_factory.mktemp("examples")):  # `--chart ptb.svg` writes
        return {**_tool_paths(sample), **_cli_paths(sample)}


def test_every_route_a_command_reads_is_declared(observed: dict[str, list[str]]) -> None:
    missing = {call: bad for call, paths in observed.items() if (bad := _undeclared(paths))}
    assert not missing, f"declare these routes in the command module's ROUTES: {missing}"


def test_every_declared_route_is_read_by_an_example(observed: dict[str, list[str]]) -> None:
    read = {route(path)[0] for paths in observed.values() for path in paths}
    assert set(ROUTES) <= read, f"no example reads {sorted(set(ROUTES) - read)}"
