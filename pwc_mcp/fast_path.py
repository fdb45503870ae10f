"""The hot path: a remembered tool result answered in the framework's own bytes, at the ASGI
level, without the framework (docs/decisions.md, "The hot path").

`FastPath` sits innermost, between the response bound and FastMCP's app (pwc_mcp.app), so every
guard, the admission layer (request budget, concurrency lease) and the operations log have run
for the request as for any other. For a `tools/call`:

1. The request's *variant*: everything the framework could answer differently on (the JSON-RPC
   message without its id, as the framework parses it in that protocol era; the path; every
   request header but the few no layer inside reads; the id's type). Identical requests share
   it, whatever their ids. The message is admission's parse (`edge.admission.Parsed`), not a
   second one: it is the modern era's by construction and the handshake era's wherever
   `edge.jsonrpc.pydantic_reads_alike` says so; elsewhere the framework answers.
2. No bytes kept for the variant: the framework answers. If that answer was a remembered result
   (pwc_mcp.caching.memo reports the entry to `memo.ANSWERED`), a 200, complete and a success, its
   bytes are kept for the variant as the framework's prefix (`{"jsonrpc":"2.0","id":`), the
   id, and the rest, with the entry's stamp: only bytes verified to be that shape are kept.
3. Bytes kept, and the memo still holds that very entry: the call's admission checks run (the
   semantic budget, the same `ToolCalls.admit` the framework path runs), the entry is checked
   current (`ResultMemo.serve_again`: each catalog entry it was made from still cached, counted
   as the hits they stand for), and the answer is the kept bytes with this request's id
   serialized as the era's serializer does, and the kept headers with the new length.

Whatever fails on the way hands the call to the framework: an entry gone or replaced, a check
that refuses or fails (the framework raises that very exception: `server.PRECHECKED`, so no
budget is charged twice), a body that is not one plain tool call. Errors, refusals and degraded results
are never kept (the memo holds whole successes only, and only a success's bytes are kept).
"""

from __future__ import annotations

import json
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any, NamedTuple

from fastmcp import FastMCP
from fastmcp.server.http import set_http_request
from mcp_types.version import HANDSHAKE_PROTOCOL_VERSIONS
from pydantic_core import from_json, to_json
from starlette.requests import Request
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from pwc_mcp.caching import memo
from pwc_mcp.edge.admission import Parsed, is_mcp_post, parsed
from pwc_mcp.edge.jsonrpc import pydantic_reads_alike
from pwc_mcp.server import ADMITTED, PRECHECKED, tool_calls

# The framework's answer to a request is PREFIX + the request's id + the rest (checked, not
# assumed, before any answer is kept).
PREFIX = b'{"jsonrpc":"2.0","id":'
RESULT = b',"result":'
# Request headers nothing inside this layer reads: framing and hop-by-hop headers, the client's
# software, the proxy's identity headers (read outside, by pwc_mcp.edge.identity) and tracing. They
# differ between otherwise identical requests, so they stay out of the variant.
IGNORED = frozenset(
    {
        b"content-length",
        b"connection",
        b"keep-alive",
        b"user-agent",
        b"accept-encoding",
        b"x-forwarded-for",
        b"x-real-ip",
        b"forwarded",
        b"traceparent",
        b"tracestate",
        b"baggage",
    }
)
MAX_VARIANT_CHARS = 16_384  # a larger request is answered by the framework, never kept
MAX_ID = 2**53  # integer ids beyond what every JSON reader keeps exactly go the long way
# Kept answers: as many as the memo's results, in as many bytes again (one variant per result
# is the common case); an entry is sized by its bytes plus a fixed overhead for its objects.
KEPT_ENTRIES = 1024
KEPT_BYTES = 4 * 1024 * 1024
KEPT_OVERHEAD = 512


@dataclass(frozen=True, slots=True)
class _Wire:
    key: str  # the memo entry the bytes were made from: its key and stamp
    stamp: int
    headers: tuple[tuple[bytes, bytes], ...]
    rest: bytes  # the answer after its id


Variant = tuple[str, bytes, tuple[tuple[bytes, bytes], ...], bool, str]


@dataclass(frozen=True, slots=True)
class _Call:
    variant: Variant
    size: int  # about the bytes the variant holds, for the store's bound
    id_json: bytes
    name: str
    arguments: dict[str, Any] | None


class _Message(NamedTuple):
    """What the admission checks read of a `CallToolRequestParams`."""

    name: str
    arguments: dict[str, Any] | None


class Kept:
    """The answers kept per variant, least recently used out first, bounded in count and bytes.

    A plain LRU: an entry is only ever used while the memo still holds its result (which has
    the memo's own admission and TTL), so anything cleverer buys nothing here. Used from the
    event loop only, so it takes no lock."""

    def __init__(self, max_entries: int = KEPT_ENTRIES, max_bytes: int = KEPT_BYTES) -> None:
        self.max_entries, self.max_bytes = max_entries, max_bytes
        self.entries: OrderedDict[Variant, tuple[_Wire, int]] = OrderedDict()
        self.bytes = 0

    def get(self, variant: Variant) -> _Wire | None:
        found = self.entries.get(variant)
        if found is None:
            return None
        self.entries.move_to_end(variant)
        return found[0]

    def put(self, variant: Variant, wire: _Wire, size: int) -> None:
        self.drop(variant)
        if size > self.max_bytes:
            return
        while self.entries and (
            len(self.entries) >= self.max_entries or self.bytes + size > self.max_bytes
        ):
            _, (_, freed) = self.entries.popitem(last=False)
            self.bytes -= freed
        self.entries[variant] = (wire, size)
        self.bytes += size

    def drop(self, variant: Variant) -> None:
        found = self.entries.pop(variant, None)
        if found is not None:
            self.bytes -= found[1]


class FastPath:
    def __init__(self, app: ASGIApp, mcp: FastMCP, *, mcp_path: str = "/mcp") -> None:
        self.app = app
        self.calls = tool_calls(mcp)
        self.memo = self.calls.memo if self.calls is not None else None
        self.mcp_path = mcp_path.rstrip("/")
        self.kept = Kept()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        calls, results = self.calls, self.memo
        if calls is None or results is None or not is_mcp_post(scope, self.mcp_path):
            await self.app(scope, receive, send)
            return
        call = parse(scope, parsed(scope))
        if call is None:
            await self.app(scope, receive, send)
            return
        wire = self.kept.get(call.variant)
        entry = None if wire is None else results.holds(wire.key, wire.stamp)
        if wire is None or entry is None:
            self.kept.drop(call.variant)
            await self._through(call, scope, receive, send, None)
            return
        try:
            with set_http_request(Request(scope)):  # where the checks find the request's client
                await calls.admit(_Message(call.name, call.arguments))
        except Exception as refusal:  # a Failure, or whatever a check raised: the framework's
            await self._through(call, scope, receive, send, refusal)
            return
        if not results.serve_again(wire.key, wire.stamp, entry):
            self.kept.drop(call.variant)
            await self._through(call, scope, receive, send, ADMITTED)
            return
        body = PREFIX + call.id_json + wire.rest
        length = str(len(body)).encode()
        headers = [(k, length if k == b"content-length" else v) for k, v in wire.headers]
        await send({"type": "http.response.start", "status": 200, "headers": headers})
        await send({"type": "http.response.body", "body": body})

    async def _through(
        self, call: _Call, scope: Scope, receive: Receive, send: Send, prechecked: Any
    ) -> None:
        """The framework answers; its bytes are kept if they were a remembered result's."""
        answered: list[tuple[str, int]] = []
        start: Message | None = None
        chunks: list[bytes] = []
        complete = False

        async def capture(message: Message) -> None:
            nonlocal start, complete
            if message["type"] == "http.response.start":
                start = message
            elif message["type"] == "http.response.body":
                chunks.append(message.get("body", b""))
                complete = not message.get("more_body", False)
            await send(message)

        tokens = memo.ANSWERED.set(answered), PRECHECKED.set(prechecked)
        try:
            await self.app(scope, receive, capture)
        finally:
            memo.ANSWERED.reset(tokens[0])
            PRECHECKED.reset(tokens[1])
        if len(answered) == 1 and complete and start is not None and start["status"] == 200:
            self._keep(call, answered[0], start, b"".join(chunks))

    def _keep(self, call: _Call, answered: tuple[str, int], start: Message, body: bytes) -> None:
        head = PREFIX + call.id_json
        if not (body.startswith(head) and body.startswith(RESULT, len(head)) and _success(body)):
            return
        headers = tuple((bytes(k), bytes(v)) for k, v in start.get("headers", ()))
        if sum(k == b"content-length" for k, _ in headers) != 1:
            return
        wire = _Wire(answered[0], answered[1], headers, body[len(head) :])
        self.kept.put(call.variant, wire, len(wire.rest) + call.size + KEPT_OVERHEAD)


def parse(scope: Scope, admitted: Parsed | None) -> _Call | None:
    """The tool call admission parsed, as the framework would read it, or None for anything
    else (no parse here: admission's is the framework's, where `parse`'s checks say so)."""
    if admitted is None or admitted.tool is None:  # a tool name: a shape-checked tools/call
        return None
    version, kept = None, []
    for k, v in scope["headers"]:
        if k == b"mcp-protocol-version" and version is None:
            version = v
        if k not in IGNORED:
            kept.append((k, v))
    # The SDK's era routing: a version the handshake era does not know is the modern era,
    # which parses with `json` (as admission did) and serializes with `json.dumps`; the
    # handshake era uses pydantic-core for both, which reads admission's bodies alike unless
    # `pydantic_reads_alike` says otherwise: the framework answers those (mostly refuses them).
    modern = version is not None and version.decode("latin-1") not in HANDSHAKE_PROTOCOL_VERSIONS
    if not (modern or pydantic_reads_alike(admitted.body, admitted.message)):
        return None
    rpc_id = admitted.rpc_id
    plain_int = isinstance(rpc_id, int) and not isinstance(rpc_id, bool) and abs(rpc_id) < MAX_ID
    if not (plain_int or isinstance(rpc_id, str)):
        return None
    # repr: injective on parsed JSON (str, int, float, bool, None, list, dict in their order)
    # and several times cheaper than serializing it again; any integer `json` read, it prints.
    text = repr({k: v for k, v in admitted.message.items() if k != "id"})
    size = len(text) + sum(len(k) + len(v) for k, v in kept)
    if size > MAX_VARIANT_CHARS:
        return None
    variant = (scope["path"], scope.get("query_string", b""), tuple(kept), plain_int, text)
    id_json = json.dumps(rpc_id).encode() if modern else to_json(rpc_id)
    arguments = admitted.message["params"].get("arguments")
    return _Call(variant, size, id_json, admitted.tool, arguments)


def _success(body: bytes) -> bool:
    try:
        document = from_json(body)
    except ValueError:
        return False
    result = document.get("result") if isinstance(document, dict) else None
    return isinstance(result, dict) and result.get("isError") is False and "error" not in document
