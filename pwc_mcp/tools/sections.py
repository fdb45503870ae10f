"""`read_paper` by section: the outline of a paper and one section read in signed chunks
(docs/decisions.md#section-ids).

The headings, IDs and bounds are pwc_core/outline.py's, the very rules `pwc paper read
--outline` / `--section` apply to the whole text. A section read makes one upstream read per
call: the first from the byte before the heading (to see that a line starts there), the next
ones from the cursor, which binds the section (ID and level, so its end under the bound content
version) and the scanner's state. The outline is the one call that reads several chunks: every
chunk through the versioned chunk cache, at most MAX_OUTLINE_READS of them.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from typing import Any

from pwc_core.declarations import COMMANDS
from pwc_core.declare import arguments
from pwc_core.errors import HTTPStatusError, UsageError
from pwc_core.outline import (
    MAX_LINE,
    OUTLINE_OR_SECTION,
    Outliner,
    SectionMismatch,
    cut_section,
    mismatch_message,
    open_section,
    outline_payload,
    parse_id,
)
from pwc_core.resolution import canonical_reference
from pwc_mcp.answers.tool_errors import in_tool_words
from pwc_mcp.catalog import CatalogService, Chunk
from pwc_mcp.cursors import CursorState, SectionBound
from pwc_mcp.failures import Failure, Kind
from pwc_mcp.params import to_dests

MAX_OUTLINE_READS = 32  # 2 MiB in 64 KiB chunks
# A section chunk holds at least two whole classified lines, so a line longer than a chunk is
# always one that no rule classifies (pwc_core.outline.MAX_LINE).
MIN_SECTION_LIMIT = 2 * MAX_LINE
CHANGED = "paper changed while it was read; ask for the outline again"  # an outline's paper_changed


@dataclass(frozen=True)
class SectionChunk:
    paper: str
    section: dict[str, Any]  # id, level; title on the first chunk, end on the last
    markdown: str
    truncated: bool
    offset: int
    content_version: str
    next_cursor: str | None


def read(service: CatalogService, params: dict[str, Any]) -> Chunk | SectionChunk | dict[str, Any]:
    """`read_paper`'s three reads (the text, a section, the outline: a payload), its arguments
    converted by the command's declaration."""
    args = arguments(COMMANDS["paper read"], to_dests("read_paper", params))
    reference, cursor = params["paper"], params.get("cursor")
    if args.outline and args.section:
        raise UsageError(OUTLINE_OR_SECTION)
    if args.outline:
        if cursor:
            raise Failure(Kind.INVALID_ARGUMENT, "an outline is one call; omit cursor")
        return outline(service, reference)
    if args.section:
        return read_section(service, reference, args.section, cursor)
    return service.read(reference, cursor)


def outline(service: CatalogService, reference: str) -> dict[str, Any]:
    """The payload of `paper read --outline`, read chunk by chunk (at most 32 reads)."""
    reference = reference.strip()
    state = CursorState(
        reference=reference,
        paper=canonical_reference(service.transport, reference),
        content_version="",
        offset=0,
        limit=service.chunk_limit,
        expires_at=0,  # never signed: an outline has no continuation
    )
    outliner = Outliner()
    reads, scanned, truncated = 0, 0, True
    while truncated and reads < MAX_OUTLINE_READS and not outliner.full:
        body, truncated, following, version = _chunk(service, state, CHANGED)
        reads += 1
        outliner.feed(body, final=not truncated)
        scanned = state.offset + len(body)
        state = replace(state, offset=following, content_version=version)
    payload = outline_payload(state.paper, outliner, complete=not truncated, bytes_read=scanned)
    return {**payload, "content_version": state.content_version}


def read_section(
    service: CatalogService, reference: str, section: str, cursor: str | None
) -> SectionChunk:
    """One chunk of one section: the first from its ID, the next ones from `cursor`."""
    reference = reference.strip()
    section = section.strip()
    info: dict[str, Any]
    if cursor:
        state = service.resume(reference, cursor)
        bound = state.section
        if bound is None:
            raise Failure(
                Kind.INVALID_ARGUMENT,
                "this cursor continues a whole-paper read; pass it without section, or omit "
                "cursor to start the section",
            )
        if bound.id != section:
            raise Failure(
                Kind.INVALID_ARGUMENT,
                f"this cursor continues section {bound.id!r}, not {section!r}; omit cursor to "
                "start that section",
            )
        body, truncated, _, version = _chunk(service, state)
        start, piece, info = state.offset, body, {"id": section, "level": bound.level}
        cut = cut_section(
            piece, level=bound.level, more=truncated, fence=bound.fence, midline=bound.midline
        )
    else:
        _, offset = parse_id(section)  # the parser checked the form already
        paper = canonical_reference(service.transport, reference)
        state = CursorState(
            reference=reference,
            paper=paper,
            content_version="",
            offset=max(offset - 1, 0),  # the byte before says whether a line starts there
            limit=max(service.chunk_limit, MIN_SECTION_LIMIT),
            expires_at=service.cursors.new_expiry(),
        )
        try:
            body, truncated, _, version = _chunk(service, state)
            before, piece = (body[:1], body[1:]) if offset else (b"", body)
            level, title = open_section(section, before, piece)
        except (SectionMismatch, HTTPStatusError) as error:
            if isinstance(error, HTTPStatusError) and error.status not in (400, 416, 422):
                raise
            reason = str(error) if isinstance(error, SectionMismatch) else f"no heading at {offset}"
            said = in_tool_words(mismatch_message(section, reason), "paper read")
            raise Failure(Kind.NOT_FOUND, said) from None
        start, info = offset, {"id": section, "level": level, "title": title}
        cut = cut_section(piece, level=level, more=truncated, first=True)
    next_cursor = None
    if cut.ended:
        info["end"] = start + cut.length
    else:
        bound = SectionBound(section, info["level"], cut.fence, cut.midline)
        following = replace(
            state, content_version=version, offset=start + cut.length, section=bound
        )
        next_cursor = service.cursors.encode(following)
    return SectionChunk(
        paper=state.paper,
        section=info,
        markdown=piece[: cut.length].decode("utf-8"),
        truncated=not cut.ended,
        offset=start,
        content_version=version,
        next_cursor=next_cursor,
    )


def _chunk(
    service: CatalogService, state: CursorState, changed: str | None = None
) -> tuple[bytes, bool, int, str]:
    try:
        return service.raw_chunk(state)
    except Failure as failure:
        if changed and failure.kind is Kind.PAPER_CHANGED:
            raise Failure(Kind.PAPER_CHANGED, changed) from None
        raise


# --- the text a model reads --------------------------------------------------------------


def outline_text(payload: dict[str, Any]) -> str:
    headings = payload.get("outline") or []
    lines = [f"Outline of {payload.get('paper')}: {len(headings)} headings"]
    for heading in headings:
        indent = "  " * (int(heading["level"]) - 1)
        lines.append(f"{indent}- {heading['title'] or '—'} (`{heading['id']}`)")
    if not payload.get("complete"):
        lines.append(f"[outline incomplete: {payload.get('stopped')}]")
    lines.append("[read one section: read_paper with section=<id>]")
    return "\n".join(lines)


def continuation(chunk: Chunk | SectionChunk) -> str:
    """The last line of a truncated read's text: the next call with the cursor's value itself,
    so a client that shows a model only the text can read on (issue #23). Empty at the end."""
    if not chunk.truncated or chunk.next_cursor is None:
        return ""
    section = ""
    if isinstance(chunk, SectionChunk):
        section = f"section={json.dumps(chunk.section['id'], ensure_ascii=False)} and "
    return (
        f"\n\nMore remains: call read_paper again with {section}"
        f"cursor={json.dumps(chunk.next_cursor)}"
    )
