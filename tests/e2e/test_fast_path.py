"""The hot path (pwc_mcp.fast_path) over real uvicorn on loopback: byte for byte what the
framework answers, in both protocol eras and every response mode the server offers, with every
budget charged exactly once, and never a failure or an answer the catalog no longer backs.

Each test runs the same requests against two servers over the same sample catalog: `create_app`
as shipped, and the same app without the fast path (the framework answers everything), and
compares status, headers (but `date`) and body of every answer.
"""

from __future__ import annotations

import json
import re
import secrets
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from typing import Any

import httpx
import pytest

import pwc_mcp.app as app_module
from pwc_core.transport import CatalogClient
from pwc_mcp.caching.cache import CachedCatalog, ChunkCache
from pwc_mcp.catalog import CatalogService
from pwc_mcp.config import Settings
from pwc_mcp.cursors import CursorCodec
from pwc_mcp.fast_path import FastPath
from pwc_mcp.sample import RunningCatalog
from pwc_mcp.serving.localserver import serve_in_thread
from pwc_mcp.site.examples import MEASURED, TOOL_EXAMPLES
from tests.helpers.e2e import RPC_HEADERS, modern, rpc, settings_for

ACCEPTS = ("application/json, text/event-stream", "application/json")
# Handshake-era versions a client may send after initialize, and none at all (2025-03-26).
LEGACY_VERSIONS = ("2025-11-25", "2025-06-18", None)
IDS: tuple[tuple[int | str, int | str], ...] = ((1, 2**40), ('é "quoted" \\ id', "7"))
Answer = tuple[int, list[tuple[bytes, bytes]], bytes]


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@contextmanager
def pair(
    settings: Settings, clock: Clock | None = None
) -> Iterator[tuple[httpx.Client, httpx.Client, FastPath]]:
    """(framework-only client, shipped client, the shipped app's fast path)."""
    fast_path: list[FastPath] = []
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(app_module, "FastPath", lambda app, mcp: app)
        reference = app_module.create_app(settings, catalog(settings, clock))
    shipped = app_module.create_app(settings, catalog(settings, clock))
    layer: Any = shipped
    while hasattr(layer, "app"):
        if isinstance(layer, FastPath):
            fast_path.append(layer)
        layer = layer.app
    assert len(fast_path) == 1, "create_app serves through one FastPath"
    with (
        serve_in_thread(reference, name="pwc-mcp-reference") as slow,
        serve_in_thread(shipped, name="pwc-mcp") as fast,
        httpx.Client(base_url=slow.origin, timeout=30) as slow_http,
        httpx.Client(base_url=fast.origin, timeout=30) as fast_http,
    ):
        yield slow_http, fast_http, fast_path[0]


def catalog(settings: Settings, clock: Clock | None) -> CatalogService:
    client = CatalogClient(settings.api_url, timeout=25.0)
    transport = CachedCatalog(client) if clock is None else CachedCatalog(client, clock=clock)
    return CatalogService(transport, CursorCodec(secrets.token_bytes(32)), ChunkCache())


def answer(http: httpx.Client, body: bytes, headers: dict[str, str]) -> Answer:
    response = http.post("/mcp", content=body, headers=headers)
    kept = [(k, v) for k, v in response.headers.raw if k.lower() != b"date"]
    return response.status_code, kept, response.content


def same(slow: httpx.Client, fast: httpx.Client, body: bytes, headers: dict[str, str]) -> Answer:
    """The fast server's answer, asserted equal to the framework's for the same request."""
    expected, got = answer(slow, body, headers), answer(fast, body, headers)
    assert got == expected
    return got


def legacy(
    tool: str, arguments: dict[str, Any], rpc_id: int | str, version: str | None, accept: str
):
    headers = {**RPC_HEADERS, "Accept": accept}
    if version is None:
        del headers["MCP-Protocol-Version"]
    else:
        headers["MCP-Protocol-Version"] = version
    body = rpc("tools/call", {"name": tool, "arguments": arguments}, rpc_id=0)
    return json.dumps({**body, "id": rpc_id}).encode(), headers


def stateless(tool: str, arguments: dict[str, Any], rpc_id: int | str, accept: str):
    body, headers = modern("tools/call", {"name": tool, "arguments": arguments}, name=tool)
    return json.dumps({**body, "id": rpc_id}).encode(), {**headers, "Accept": accept}


def early(fast_path: FastPath) -> int:
    assert fast_path.memo is not None
    return fast_path.memo.counts["served_early"]


@pytest.fixture(scope="module")
def servers(catalog: RunningCatalog) -> Iterator[tuple[httpx.Client, httpx.Client, FastPath]]:
    with pair(settings_for(catalog)) as running:
        yield running


def repeated(
    servers: tuple[httpx.Client, httpx.Client, FastPath], requests: list[tuple[bytes, dict]]
) -> list[bool]:
    """Send each request to both servers and compare; which ones the fast path answered."""
    slow, fast, fast_path = servers
    answered = []
    for body, headers in requests:
        before = early(fast_path)
        same(slow, fast, body, headers)
        answered.append(early(fast_path) > before)
    return answered


@pytest.mark.parametrize("accept", ACCEPTS)
@pytest.mark.parametrize("version", LEGACY_VERSIONS, ids=lambda v: v or "no-version")
def test_handshake_era_answers_are_the_frameworks_bytes(servers, version, accept) -> None:
    for first, second in IDS:
        for tool, arguments in MEASURED.items():
            calls = [legacy(tool, arguments, rpc_id, version, accept) for rpc_id in (first,) * 3]
            calls.append(legacy(tool, arguments, second, version, accept))
            # computed or remembered, remembered (and kept), then twice from the kept bytes
            assert repeated(servers, calls)[2:] == [True, True], (tool, first)


@pytest.mark.parametrize("accept", ACCEPTS)
def test_stateless_era_answers_are_the_frameworks_bytes(servers, accept) -> None:
    for first, second in IDS:
        for tool, arguments in MEASURED.items():
            calls = [stateless(tool, arguments, first, accept) for _ in range(3)]
            calls.append(stateless(tool, arguments, second, accept))
            assert repeated(servers, calls)[2:] == [True, True], (tool, first)


def test_every_tool_answers_alike(servers) -> None:
    """Every example of every tool, three times: equal to the framework's every time, and the
    third from the kept bytes whenever the memo served the second (never `read_paper`)."""
    answered = set()
    for tool, examples in TOOL_EXAMPLES.items():
        if tool == "read_paper":  # its cursor is signed per server (and never remembered)
            continue
        for arguments in examples:
            if repeated(servers, [legacy(tool, arguments, 5, "2025-11-25", ACCEPTS[0])] * 3)[2]:
                answered.add(tool)
    assert set(MEASURED) <= answered and len(answered) >= len(TOOL_EXAMPLES) // 2, answered


def test_what_the_framework_refuses_or_fails_is_never_kept(servers) -> None:
    unknown = legacy("get_paper_info", {"paper": "no such paper 0000"}, 3, "2025-11-25", ACCEPTS[0])
    invalid = legacy("get_benchmark", {"benchmark": "imagenet", "limit": 0}, 3, None, ACCEPTS[0])
    events = legacy("search_papers", {"query": "transformer"}, 3, "2025-11-25", "text/event-stream")
    unsupported = legacy("search_papers", {"query": "transformer"}, 3, "2099-01-01", ACCEPTS[0])
    slow, fast, fast_path = servers
    for body, headers in (unknown, invalid, events, unsupported):
        before = len(fast_path.kept.entries)
        assert not any(repeated(servers, [(body, headers)] * 4))
        assert len(fast_path.kept.entries) == before
    status, _, text = answer(fast, *unknown)
    assert status == 200 and b'"isError":true' in text
    assert answer(fast, *events)[0] == 406


def test_ids_the_fast_path_does_not_splice_go_the_long_way(servers) -> None:
    arguments = MEASURED["search_papers"]
    for rpc_id in (2**60, 1.0, True, None):
        body = json.dumps(
            {"jsonrpc": "2.0", "id": rpc_id, "method": "tools/call",
             "params": {"name": "search_papers", "arguments": arguments}}
        ).encode()  # fmt: skip
        assert not any(repeated(servers, [(body, RPC_HEADERS)] * 3))


def test_a_browser_origin_gets_the_same_grant(servers) -> None:
    body, headers = legacy(
        "get_paper_info", MEASURED["get_paper_info"], 9, "2025-11-25", ACCEPTS[0]
    )
    headers = {**headers, "Origin": "http://localhost:6274"}
    assert repeated(servers, [(body, headers)] * 3)[2]
    _, fast, _ = servers
    assert (b"access-control-allow-origin", b"http://localhost:6274") in answer(
        fast, body, headers
    )[1]


def test_headers_no_inner_layer_reads_share_one_kept_answer(servers) -> None:
    base = legacy("search_papers", {"query": "user agent probe"}, 11, "2025-11-25", ACCEPTS[0])
    agents = [(base[0], {**base[1], "User-Agent": f"agent/{n}"}) for n in range(4)]
    assert repeated(servers, agents) == [False, False, True, True]
    # another header a layer inside may read makes another variant: the framework answers it
    # once (from the memo) before its own bytes are kept
    tagged = (base[0], {**base[1], "Mcp-Session-Id": "abc"})
    assert repeated(servers, [tagged] * 2) == [False, True]


def semantic(arguments: dict[str, Any]) -> tuple[bytes, dict[str, str]]:
    return legacy("search_papers", arguments, 1, "2025-11-25", ACCEPTS[0])


def refused(answer: Answer) -> bool:
    status, _, body = answer
    result = json.loads(body)["result"]
    return status == 200 and result["isError"] and "semantic search limit reached" in body.decode()


def seconds_free(answer: Answer) -> Answer:
    """An answer with its retry-after seconds blanked (two servers' windows start apart)."""
    status, headers, body = answer
    return status, headers, re.sub(rb"retry in \d+ s", b"retry in N s", body)


def test_the_semantic_budget_is_charged_once_per_call(catalog: RunningCatalog) -> None:
    """Three semantic searches a minute: the framework's call, its remembered answer and the
    fast path's each spend one, and the fourth is refused in the framework's words (its check
    ran once: the fast path's refusal is the one the framework raises)."""
    settings = replace(settings_for(catalog), semantic_limit=3)
    body, headers = semantic({"query": "budget probe", "mode": "semantic"})
    with pair(settings) as (slow, fast, fast_path):
        answers = {name: [answer(http, body, headers) for _ in range(5)]
                   for name, http in (("slow", slow), ("fast", fast))}  # fmt: skip
        assert early(fast_path) == 1
    for answers_of in answers.values():
        assert [refused(a) for a in answers_of] == [False, False, False, True, True]
    assert [seconds_free(a) for a in answers["fast"]] == [seconds_free(a) for a in answers["slow"]]


def test_a_kept_answer_the_catalog_no_longer_backs_is_recomputed_and_charged_once(
    catalog: RunningCatalog,
) -> None:
    """The search entries expire (1 minute) while the remembered result is still held (1 hour):
    the fast path charges the search, finds the entries gone, and hands the call on; the
    framework computes it afresh from the upstream and does not charge it again."""
    settings = replace(settings_for(catalog), semantic_limit=3)
    body, headers = semantic({"query": "expiry probe", "mode": "semantic"})
    clock = Clock()
    with pair(settings, clock) as (_, fast, fast_path):
        assert [refused(answer(fast, body, headers)) for _ in range(2)] == [False, False]
        assert len(fast_path.kept.entries) == 1
        clock.now += 120
        before = catalog.stats.total()
        assert not refused(answer(fast, body, headers))
        assert catalog.stats.total() > before, "computed afresh from the upstream"
        assert early(fast_path) == 0 and not fast_path.kept.entries
        assert refused(answer(fast, body, headers)), "three calls spent three searches"


def test_the_request_budget_counts_answers_from_the_fast_path(catalog: RunningCatalog) -> None:
    settings = replace(settings_for(catalog), request_limit=4)
    body, headers = legacy(
        "get_paper_info", MEASURED["get_paper_info"], 1, "2025-11-25", ACCEPTS[0]
    )
    with pair(settings) as (slow, fast, fast_path):
        statuses = {name: [http.post("/mcp", content=body, headers=headers).status_code
                           for _ in range(5)]
                    for name, http in (("slow", slow), ("fast", fast))}  # fmt: skip
        assert early(fast_path) == 2
    assert statuses["fast"] == statuses["slow"] == [200, 200, 200, 200, 429]


def test_answers_are_kept_in_bounded_memory(servers) -> None:
    kept = servers[2].kept
    assert len(kept.entries) <= kept.max_entries and kept.bytes <= kept.max_bytes
    assert kept.bytes == sum(size for _, size in kept.entries.values())
