"""read_paper: chunked reading with signed continuation cursors, against the sample catalog."""

from __future__ import annotations

import secrets
from typing import Any

import httpx
import pytest
from fastmcp import Client

from pwc_mcp.cursors import CursorCodec
from pwc_mcp.sample import RunningCatalog
from pwc_mcp.server import build_server
from tests.helpers.mcp import call, error_of, make_service

pytestmark = pytest.mark.anyio


def stored_markdown(sample: RunningCatalog, reference: str) -> bytes:
    path = reference.replace("/", "%2F")
    return httpx.get(f"{sample.url}/research/papers/{path}/read").content


async def read_all(client: Client, first: str, then: str | None = None) -> tuple[bytes, int]:
    """Follow next_cursor to the end; returns the reassembled bytes and the number of calls."""
    structured, _ = await call(client, "read_paper", paper=first)
    parts = [structured["data"]["markdown"].encode()]
    calls = 1
    while structured.get("truncated"):
        structured, _ = await call(
            client, "read_paper", paper=then or first, cursor=structured["next_cursor"]
        )
        parts.append(structured["data"]["markdown"].encode())
        calls += 1
    assert "next_cursor" not in structured, "the last chunk has no cursor"
    return b"".join(parts), calls


async def test_long_paper_reassembles_byte_for_byte(client: Client, sample: RunningCatalog) -> None:
    whole, calls = await read_all(client, "1706.03762")
    assert whole == stored_markdown(sample, "1706.03762")
    assert calls >= 4, "a 200+ KiB paper takes several 64 KiB chunks"


async def test_each_call_reads_at_most_64_kib_once(client: Client, sample: RunningCatalog) -> None:
    sample.stats.reset()
    structured, text = await call(client, "read_paper", paper="1706.03762")
    assert len(structured["data"]["markdown"].encode()) <= 65_536
    assert sample.stats.requests.get("research/papers/1706.03762/read") == 1
    assert text.startswith(structured["data"]["markdown"][:100])
    assert text.endswith(f'cursor="{structured["next_cursor"]}"')


@pytest.mark.parametrize("reference", ["hep-th/9711200", "904512", "48213"])
async def test_legacy_and_numeric_ids_across_chunks(sample: RunningCatalog, reference: str) -> None:
    server = build_server(make_service(sample.url, cached=False, chunk_limit=512))
    async with Client(server) as client:
        whole, calls = await read_all(client, reference)
    canonical = "1706.03762" if reference == "48213" else reference
    assert whole == stored_markdown(sample, canonical) and calls > 1


async def test_alias_continuation_and_a_foreign_paper(sample: RunningCatalog) -> None:
    server = build_server(make_service(sample.url, cached=False, chunk_limit=50_000))
    async with Client(server) as client:
        whole, _ = await read_all(client, "1706.03762", then="48213")
        assert whole == stored_markdown(sample, "1706.03762")
        first, _ = await call(client, "read_paper", paper="Attention Is All You Need")
        text = await error_of(client, "read_paper", paper="1810.04805", cursor=first["next_cursor"])
        assert text.startswith("invalid_argument: continuation cursor belongs to a different paper")


async def test_content_change_mid_read_says_restart(client: Client, sample: RunningCatalog) -> None:
    original = stored_markdown(sample, "1706.03762").decode()
    first, _ = await call(client, "read_paper", paper="1706.03762")
    try:
        sample.store.set_markdown("1706.03762", original + "\n\nErratum.\n")
        text = await error_of(client, "read_paper", paper="1706.03762", cursor=first["next_cursor"])
        assert text.startswith("paper_changed: paper changed; restart reading from the beginning")
    finally:
        sample.store.set_markdown("1706.03762", original)


async def test_continuations_are_cached_by_content_version(sample: RunningCatalog) -> None:
    server = build_server(make_service(sample.url, cached=False))
    async with Client(server) as client:
        first, _ = await call(client, "read_paper", paper="1706.03762")
        sample.stats.reset()
        for _ in range(3):
            await call(client, "read_paper", paper="1706.03762", cursor=first["next_cursor"])
    assert sample.stats.requests.get("research/papers/1706.03762/read") == 1


def _server_with(
    sample: RunningCatalog, current: bytes, previous: bytes | None = None, clock: Any = None
) -> Any:
    service = make_service(sample.url, cached=False)
    service.cursors = CursorCodec(current, previous, **({"clock": clock} if clock else {}))
    return build_server(service)


async def test_key_rotation(sample: RunningCatalog) -> None:
    old, new, unknown = (secrets.token_bytes(32) for _ in range(3))
    async with Client(_server_with(sample, old)) as client:
        first, _ = await call(client, "read_paper", paper="1706.03762")
    async with Client(_server_with(sample, new, previous=old)) as client:
        second, _ = await call(
            client, "read_paper", paper="1706.03762", cursor=first["next_cursor"]
        )
        assert second["offset"] == first["offset"] + len(first["data"]["markdown"].encode())
    async with Client(_server_with(sample, unknown, previous=new)) as client:
        text = await error_of(client, "read_paper", paper="1706.03762", cursor=first["next_cursor"])
        assert text.startswith("invalid_argument: invalid continuation cursor")


async def test_expired_cursor(sample: RunningCatalog) -> None:
    now = [1_000_000.0]
    key = secrets.token_bytes(32)
    async with Client(_server_with(sample, key, clock=lambda: now[0])) as client:
        first, _ = await call(client, "read_paper", paper="1706.03762")
        now[0] += 3601
        text = await error_of(client, "read_paper", paper="1706.03762", cursor=first["next_cursor"])
        assert text.startswith("invalid_argument: expired continuation cursor")


@pytest.mark.parametrize(
    "mangle",
    [
        lambda c: c[:-1] + ("A" if c[-1] != "A" else "B"),
        lambda c: c[: len(c) // 2],
        lambda c: "x" + c,
        lambda c: "%%%private%%%",
    ],
)
async def test_tampered_cursors_are_refused(client: Client, sample: RunningCatalog, mangle) -> None:
    first, _ = await call(client, "read_paper", paper="1706.03762")
    sample.stats.reset()
    text = await error_of(
        client, "read_paper", paper="1706.03762", cursor=mangle(first["next_cursor"])
    )
    assert text.startswith("invalid_argument: invalid continuation cursor")
    assert "omit cursor" in text
    assert sample.stats.total() == 0, "a bad cursor needs no upstream request"


async def test_oversized_cursor_is_refused(client: Client) -> None:
    text = await error_of(client, "read_paper", paper="1706.03762", cursor="a" * 2049)
    assert text.startswith("invalid_argument: cursor: ")


async def test_no_markdown_and_outside_catalog(client: Client) -> None:
    assert (await error_of(client, "read_paper", paper="1512.00567")).startswith(
        ("no_markdown: ", "not_found: ")
    )
    text = await error_of(client, "read_paper", paper="2501.12948")
    assert text.startswith("not_found: Paper not in the catalog: 2501.12948")
    assert "https://arxiv.org/abs/2501.12948" in text


async def test_chunk_cache_holds_what_its_byte_ceiling_counts(sample: RunningCatalog) -> None:
    service = make_service(sample.url, cached=False)
    async with Client(build_server(service)) as client:
        whole, calls = await read_all(client, "1706.03762")
    assert service.chunks.entries == calls
    assert service.chunks.bytes == len(whole), "accounted bytes are the UTF-8 bytes"
    held = [entry[0] for entry in service.chunks._store.values()]  # (value, size)
    assert held and all(isinstance(value[0], bytes) for value in held)


async def test_a_cached_chunk_that_does_not_continue_is_read_again(sample: RunningCatalog) -> None:
    """Attack: a chunk in the cache (a shared one: any process holding the key can write it)
    whose next offset is not right after its body. It is a miss, never the cursor's source."""
    service = make_service(sample.url, cached=False)
    async with Client(build_server(service)) as client:
        first, _ = await call(client, "read_paper", paper="1706.03762")
        (key,) = service.chunks._store
        body, truncated, following, version = service.chunks.get(key)
        assert truncated and following == len(body)
        service.chunks.set(key, (body, truncated, following + 7, version), len(body))
        # the continuation's cursor must come from a checked chunk: the first page read again
        again, _ = await call(client, "read_paper", paper="1706.03762")
    assert again["data"]["markdown"] == first["data"]["markdown"]
    assert service.chunks.get(key)[2] == following
