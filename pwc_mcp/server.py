"""Builds the one FastMCP instance from the domain providers and middleware."""

from __future__ import annotations

import contextlib
import functools
import time
from collections.abc import Awaitable, Callable, Iterable, Iterator, Sequence
from contextvars import ContextVar
from typing import Any

from fastmcp import FastMCP
from fastmcp.exceptions import NotFoundError, ValidationError
from fastmcp.prompts import Prompt, PromptResult
from fastmcp.resources import Resource, ResourceResult, ResourceTemplate
from fastmcp.server.middleware import CallNext, Middleware, MiddlewareContext
from fastmcp.server.providers import LocalProvider
from fastmcp.tools import FunctionTool, Tool, ToolResult
from mcp import MCPError
from mcp.server.caching import CacheHint
from mcp.types import CallToolRequestParams, GetPromptRequestParams, ReadResourceRequestParams
from pydantic import ValidationError as PydanticValidationError

from pwc_core import deadline
from pwc_mcp import __version__, ui
from pwc_mcp.answers import staleness
from pwc_mcp.answers.models import compact_schema
from pwc_mcp.caching.cache import CachedCatalog
from pwc_mcp.caching.memo import ResultMemo
from pwc_mcp.caching.upstream import Account, charged_to
from pwc_mcp.catalog import CatalogService
from pwc_mcp.config import CALL_TIMEOUT  # the default of PWC_MCP_CALL_TIMEOUT
from pwc_mcp.edge.jsonrpc import INTERNAL_ERROR, INVALID_PARAMS
from pwc_mcp.edge.rate_limits import RATE_LIMITED, RateLimiter, request_client, upstream_refusal
from pwc_mcp.edge.telemetry import LIMITED, TOOL_ERROR, note_outcome
from pwc_mcp.failures import Failure, Kind
from pwc_mcp.params import refusal
from pwc_mcp.tools import LeanTool, benchmarks, completion, papers, prompts, skills, taxonomy

HOUR_MS = 3_600_000
INSTRUCTIONS = """\
Papers With Code: a read-only catalog of ML papers, tasks, methods, benchmarks and leaderboards.
- search_papers finds papers by free text; list_* tools filter exactly (by slug, name or ID) and page.
- Identify records by slug or ID from earlier results; papers also by arXiv ID, URL or exact title.
- Dates are YYYY-MM-DD. list tools return at most 25 rows per page; follow next_page.
- Each result has structuredContent (`data`, the full catalog payload, and beside it only what
  `data` lacks: numbers, counts, pages, cursors, rows named by ID) and a short Markdown text.
- "Official implementation" means code the catalog designates as the authors' own.
- Fields beside `data` that are unknown or empty are omitted; ranks are task-scoped.
- Beyond lists: get_benchmark timeline=true (SOTA over time), get_paper_evaluations
  against_sota=true (gap to today's best), read_paper outline/section, get_paper_info cite.
"""


ToolCheck = Callable[[Any], Awaitable[None]]
# Set by the ASGI fast path (pwc_mcp.fast_path) when it ran a call's checks itself and then
# handed the call on: ADMITTED, or what a check raised. The checks never run twice for one call.
ADMITTED = "admitted"
PRECHECKED: ContextVar[str | Exception | None] = ContextVar("pwc_prechecked", default=None)


class ToolCalls(Middleware):
    """One middleware layer for every tool call (each layer costs every call): runs the
    admission checks (e.g. the semantic-search limit), runs the call under its deadline (or
    hands out the remembered result: pwc_mcp.caching.memo), then turns argument errors into one short
    `invalid_argument:` line instead of a pydantic dump.

    The deadline is a contextvar budget (`pwc_core.deadline`): the tool's worker thread inherits
    it (anyio copies the context) and every catalog request gets min(its timeout, time left).
    So is the call's account (pwc_mcp.caching.upstream): each catalog request the call causes
    is charged to its client's catalog budget, and a call that finds the budget spent ends with
    the rate-limit answer (docs/decisions.md, "An upstream budget per client").
    """

    def __init__(
        self,
        checks: Sequence[ToolCheck] = (),
        *,
        call_timeout: float = CALL_TIMEOUT,
        clock: deadline.Clock = time.monotonic,
        memo: ResultMemo | None = None,
        limiter: RateLimiter | None = None,
    ) -> None:
        self.checks = tuple(checks)
        self.memo = memo
        self.call_timeout = call_timeout
        self.clock = clock
        self.limiter = limiter

    @contextlib.contextmanager
    def charged(self, refuse: Callable[[str], Exception]) -> Iterator[None]:
        """The block's catalog requests charged to the request's client (none in memory or over
        stdio); once one is refused, `refuse(words)` is raised, whatever the block made of the
        refusal (a row without its snippet, a handler's error)."""
        client = None if self.limiter is None else request_client(self.limiter)
        if self.limiter is None or client is None:
            yield
            return
        account = Account(client.key, functools.partial(self.limiter.upstream.charge, client))
        try:
            with charged_to(account):
                yield
        finally:
            if account.refused is not None:
                raise refuse(upstream_refusal(account.refused)) from None

    async def admit(self, message: Any) -> None:
        """The admission checks of one call (a Failure when one refuses it); `message` is the
        call's `CallToolRequestParams`, or anything with its `name` and `arguments`."""
        for check in self.checks:
            await check(message)

    async def on_call_tool(
        self,
        context: MiddlewareContext[CallToolRequestParams],
        call_next: CallNext[CallToolRequestParams, ToolResult],
    ) -> ToolResult:
        try:
            return await self._call_tool(context, call_next)
        except Exception as error:  # the ops line and /metrics say how it ended (a 200 anyway)
            limited = isinstance(error, Failure) and error.kind is Kind.RATE_LIMITED
            note_outcome(LIMITED if limited else TOOL_ERROR)
            raise

    async def _call_tool(
        self,
        context: MiddlewareContext[CallToolRequestParams],
        call_next: CallNext[CallToolRequestParams, ToolResult],
    ) -> ToolResult:
        prechecked = PRECHECKED.get()
        if isinstance(prechecked, Exception):
            raise prechecked
        if prechecked is None:
            await self.admit(context.message)
        try:
            with (
                deadline.within(self.call_timeout, self.clock),
                self.charged(functools.partial(Failure, Kind.RATE_LIMITED)),
            ):
                if self.memo is None:
                    return await call_next(context)
                message = context.message
                key = self.memo.key(message.name, message.arguments)
                return await self.memo.result(key, lambda: call_next(context))
        except ValidationError as error:
            cause = error.__cause__
            if isinstance(cause, PydanticValidationError):
                raise refusal(cause, context.message.name) from None
            raise Failure(Kind.INVALID_ARGUMENT, "invalid arguments") from None

    async def on_read_resource(
        self,
        context: MiddlewareContext[ReadResourceRequestParams],
        call_next: CallNext[ReadResourceRequestParams, ResourceResult],
    ) -> ResourceResult:
        """A caller's mistake is -32602, never -32603: an unknown or unmatched URI and a record
        the catalog does not hold are the resource-not-found error (-32602 with ``data.uri``,
        2026-07-28 and the SDK's own), an argument the tools refuse is invalid params. Only
        upstream failures stay internal errors, in the tools' words (`read_error`)."""
        uri = str(context.message.uri)
        # one call of the catalog, like a tool call: its additions held to its share
        call = self.memo.catalog.reading() if self.memo else contextlib.nullcontext()
        try:

            def refuse(words: str) -> MCPError:
                return MCPError(RATE_LIMITED, str(Failure(Kind.RATE_LIMITED, words)))

            with deadline.within(self.call_timeout, self.clock), self.charged(refuse), call:
                return await call_next(context)
        except NotFoundError:
            raise resource_not_found(uri, "no pwc:// resource template matches it") from None
        except Failure as failure:
            raise read_error(failure, uri) from None

    async def on_get_prompt(
        self,
        context: MiddlewareContext[GetPromptRequestParams],
        call_next: CallNext[GetPromptRequestParams, PromptResult],
    ) -> PromptResult:
        """Unknown prompt, missing or refused argument: -32602 in one line that never echoes
        input (`prompt_error`)."""
        try:
            return await call_next(context)
        except Failure as failure:
            raise prompt_error(failure) from None
        except NotFoundError:
            raise MCPError(
                INVALID_PARAMS, "invalid params: unknown prompt; prompts/list names them"
            ) from None
        except ValidationError:
            raise MCPError(
                INVALID_PARAMS, "invalid params: a required argument is missing; see prompts/list"
            ) from None


def tool_calls(mcp: FastMCP) -> ToolCalls | None:
    """The server's tool-call layer (its checks and memo), if it has one."""
    layers = [m for m in mcp.middleware if isinstance(m, ToolCalls)]
    return layers[0] if layers else None


def result_memo(mcp: FastMCP) -> ResultMemo | None:
    """The server's remembered tool results (for /metrics), if it has them."""
    layer = tool_calls(mcp)
    return layer.memo if layer else None


def resource_not_found(uri: str, reason: str) -> MCPError:
    return MCPError(INVALID_PARAMS, f"resource not found: {reason}", {"uri": uri})


def read_error(failure: Failure, uri: str) -> MCPError:
    """A resource read's failure, by its kind: a record the catalog does not hold is resource
    not found, a refused argument invalid params, anything else an internal error; each in
    the words the tools use."""
    if failure.kind is Kind.NOT_FOUND:
        return resource_not_found(uri, failure.message.strip())
    code = INVALID_PARAMS if failure.kind is Kind.INVALID_ARGUMENT else INTERNAL_ERROR
    return MCPError(code, str(failure))


def prompt_error(failure: Failure) -> MCPError:
    """A prompt's failure, by its kind: a refused argument is invalid params, in the words of
    every prompts/get refusal (`invalid params: ...`); anything else an internal error."""
    if failure.kind is Kind.INVALID_ARGUMENT:
        return MCPError(INVALID_PARAMS, f"invalid params: {failure.message}")
    return MCPError(INTERNAL_ERROR, str(failure))


def build_server(
    catalog: CatalogService,
    checks: Sequence[ToolCheck] = (),
    *,
    call_timeout: float = CALL_TIMEOUT,
    limiter: RateLimiter | None = None,
) -> FastMCP:
    tool_providers = [papers.build(catalog), taxonomy.build(catalog), benchmarks.build(catalog)]
    transport = catalog.transport
    memo = (
        ResultMemo(transport, label=staleness.labelled)
        if isinstance(transport, CachedCatalog)
        else None
    )
    mcp = FastMCP(
        "pwc",
        version=__version__,
        instructions=INSTRUCTIONS,
        website_url="https://paperswithcode.co",
        on_duplicate="error",
        mask_error_details=True,
        middleware=[ToolCalls(checks, call_timeout=call_timeout, memo=memo, limiter=limiter)],
    )
    mcp.add_completion_handler(completion.Completer(catalog, call_timeout=call_timeout))
    _reach_inside(mcp, tool_providers, [prompts.provider, ui.build(), skills.build()])
    return mcp


def _held_by_one(mcp: FastMCP, components: Iterable[Any]) -> None:
    """Every component in the server's own provider. FastMCP looks a tool up in every provider
    at once, a task each, on every call (and every list): six providers cost six task spawns
    per call, one provider one (about 8 % of a cold call's CPU on a 2-core machine)."""
    for component in components:
        if isinstance(component, Tool):
            mcp.add_tool(component)
        elif isinstance(component, ResourceTemplate):
            mcp.add_template(component)
        elif isinstance(component, Resource):
            mcp.add_resource(component)
        elif isinstance(component, Prompt):
            mcp.add_prompt(component)
        else:
            raise TypeError(f"a provider holds a {type(component).__name__}")


def _reach_inside(
    mcp: FastMCP, providers: Sequence[LocalProvider], others: Sequence[LocalProvider]
) -> None:
    """The one place that touches FastMCP's private attributes, for what it has no API for.

    * Each provider's tools: the generated input schemas are folded (compact_schema: same
      constraints, fewer bytes); validation still runs on the generated signature, so the
      advertised and the enforced rules agree. Each is listed without an empty `_meta`
      (pwc_mcp.tools.LeanTool).
    * The low-level SDK server: its title (no constructor argument in FastMCP 4) and the
      per-method cache hints (SEP-2549): catalogs for an hour, resource reads five minutes.
    * Every provider's components, the tools' and the `others`', moved into the server's own
      provider (`_held_by_one`).
    """
    for provider in providers:
        for component in provider._components.values():
            if isinstance(component, Tool):
                component.parameters = compact_schema(component.parameters)
            if type(component) is FunctionTool:
                component.__class__ = LeanTool
    low_level = mcp._mcp_server
    low_level.title = "Papers With Code"
    hints = low_level.cache_hints
    for method in (
        "server/discover",
        "tools/list",
        "resources/templates/list",
        "resources/list",
        "prompts/list",
    ):
        hints[method] = CacheHint(ttl_ms=HOUR_MS, scope="public")
    hints["resources/read"] = CacheHint(ttl_ms=300_000, scope="public")
    _held_by_one(mcp, [c for p in [*providers, *others] for c in p._components.values()])
