"""The fast path reads admission's parse instead of parsing again (issue #35): on bodies where
the two protocol eras' parsers could part (duplicate keys, `1` and `1.0`, numbers past what
pydantic-core reads, escapes, surrogates, a BOM, UTF-16), its answer is still the framework's,
byte for byte, over real uvicorn on loopback (tests/e2e/test_fast_path.py's two servers).

Each case sends a first body three times (the third from the kept bytes, where the framework
kept any) and then a second body whose message admission reads the same way or not: the second
is answered from the first's kept bytes exactly when its era's parser reads it as the first.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import NamedTuple

import httpx
import pytest

from pwc_mcp.fast_path import FastPath
from pwc_mcp.sample import RunningCatalog
from tests.e2e.test_fast_path import pair, repeated
from tests.helpers.e2e import RPC_HEADERS, modern, settings_for

HANDSHAKE, MODERN = "2025-11-25", "2026-07-28"
ENVELOPE = (
    b'"io.modelcontextprotocol/protocolVersion":"2026-07-28",'
    b'"io.modelcontextprotocol/clientInfo":{"name":"pytest","version":"1"},'
    b'"io.modelcontextprotocol/clientCapabilities":{}'
)
WIDE = b"1" + b"0" * 4300  # one digit more than pydantic-core reads in a number
TRANSFORMER = b'{"query":"transformer"}'


class Case(NamedTuple):
    first: tuple[bytes, bytes | None]  # (the arguments, a `_meta` member's value) as raw JSON
    second: tuple[bytes, bytes | None]
    # per era: (the first's third answer from kept bytes, the second from the first's)
    fast: dict[str, tuple[bool, bool]]
    encode: str = "utf-8"  # the second body's encoding ("bom": UTF-8 after a BOM)


BOTH = {HANDSHAKE: (True, True), MODERN: (True, True)}
NEITHER_SECOND = {HANDSHAKE: (True, False), MODERN: (True, False)}
# pydantic-core refuses the second body (the framework answers a parse error); json reads it
# as the first.
HANDSHAKE_REFUSES = {HANDSHAKE: (True, False), MODERN: (True, True)}
CASES = {
    "duplicate keys, the last one read": Case(
        (TRANSFORMER, None), (b'{"query":"bert","query":"transformer"}', None), BOTH
    ),
    "duplicate tool names": Case(
        (TRANSFORMER, None), (TRANSFORMER + b',"name":"search_papers"', None), BOTH
    ),
    "escapes": Case(
        (TRANSFORMER, None), (b'{"\\u0071uery":"\\u0074ransforme\\u0072"}', None), BOTH
    ),
    "whitespace": Case((TRANSFORMER, None), (b'{ "query" :\n\t"transformer" }', None), BOTH),
    "1 and 1.0 are two requests": Case(
        (b'{"benchmark":"imagenet","limit":3}', None),
        (b'{"benchmark":"imagenet","limit":3.0}', None),
        NEITHER_SECOND,
    ),
    "3.0 and 30e-1 are one": Case(
        (b'{"benchmark":"imagenet","limit":3.0}', None),
        (b'{"benchmark":"imagenet","limit":30e-1}', None),
        BOTH,
    ),
    "infinity, and a float too wide for pydantic-core": Case(
        (TRANSFORMER, b"1e400"), (TRANSFORMER, WIDE + b".0"), HANDSHAKE_REFUSES
    ),
    "huge integers": Case(
        (TRANSFORMER, b"123456789012345678901234567890"),
        (TRANSFORMER, b"123456789012345678901234567890"),
        BOTH,
    ),
    "an escaped pair and its raw character": Case(
        (b'{"query":"transformer \\ud83d\\ude00"}', None),
        (b'{"query":"transformer \xf0\x9f\x98\x80"}', None),
        BOTH,
    ),
    "a lone surrogate escaped and in UTF-8 bytes": Case(
        (TRANSFORMER, b'"\\ud800"'),
        (TRANSFORMER, b'"\xed\xa0\x80"'),
        {HANDSHAKE: (False, False), MODERN: (True, True)},
    ),
    "a BOM": Case((TRANSFORMER, None), (TRANSFORMER, None), HANDSHAKE_REFUSES, "bom"),
    "UTF-16": Case((TRANSFORMER, None), (TRANSFORMER, None), HANDSHAKE_REFUSES, "utf-16-le"),
    "a run of digits in a string (no fast path in the handshake era, the same answers)": Case(
        (TRANSFORMER, b'"' + WIDE + b'"'),
        (TRANSFORMER, b'"' + WIDE + b'"'),
        {HANDSHAKE: (False, False), MODERN: (True, True)},
    ),
}


def request(era: str, arguments: bytes, meta: bytes | None) -> tuple[bytes, dict[str, str]]:
    tool = b"get_benchmark" if b"benchmark" in arguments else b"search_papers"
    members = [ENVELOPE] if era == MODERN else []
    if meta is not None:
        members.append(b'"trace":' + meta)
    params = b'"name":"' + tool + b'","arguments":' + arguments
    if members:
        params += b',"_meta":{' + b",".join(members) + b"}"
    body = b'{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{' + params + b"}}"
    headers = modern("tools/call", name=tool.decode())[1] if era == MODERN else RPC_HEADERS
    return body, headers


def encoded(body: bytes, encoding: str) -> bytes:
    if encoding == "utf-8":
        return body
    if encoding == "bom":
        return b"\xef\xbb\xbf" + body
    return body.decode().encode(encoding)


@pytest.fixture(scope="module")
def servers(catalog: RunningCatalog) -> Iterator[tuple[httpx.Client, httpx.Client, FastPath]]:
    with pair(settings_for(catalog)) as running:
        yield running


@pytest.mark.parametrize("era", [HANDSHAKE, MODERN])
@pytest.mark.parametrize("name", CASES)
def test_adversarial_bodies_get_the_frameworks_answer(
    servers: tuple[httpx.Client, httpx.Client, FastPath], era: str, name: str
) -> None:
    case = CASES[name]
    first = request(era, *case.first)
    body, headers = request(era, *case.second)
    second = (encoded(body, case.encode), headers)
    fast_first, fast_second = case.fast[era]
    assert repeated(servers, [first] * 3)[2] is fast_first
    assert repeated(servers, [second]) == [fast_second]
