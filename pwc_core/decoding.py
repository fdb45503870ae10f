"""Response bodies decoded incrementally under a ceiling on decoded bytes.

httpx decodes each received chunk whole, so one 64 KiB gzip chunk can expand to 64 MiB, and
stacked codings (`gzip, gzip`) let a 2 KB answer expand to gigabytes before any size check.
Here the raw bytes are decoded with zlib's `max_length`, so no call ever produces more than the
bytes still allowed plus one; one content coding at most is accepted.
"""

from __future__ import annotations

import zlib
from collections.abc import Callable, Iterable
from typing import Protocol

from pwc_core.errors import ResponseTooLarge, UndecodableResponse

ACCEPT_ENCODING = "gzip, deflate"  # exactly the codings decoder() accepts
OVER_LIMIT = "API response exceeded the client byte limit"
STACKED = "API response used stacked content encodings"
UNSUPPORTED = "API response used an unsupported content encoding"
CORRUPT = "API returned an invalid compressed body"


class Decoder(Protocol):
    def decode(self, data: bytes, room: int) -> bytes:
        """Decode `data`; returns at most `room + 1` bytes (more than `room` means too big)."""
        ...


class Identity:
    def decode(self, data: bytes, room: int) -> bytes:
        return data


class Zlib:
    """gzip (`wbits=31`) or zlib-wrapped deflate; a deflate stream that turns out raw (as some
    servers send) is retried as raw deflate, as browsers and httpx do."""

    def __init__(self, wbits: int) -> None:
        self._wbits = wbits
        self._inflate = zlib.decompressobj(wbits)
        self._started = False

    def decode(self, data: bytes, room: int) -> bytes:
        try:
            out = self._inflate.decompress(data, room + 1)  # max_length 0 would mean unbounded
        except zlib.error:
            if self._started or self._wbits != zlib.MAX_WBITS:
                raise UndecodableResponse(CORRUPT) from None
            self._wbits = -zlib.MAX_WBITS
            self._inflate = zlib.decompressobj(self._wbits)
            return self.decode(data, room)
        self._started = True
        # Output below max_length means zlib consumed all the input: nothing is left pending.
        return out


def decoder(content_encoding: str | None) -> Decoder:
    """The decoder for a Content-Encoding header; more than one coding is refused."""
    codings = [c.strip().lower() for c in (content_encoding or "").split(",")]
    codings = [c for c in codings if c and c != "identity"]
    if len(codings) > 1:
        raise UndecodableResponse(STACKED)
    if not codings:
        return Identity()
    if codings[0] in ("gzip", "x-gzip"):
        return Zlib(zlib.MAX_WBITS | 16)
    if codings[0] == "deflate":
        return Zlib(zlib.MAX_WBITS)
    raise UndecodableResponse(UNSUPPORTED)


def read_decoded(
    raw: Iterable[bytes],
    content_encoding: str | None,
    limit: int,
    *,
    raw_limit: int | None = None,
    truncate: bool = False,
    check: Callable[[], None] = lambda: None,
) -> bytes:
    """The decoded body: at most `limit` bytes decoded and `raw_limit` (default `limit`)
    received, since a stream of empty compressed blocks decodes to nothing forever.

    Over a limit: ResponseTooLarge, or with `truncate` the first `limit` decoded bytes (for error
    details, where a partial, best-effort text is the point). `check` runs before each chunk
    (the transport passes its deadline check).
    """
    raw_limit = limit if raw_limit is None else raw_limit
    try:
        body_decoder = decoder(content_encoding)
    except UndecodableResponse:
        if truncate:
            return b""
        raise
    out = bytearray()
    received = 0
    for chunk in raw:
        check()
        received += len(chunk)
        if received > raw_limit:
            if truncate:
                break
            raise ResponseTooLarge(OVER_LIMIT)
        try:
            piece = body_decoder.decode(chunk, limit - len(out))
        except UndecodableResponse:
            if truncate:
                break
            raise
        out += piece
        if len(out) > limit:
            if truncate:
                del out[limit:]
                break
            raise ResponseTooLarge(OVER_LIMIT)
        if truncate and len(out) == limit:
            break
    return bytes(out)
