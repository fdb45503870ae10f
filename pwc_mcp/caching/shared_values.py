"""Payloads of the second-level cache: what level 1 holds, as bytes, and back again, checked.

One byte names the kind, then its fields (JSON never holds a raw newline, so the first one ends
the fields):

| kind | fields                                   | then   | level-1 value          |
|------|------------------------------------------|--------|------------------------|
| `j`  | none                                     | body   | a JSON answer's body   |
| `m`  | `{"status": 404, "detail": str}`         |        | a public-metadata miss |
| `r`  | `{"status": 2xx, "headers": {str: str}}` | body   | a whole raw reply      |
| `c`  | `{"truncated", "next", "version"}`       | body   | a Markdown chunk       |

A decoder never raises: it returns None for anything else, so even a payload whose tag matched
(pwc_mcp/caching/shared_cache.py) but does not hold what its kind must is a miss. The JSON answer's
shape is checked by its caller, which knows the route (pwc_mcp/caching/cache.py). Changing any of this
means bumping `shared_cache.FORMAT`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from pydantic_core import from_json, to_json

from pwc_core.transport import Reply
from pwc_mcp.cursors import CONTENT_VERSION

Chunk = tuple[bytes, bool, int, str]  # (body, truncated, next offset, content version)


@dataclass(frozen=True)
class Miss:
    """A cached public-metadata 404, re-raised on every hit."""

    status: int
    detail: str


def encode_body(body: bytes) -> bytes:
    return b"j" + body


def encode_miss(miss: Miss) -> bytes:
    return b"m" + to_json({"status": miss.status, "detail": miss.detail})


def decode_answer(payload: bytes) -> bytes | Miss | None:
    """A JSON answer's body (its shape still to check), or a public-metadata miss."""
    if payload[:1] == b"j":
        return payload[1:]
    fields = _fields(payload[1:]) if payload[:1] == b"m" else None
    if (
        isinstance(fields, dict)
        and fields.get("status") == 404
        and isinstance(fields.get("detail"), str)
        and len(fields) == 2
    ):
        return Miss(404, fields["detail"])
    return None


def encode_reply(reply: Reply) -> bytes:
    meta = to_json({"status": reply.status, "headers": dict(reply.headers)})
    return b"r" + meta + b"\n" + reply.body


def keepable(headers: Mapping[str, str], body: bytes) -> bool:
    """Whether a raw reply may be cached at either level: an empty or HTML reply (a proxy's
    error page) is served, never kept."""
    return bool(body) and not headers.get("content-type", "").lower().startswith("text/html")


def decode_reply(payload: bytes) -> Reply | None:
    parts = _split(payload, b"r")
    if parts is None:
        return None
    meta, body = parts
    status, headers = meta.get("status"), meta.get("headers")
    if (
        type(status) is not int
        or not 200 <= status < 300
        or not isinstance(headers, dict)
        or not all(isinstance(k, str) and isinstance(v, str) for k, v in headers.items())
        or not keepable(headers, body)
    ):
        return None
    return Reply(status, headers, body)


def encode_chunk(chunk: Chunk) -> bytes:
    body, truncated, following, version = chunk
    meta = to_json({"truncated": truncated, "next": following, "version": version})
    return b"c" + meta + b"\n" + body


def decode_chunk(payload: bytes) -> Chunk | None:
    """A chunk as pwc_mcp/catalog.py validated it when it was fetched: its version a SHA-256,
    its body UTF-8, a next offset exactly when it is truncated."""
    parts = _split(payload, b"c")
    if parts is None:
        return None
    meta, body = parts
    truncated, following, version = meta.get("truncated"), meta.get("next"), meta.get("version")
    if (
        type(truncated) is not bool
        or type(following) is not int
        or not isinstance(version, str)
        or not CONTENT_VERSION.fullmatch(version)
        or (following > 0) != truncated
        or following < 0
    ):
        return None
    try:
        body.decode("utf-8")
    except UnicodeDecodeError:
        return None
    return body, truncated, following, version


def _split(payload: bytes, kind: bytes) -> tuple[dict[str, Any], bytes] | None:
    if payload[:1] != kind:
        return None
    head, newline, body = payload[1:].partition(b"\n")
    meta = _fields(head) if newline else None
    return (meta, body) if isinstance(meta, dict) else None


def _fields(data: bytes) -> Any:
    try:
        return from_json(data)
    except ValueError:
        return None
