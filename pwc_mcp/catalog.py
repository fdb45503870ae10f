"""The server's view of the catalog: CLI handlers run in-process through the shared cached
transport, paper references resolved to one canonical ID, Markdown read in signed chunks.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from typing import Any

from pwc_core.commands import Answer
from pwc_core.commands import Catalog as Transport
from pwc_core.commands import answer as run_handler
from pwc_core.declarations import COMMANDS, RESEARCH_COMMANDS
from pwc_core.declare import arguments
from pwc_core.errors import (
    HTTPStatusError,
    NotFoundError,
    UpstreamShapeError,
    UsageError,
)
from pwc_core.resolution import OutsideCatalog, canonical_reference, outside_catalog, require_paper
from pwc_core.transport import paper_segment
from pwc_mcp.answers.tool_errors import tool_error
from pwc_mcp.cursors import CONTENT_VERSION, CursorCodec, CursorError, CursorState
from pwc_mcp.failures import Failure, Kind

CHUNK_LIMIT = 65_536
# Commands whose paper reference the server resolves first: every command with a `paper`
# argument, read off the declarations so that a new one cannot be left out.
PAPER_COMMANDS = frozenset(
    command for command in RESEARCH_COMMANDS if "paper" in COMMANDS[command].by_dest
)


@dataclass(frozen=True)
class Chunk:
    paper: str
    markdown: str
    truncated: bool
    offset: int
    content_version: str
    next_cursor: str | None


class CatalogService:
    """Everything a tool needs; one per server process, shared by every tool call."""

    def __init__(
        self,
        transport: Transport,
        cursors: CursorCodec,
        chunks: Any | None = None,
        *,
        chunk_limit: int = CHUNK_LIMIT,
    ) -> None:
        self.transport = transport
        self.cursors = cursors
        self.chunks = chunks
        self.chunk_limit = chunk_limit

    # --- handlers ------------------------------------------------------------------------

    def run(self, command: str, values: dict[str, Any]) -> Any:
        """The CLI handler's JSON payload for these values (keyed by parser dest); a refused
        value or a missing record is said with the tool's parameter names."""
        return self.answer(command, values).payload

    def answer(self, command: str, values: dict[str, Any]) -> Answer:
        """`run`, with what the handler resolved on the way (a leaderboard's selection: its
        page size and its metric names in the board's spelling, for the tool's text and chart)."""
        args = None
        try:
            args = arguments(COMMANDS[command], values)
            if command in PAPER_COMMANDS:
                try:
                    args.paper = canonical_reference(self.transport, args.paper)
                except OutsideCatalog as outside:
                    if command == "paper info":  # metadata is the answer; others need the catalog
                        return Answer(outside_catalog(outside.metadata))
                    raise
            return run_handler(args, self.transport)
        except (UsageError, NotFoundError) as error:
            raise tool_error(error, command, args) from error

    # --- Markdown chunks -----------------------------------------------------------------

    def read(self, reference: str, cursor: str | None) -> Chunk:
        reference = reference.strip()
        if cursor:
            state = self.resume(reference, cursor)
            if state.section is not None:
                raise Failure(
                    Kind.INVALID_ARGUMENT,
                    f"this cursor continues a section; pass section={state.section.id!r} "
                    "with it, or omit cursor to read from the beginning",
                )
        else:
            paper = canonical_reference(self.transport, reference)
            state = CursorState(
                reference=reference,
                paper=paper,
                content_version="",
                offset=0,
                limit=self.chunk_limit,
                expires_at=self.cursors.new_expiry(),
            )
        return self._read_chunk(reference, state)

    def resume(self, reference: str, cursor: str) -> CursorState:
        """The verified state of a continuation cursor for `reference` (or another name of the
        same paper); every refusal is an `invalid_argument` Failure."""
        try:
            return self.cursors.decode(cursor, reference)
        except CursorError as error:
            if error.kind != "mismatch" or error.state is None:
                raise Failure(Kind.INVALID_ARGUMENT, str(error)) from None
            if canonical_reference(self.transport, reference) != error.state.paper:
                raise Failure(
                    Kind.INVALID_ARGUMENT,
                    "continuation cursor belongs to a different paper; omit cursor to start "
                    "reading this paper from the beginning",
                ) from None
            return error.state

    def raw_chunk(self, state: CursorState) -> tuple[bytes, bool, int, str]:
        """(body, truncated, next offset, content version) of one chunk: from the versioned
        chunk cache, else one upstream read (pwc_mcp/tools/sections.py reads through this too)."""
        # Chunks are cached as UTF-8 bytes, the unit the cache's byte ceiling counts: a str of
        # CJK or emoji text takes several times its UTF-8 size in memory.
        key = (state.paper, state.content_version, state.offset, state.limit)
        cached = self.chunks.get(repr(key)) if self.chunks and state.content_version else None
        if cached is not None and not _continues(cached, state):
            cached = None  # a borrowed chunk passes the very check a fetched one does
        if cached is None:
            try:
                cached = self._fetch_chunk(state)
            except Exception as error:  # a chunk kept past its TTL, if the catalog failed
                kept = self.chunks.stale(repr(key), error) if self.chunks is not None else None
                if kept is None or not _continues(kept, state):
                    raise
                return kept
            if self.chunks is not None:
                stored = (state.paper, cached[3], state.offset, state.limit)
                self.chunks.set(repr(stored), cached, len(cached[0]))
        return cached

    def _read_chunk(self, reference: str, state: CursorState) -> Chunk:
        body, truncated, next_offset, version = self.raw_chunk(state)
        next_cursor = None
        if truncated:
            next_cursor = self.cursors.encode(
                CursorState(
                    reference=reference,
                    paper=state.paper,
                    content_version=version,
                    offset=next_offset,
                    limit=state.limit,
                    expires_at=state.expires_at,
                )
            )
        return Chunk(
            state.paper, body.decode("utf-8"), truncated, state.offset, version, next_cursor
        )

    def _fetch_chunk(self, state: CursorState) -> tuple[bytes, bool, int, str]:
        params = {
            "offset": state.offset,
            "limit": state.limit,
            "content_version": state.content_version or None,
        }
        path = f"research/papers/{paper_segment(state.paper)}/read"
        try:
            reply = self.transport.get(path, params)
        except HTTPStatusError as error:
            if error.status == 409:
                raise Failure(
                    Kind.PAPER_CHANGED,
                    "paper changed; restart reading from the beginning (omit cursor)",
                ) from None
            if error.status == 404:
                require_paper(self.transport, state.paper)
                raise Failure(
                    Kind.NO_MARKDOWN, "no stored Markdown is available for this paper"
                ) from None
            raise
        headers = reply.headers
        version = headers.get("x-pwc-content-version", "")
        truncated = headers.get("x-pwc-truncated")
        next_offset = headers.get("x-pwc-next-offset")
        if (
            not CONTENT_VERSION.fullmatch(version)
            or truncated not in ("0", "1")
            or (state.content_version and version != state.content_version)
            or (truncated == "1") != (next_offset is not None)
        ):
            raise UpstreamShapeError("Papers API returned an invalid Markdown chunk")
        try:
            reply.body.decode("utf-8")  # validated once, before anything is cached
        except UnicodeDecodeError:
            raise UpstreamShapeError("Papers API returned an invalid Markdown chunk") from None
        following = 0
        if truncated == "1":
            if not str(next_offset).isdigit() or int(str(next_offset)) <= state.offset:
                raise UpstreamShapeError("Papers API Markdown offset did not advance")
            following = int(str(next_offset))
            if following != state.offset + len(reply.body):
                raise UpstreamShapeError("Papers API returned an invalid Markdown chunk")
        return reply.body, truncated == "1", following, version


def _continues(chunk: tuple[bytes, bool, int, str], state: CursorState) -> bool:
    """A cached chunk is the one `state` asks for: its version, and a next offset right after
    its body (as `_fetch_chunk` checks a fetched one); a shared cache's entry may be neither."""
    body, truncated, following, version = chunk
    return version == state.content_version and following == (
        state.offset + len(body) if truncated else 0
    )


class Readiness:
    """Cached catalog readiness for /health: never blocks a request on the upstream."""

    def __init__(
        self,
        probe: Any,
        *,
        clock: Any = time.monotonic,
        ok_every: float = 30.0,
        retry_every: float = 5.0,
    ) -> None:
        self._probe = probe
        self._clock = clock
        self._ok_every = ok_every
        self._retry_every = retry_every
        # None until the first probe ends: /health says "starting", never a readiness it has
        # not seen (a fresh process against a dead catalog is not ok).
        self.ready: bool | None = None
        self._due = 0.0
        self._lock = threading.Lock()
        self._running = False
        self._first = threading.Event()

    def wait_first(self, timeout: float) -> bool | None:
        """Wait at most ``timeout`` seconds for the first probe to end (start-up only)."""
        self._first.wait(timeout)
        return self.ready

    def poll(self) -> bool | None:
        """Current state (None: no probe has ended yet); starts a background probe when one is
        due (never waits for it)."""
        with self._lock:
            start = not self._running and self._clock() >= self._due
            if start:
                self._running = True
        if start:
            threading.Thread(target=self._run, name="pwc-readiness", daemon=True).start()
        return self.ready

    def _run(self) -> None:
        ok = False
        try:
            ok = bool(self._probe())
        except Exception:  # any failure means "not ready", and the probe must never wedge
            ok = False
        finally:
            with self._lock:
                self.ready = ok
                self._due = self._clock() + (self._ok_every if ok else self._retry_every)
                self._running = False
            self._first.set()
