"""JSON-RPC on the wire for the safety layers: the shape check of one incoming message and the
short error body every refusal carries (the MCP spec allows one on transport refusals too)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from typing import Any

from starlette.types import Send

from pwc_mcp.edge.rate_limits import SEMANTIC_TOOL

PARSE_ERROR, INVALID_REQUEST, INVALID_PARAMS, INTERNAL_ERROR = -32700, -32600, -32602, -32603
UNSUPPORTED_PROTOCOL_VERSION = -32022  # 2026-07-28: data = {"supported": [...], "requested": ...}
MAX_JSON_DEPTH = 64
MAX_URI_CHARS = 2048  # a resource URI; every template argument is bounded far below this
# Newest first: the modern per-request era, then the handshake era the SDK negotiates.
SUPPORTED_PROTOCOLS = ("2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05")
# Served without a handshake (what server/discover lists); the rest are negotiated by initialize.
STATELESS_PROTOCOLS = SUPPORTED_PROTOCOLS[:1]


async def send_error(
    send: Send,
    status: int,
    code: int,
    message: str,
    *,
    rpc_id: str | int | None = None,
    headers: Iterable[tuple[bytes, bytes]] = (),
    data: Any = None,
) -> None:
    """A short JSON-RPC error body (the MCP spec allows one on transport refusals too)."""
    error: dict[str, Any] = {"code": code, "message": message}
    if data is not None:
        error["data"] = data
    body = json.dumps(
        {"jsonrpc": "2.0", "id": rpc_id, "error": error}, separators=(",", ":")
    ).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                (b"cache-control", b"no-store"),
                *headers,
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


class BadMessage(Exception):
    def __init__(
        self,
        code: int,
        message: str,
        rpc_id: str | int | None = None,
        *,
        status: int = 400,
        data: Any = None,
    ) -> None:
        super().__init__(message)
        self.code, self.message, self.rpc_id = code, message, rpc_id
        self.status, self.data = status, data


def _valid_id(value: Any) -> bool:
    return (isinstance(value, int) and not isinstance(value, bool)) or (
        isinstance(value, str) and len(value) <= 256
    )


def _too_deep(value: Any, limit: int = MAX_JSON_DEPTH) -> bool:
    """Whether a container at depth `limit` or deeper holds anything (level by level: one list
    per level, no tuple per node, as this runs on every request)."""
    level, depth = [value], 1
    while level:
        children: list[Any] = []
        for item in level:
            if isinstance(item, dict):
                children.extend(item.values())
            elif isinstance(item, list):
                children.extend(item)
        if children and depth >= limit:
            return True
        level = [child for child in children if isinstance(child, dict | list)]
        depth += 1
    return False


def _reject_constant(name: str) -> Any:
    raise ValueError(f"non-standard JSON constant {name}")


# One decoder for every request (json.loads builds one per call when given parse_constant).
_DECODER = json.JSONDecoder(parse_constant=_reject_constant)


def parse_message(body: bytes) -> tuple[dict[str, Any], str, str | None]:
    """Parse and shape-check one JSON-RPC message: (message, method, tool name or None).

    Only what this layer relies on is checked (the rate limiter and telemetry read ``method``,
    ``params.name`` and ``arguments.mode``); the SDK validates the rest.
    """
    try:
        message = _DECODER.decode(body.decode(json.detect_encoding(body), "surrogatepass"))
    except RecursionError:
        raise BadMessage(INVALID_REQUEST, "invalid request: JSON nested too deeply") from None
    except ValueError:
        raise BadMessage(PARSE_ERROR, "parse error: body is not valid JSON") from None
    if isinstance(message, list):
        raise BadMessage(INVALID_REQUEST, "invalid request: batches are not supported")
    if not isinstance(message, dict):
        raise BadMessage(INVALID_REQUEST, "invalid request: expected a JSON-RPC object")
    # Nesting needs an opening bracket per level, and every `{` or `[` holds a byte of that
    # value in any of JSON's encodings: fewer of them than the limit cannot be too deep.
    if body.count(b"{") + body.count(b"[") >= MAX_JSON_DEPTH and _too_deep(message):
        raise BadMessage(INVALID_REQUEST, "invalid request: JSON nested too deeply")
    has_id = "id" in message
    if has_id and not _valid_id(message["id"]):
        raise BadMessage(INVALID_REQUEST, "invalid request: id must be a string or an integer")
    rpc_id = message["id"] if has_id else None
    if message.get("jsonrpc") != "2.0":
        raise BadMessage(INVALID_REQUEST, 'invalid request: jsonrpc must be "2.0"', rpc_id)
    method = message.get("method")
    if not isinstance(method, str) or not 0 < len(method) <= 128:
        raise BadMessage(INVALID_REQUEST, "invalid request: method must be a string", rpc_id)
    if not has_id and not method.startswith("notifications/"):
        raise BadMessage(INVALID_REQUEST, "invalid request: id is required", rpc_id)
    params = message.get("params")
    if params is not None and not isinstance(params, dict):
        raise BadMessage(INVALID_PARAMS, "invalid params: params must be an object", rpc_id)
    params = params or {}
    if params.get("_meta") is not None and not isinstance(params["_meta"], dict):
        raise BadMessage(INVALID_PARAMS, "invalid params: _meta must be an object", rpc_id)
    tool = None
    if method in ("tools/call", "prompts/get"):
        name, arguments = params.get("name"), params.get("arguments")
        if not isinstance(name, str):
            raise BadMessage(INVALID_PARAMS, "invalid params: name must be a string", rpc_id)
        if arguments is not None and not isinstance(arguments, dict):
            raise BadMessage(INVALID_PARAMS, "invalid params: arguments must be an object", rpc_id)
        if method == "tools/call":
            tool = name
            mode = (arguments or {}).get("mode")
            if name == SEMANTIC_TOOL and mode is not None and not isinstance(mode, str):
                raise BadMessage(INVALID_PARAMS, "invalid params: mode must be a string", rpc_id)
    elif method == "resources/read":
        uri = params.get("uri")
        if not isinstance(uri, str):
            raise BadMessage(INVALID_PARAMS, "invalid params: uri must be a string", rpc_id)
        if len(uri) > MAX_URI_CHARS:
            raise BadMessage(
                INVALID_PARAMS,
                f"invalid params: uri is longer than {MAX_URI_CHARS} characters",
                rpc_id,
            )
    return message, method, tool


# pydantic-core reads a number with more digits than this before its point as out of range.
PYDANTIC_MAX_DIGITS = 4300
_LONG_DIGITS = re.compile(rb"[0-9]{%d}" % (PYDANTIC_MAX_DIGITS + 1))
_SURROGATE = re.compile("[\ud800-\udfff]")


def pydantic_reads_alike(body: bytes, message: dict[str, Any]) -> bool:
    """Whether pydantic-core's `from_json` (the handshake era's parser in the SDK) reads `body`,
    which `parse_message` accepted as `message`, to the very same value.

    The two agree on every body `parse_message` accepts (duplicate keys: the last value in the
    first key's place; integers of any length it accepts; floats, correctly rounded, past the
    range to infinity; escapes; depth, bounded far below pydantic-core's 200) but three kinds,
    which pydantic-core refuses where `json` does not: a body not in plain UTF-8 (a BOM, UTF-16
    or UTF-32), a surrogate code point in a string (an escape not in a pair, or any
    surrogate's own UTF-8 bytes, which `json` reads with ``surrogatepass``), and a number with
    more than PYDANTIC_MAX_DIGITS digits before its point (a float to `json`). The last is
    judged on the bytes, so a run of digits that long inside a string counts too (False where
    True was due: the framework answers such a body). tests/safety/test_one_parse.py holds the
    two parsers to this.
    """
    if json.detect_encoding(body) != "utf-8":
        return False
    if len(body) > PYDANTIC_MAX_DIGITS and _LONG_DIGITS.search(body):
        return False
    # A surrogate comes from an escape (`\u` in the body) or its UTF-8 bytes (led by 0xED).
    return not ((b"\\u" in body or b"\xed" in body) and _holds_surrogate(message))


def _holds_surrogate(value: Any) -> bool:
    """Whether a key or a string anywhere in `value` holds a UTF-16 surrogate (level by level,
    as `_too_deep`)."""
    level = [value]
    while level:
        children: list[Any] = []
        for item in level:
            if isinstance(item, str):
                if _SURROGATE.search(item):
                    return True
            elif isinstance(item, dict):
                children.extend(item)
                children.extend(item.values())
            elif isinstance(item, list):
                children.extend(item)
        level = children
    return False


def check_content_type(values: list[str]) -> None:
    """POST /mcp carries one JSON body; anything else gets a JSON-RPC answer, not the SDK's text."""
    media = values[0].split(";", 1)[0].strip().lower() if len(values) == 1 else ""
    if media != "application/json":
        raise BadMessage(
            INVALID_REQUEST,
            "unsupported media type: send the JSON-RPC message with Content-Type: application/json",
            status=415,
        )


def check_protocol_version(values: list[str], rpc_id: str | int | None) -> None:
    """An MCP-Protocol-Version this server does not speak -> 400 -32022 naming the ones it does.

    The 2026-07-28 UnsupportedProtocolVersionError shape in both eras (a handshake-era client
    reads the message; a modern one picks from ``data.supported``). The SDK would route any
    unknown value to its modern path and answer with an unrelated ``_meta`` complaint.
    """
    if not values:
        return  # legacy clients may omit it (served as 2025-03-26)
    requested = values[0].strip() if len(values) == 1 else ",".join(values)
    if len(values) == 1 and requested in SUPPORTED_PROTOCOLS:
        return
    # data.supported must agree with server/discover's supportedVersions (the stateless era);
    # the message also names the versions an initialize handshake can negotiate.
    raise BadMessage(
        UNSUPPORTED_PROTOCOL_VERSION,
        f"unsupported protocol version: this server supports {', '.join(STATELESS_PROTOCOLS)}"
        f" (and {', '.join(SUPPORTED_PROTOCOLS[1:])} through initialize)",
        rpc_id,
        data={"supported": list(STATELESS_PROTOCOLS), "requested": requested[:64]},
    )
