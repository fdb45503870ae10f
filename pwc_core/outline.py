"""The headings of a paper's Markdown and where each section ends: one module for the CLI (which
has the whole text) and the server (which reads it in chunks), so both agree on IDs and bounds
(docs/decisions.md#section-ids).

Rules, on UTF-8 bytes (every offset is a byte offset):
- A heading is an ATX line: at most 3 spaces, 1-6 `#`, then a space, a tab or the line's end;
  decided by the line's start alone. Setext headings are not recognised.
- A fenced code block opens with at most 3 spaces and 3+ backticks or tildes (a backtick
  fence's info string has no backtick) and closes with a run of the same character at least as
  long and nothing but blanks after it; an unclosed fence runs to the end. Headings inside are
  text. A line longer than MAX_LINE bytes never opens or closes a fence.
- A section runs from its heading to the next heading of the same or a higher level (fewer
  `#`), or to the end of the text.
- A section ID is `<slug>@<byte offset>`: the offset says where to read, the slug (from the
  title) is verified against the heading found there.
"""

from __future__ import annotations

import argparse
import re
import unicodedata
from dataclasses import dataclass
from typing import Any

from pwc_core.wording import Option, Words, reason_of

MAX_LINE = 4096  # bytes of a line that are classified; a longer line's title is cut
MAX_TITLE = 200  # characters of a title in an outline
MAX_SLUG = 40  # characters of the slug in an ID
# Characters of a title that its slug is made from: NFKD expands one character to at most 18,
# so a slug costs the same bounded work however long or expansive the title (issue #24).
SLUG_SOURCE = 4 * MAX_SLUG
MAX_ENTRIES = 256  # headings in one outline
MAX_OFFSET_DIGITS = 19
MAX_ID = MAX_SLUG + 1 + MAX_OFFSET_DIGITS

_ATX = re.compile(rb" {0,3}(#{1,6})(?=[ \t\r]|$)")
_ATX_PREFIX = re.compile(rb" {0,3}(#{1,6})[ \t\r]")  # decided even when the line goes on
_OPEN = re.compile(rb" {0,3}(`{3,}|~{3,})(.*)", re.S)
_CLOSE = re.compile(rb" {0,3}(`{3,}|~{3,})[ \t]*\r?")
_CLOSING_HASHES = re.compile(r"(?:^|[ \t]+)#+[ \t]*$")
_ID = re.compile(rf"([^\s@]{{1,{MAX_SLUG}}})@(0|[1-9]\d{{0,{MAX_OFFSET_DIGITS - 1}}})")
FENCE = re.compile(r"(?:[`~][1-9]\d{0,3})?")  # a scanner's fence state: "" or "`3", "~4", ...
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u200b-\u200f\u2028-\u202e\u2066-\u2069]+")
_SPACE = re.compile(r"\s+")

# `--outline` in the CLI, `outline: true` in a tool
OUTLINE = Option("--outline", True, cli="--outline")
OUTLINE_OR_SECTION = Words("{} and {} cannot be combined", Option("--outline"), Option("--section"))


class SectionMismatch(ValueError):
    """The ID names no heading of this text (a changed paper, or a made-up ID)."""


@dataclass(frozen=True)
class Heading:
    level: int
    title: str
    id: str
    offset: int

    def as_dict(self) -> dict[str, Any]:
        return {"level": self.level, "title": self.title, "id": self.id, "offset": self.offset}


# --- titles, slugs and IDs ----------------------------------------------------------------


def title_of(line: bytes) -> str:
    """The text of a heading line (its first MAX_LINE bytes) after the `#`s: closing `#`s
    dropped, one clean line."""
    line = line[:MAX_LINE]
    found = _ATX.match(line)
    text = line[found.end() if found else 0 :].decode("utf-8", "ignore")
    text = text.strip(" \t\r")
    if text.endswith("#"):  # the only way the pattern can match; a 4 KiB title costs one scan less
        text = _CLOSING_HASHES.sub("", text)
    return _SPACE.sub(" ", _CONTROL.sub(" ", text)).strip()


def shown_title(title: str) -> str:
    return title if len(title) <= MAX_TITLE else title[: MAX_TITLE - 1].rstrip() + "…"


def slug(title: str) -> str:
    """Lower-case letters and digits (accents dropped) joined by `-`, at most MAX_SLUG chars,
    from the title's first SLUG_SOURCE characters."""
    out: list[str] = []
    gap = False
    for char in unicodedata.normalize("NFKD", title[:SLUG_SOURCE]).casefold():
        if len(out) > MAX_SLUG:  # the cut below needs one character past MAX_SLUG, no more
            break
        if unicodedata.combining(char):
            continue
        if char.isalnum():
            if gap and out:
                out.append("-")
            out.append(char)
            gap = False
        else:
            gap = True
    text = "".join(out)
    if len(text) > MAX_SLUG:
        cut = text[:MAX_SLUG]
        if text[MAX_SLUG] != "-" and "-" in cut:
            cut = cut.rsplit("-", 1)[0]
        text = cut.strip("-")
    return text or "section"


def section_id(title: str, offset: int) -> str:
    return f"{slug(title)}@{offset}"


def parse_id(text: str) -> tuple[str, int]:
    """(slug, offset) of a section ID; ValueError for anything else."""
    found = _ID.fullmatch(text.strip()) if isinstance(text, str) else None
    if not found:
        raise ValueError(
            Words("section must be SLUG@OFFSET as listed by {}, e.g. 4-results@1390", OUTLINE)
        )
    return found[1], int(found[2])


@dataclass(frozen=True)
class SectionId:
    """The `--section` value: a section ID, checked for its form (the text checks the rest)."""

    max_length: int = MAX_ID
    max_items = None
    __name__ = "section ID"

    def __call__(self, text: str) -> str:
        value = str(text).strip()
        try:
            parse_id(value)
        except ValueError as error:
            raise argparse.ArgumentTypeError(reason_of(error)) from None
        return value

    def from_json(self, value: str) -> str:
        return self(value)


# --- lines ---------------------------------------------------------------------------------


def heading_level(line: bytes, complete: bool = True) -> int | None:
    """The level of an ATX heading line; for a line whose end is not seen yet (`complete`
    false), only when its start already decides it."""
    found = (_ATX if complete else _ATX_PREFIX).match(line)
    return len(found[1]) if found else None


def step_fence(fence: str, line: bytes) -> str:
    """The fence state after one whole line (without its newline)."""
    if len(line) > MAX_LINE:
        return fence
    if fence:
        found = _CLOSE.fullmatch(line)
        if found and found[1][:1] == fence[0].encode() and len(found[1]) >= int(fence[1:]):
            return ""
        return fence
    found = _OPEN.match(line)
    if not found or len(found[1]) > 9999:
        return ""
    if found[1][:1] == b"`" and b"`" in found[2]:
        return ""  # inline code, not a fence
    return f"{found[1][:1].decode()}{len(found[1])}"


class Outliner:
    """Headings of a text fed in pieces (offsets continue across pieces)."""

    def __init__(self) -> None:
        self.headings: list[Heading] = []
        self.full = False  # MAX_ENTRIES reached: the outline stops there
        self._fence = ""
        self._start = 0  # offset of the pending line
        self._pending = bytearray()  # its first MAX_LINE + 1 bytes
        self._length = 0  # its length so far

    def feed(self, data: bytes, final: bool = False) -> None:
        position = 0
        while not self.full:
            newline = data.find(b"\n", position)
            if newline < 0:
                break
            self._take(data[position:newline])
            self._line_end(1)
            position = newline + 1
        if not self.full:
            self._take(data[position:])
            if final and self._length:
                self._line_end(0)

    def _take(self, piece: bytes) -> None:
        room = MAX_LINE + 1 - len(self._pending)
        if room > 0:
            self._pending += piece[:room]
        self._length += len(piece)

    def _line_end(self, newline: int) -> None:
        line = bytes(self._pending)  # over MAX_LINE bytes when the line is: never a fence
        if not self._fence and (level := heading_level(line[:MAX_LINE])) is not None:
            title = title_of(line)
            self.headings.append(
                Heading(level, shown_title(title), section_id(title, self._start), self._start)
            )
            self.full = len(self.headings) >= MAX_ENTRIES
        else:
            self._fence = step_fence(self._fence, line)
        self._start += self._length + newline
        self._pending.clear()
        self._length = 0


def outline(data: bytes) -> list[Heading]:
    outliner = Outliner()
    outliner.feed(data, final=True)
    return outliner.headings


# --- sections ------------------------------------------------------------------------------


def open_section(section: str, before: bytes, head: bytes) -> tuple[int, str]:
    """(level, title) of the section whose ID is `section`, given the byte just before its
    offset (`b""` at offset 0) and the text from the offset on; SectionMismatch when the line
    there is no heading or its slug differs."""
    wanted, offset = parse_id(section)
    line = head.split(b"\n", 1)[0]
    at_line_start = before == (b"" if offset == 0 else b"\n")
    level = heading_level(line[:MAX_LINE]) if at_line_start else None
    if level is None:
        raise SectionMismatch(f"no heading starts at byte {offset}")
    title = title_of(line)
    if slug(title) != wanted:
        raise SectionMismatch(f"the heading at byte {offset} is not {wanted!r}")
    return level, title


@dataclass(frozen=True)
class Cut:
    """How much of one piece of text belongs to the section, and the state after it."""

    length: int  # bytes of the piece that belong to the section
    ended: bool  # the section ends right after them
    fence: str
    midline: bool  # the piece ends inside an over-long line


def cut_section(
    piece: bytes,
    *,
    level: int,
    more: bool,
    fence: str = "",
    midline: bool = False,
    first: bool = False,
) -> Cut:
    """Scan `piece` (the text from a line start, or from inside a line when `midline`) for the
    end of a section of `level`. `more`: text follows the piece. `first`: the piece starts with
    the section's own heading. A piece that goes on is cut after its last whole line (a line
    longer than the piece is given whole, `midline`), so the next piece starts at a line start."""
    position = 0
    if midline:
        newline = piece.find(b"\n")
        if newline < 0:
            return Cut(len(piece), not more, fence, True)
        position = newline + 1
    skip = first
    while position < len(piece):
        newline = piece.find(b"\n", position)
        complete = newline >= 0 or not more
        line = piece[position : newline if newline >= 0 else len(piece)]
        if not fence and not skip:
            found = heading_level(line, complete)
            if found is not None and found <= level:
                return Cut(position, True, fence, False)
        if not complete:
            if position == 0:  # one line longer than the piece
                return Cut(len(piece), False, fence, True)
            return Cut(position, False, fence, False)
        if not skip:
            fence = step_fence(fence, line)
        skip = False
        position = len(piece) if newline < 0 else newline + 1
    return Cut(len(piece), not more, fence, False)


def section_text(data: bytes, section: str) -> tuple[Heading, bytes]:
    """A whole text's section: its heading and its bytes (the CLI's path; the server reads the
    same bounds chunk by chunk with `open_section` and `cut_section`)."""
    _, offset = parse_id(section)
    if offset > len(data):
        raise SectionMismatch(f"the text is only {len(data)} bytes long")
    head = data[offset:]
    level, title = open_section(section, data[offset - 1 : offset] if offset else b"", head)
    cut = cut_section(head, level=level, more=False, first=True)
    return Heading(level, shown_title(title), section, offset), head[: cut.length]


def mismatch_message(section: str, reason: str) -> Words:
    return Words(
        "section {} is not in this paper ({}); the paper may have changed: list the sections "
        "again with {}",
        repr(section),
        reason,
        OUTLINE,
    )


# --- payloads (the CLI's, and the server's `data`) ------------------------------------------


def outline_payload(
    paper: str, outliner: Outliner, *, complete: bool, bytes_read: int
) -> dict[str, Any]:
    """`complete` is false when the text was not read to its end or the outline is full."""
    payload: dict[str, Any] = {
        "paper": paper,
        "outline": [heading.as_dict() for heading in outliner.headings],
        "complete": complete and not outliner.full,
        "bytes_read": bytes_read,
    }
    if outliner.full:
        payload["stopped"] = f"only the first {MAX_ENTRIES} headings are listed"
    elif not complete:
        payload["stopped"] = f"only the first {bytes_read:,} bytes were read"
    return payload


def whole_outline(paper: str, data: bytes) -> dict[str, Any]:
    outliner = Outliner()
    outliner.feed(data, final=True)
    return outline_payload(paper, outliner, complete=True, bytes_read=len(data))


def whole_section(paper: str, data: bytes, section: str) -> dict[str, Any]:
    """The section of a whole text; SectionMismatch when the ID names none."""
    heading, body = section_text(data, section)
    return {
        "paper": paper,
        "section": {**heading.as_dict(), "end": heading.offset + len(body)},
        "markdown": body.decode("utf-8", "replace"),
    }
