"""Transport: content codings decoded under the 2 MiB bound, and path segments that stay one.

The memory side of the decompression bomb (peak RSS stays flat) is measured in a clean process
by tests/safety/test_decompression_bomb.py; here are the answers the client gives.
"""

from __future__ import annotations

import gzip
import zlib
from collections.abc import Callable

import httpx
import pytest
import respx

from pwc_core.decoding import Zlib, read_decoded
from pwc_core.errors import HTTPStatusError, ResponseError, UsageError
from pwc_core.transport import MAX_RESPONSE_BYTES, CatalogClient, entity_segment, paper_segment
from pwc_mcp.sample import RunningCatalog

BASE = "https://catalog.test/api/v1"
JSON = b'{"count": 1, "results": [{"id": "1"}]}'


def _encoded(body: bytes, coding: str, status: int = 200) -> CatalogClient:
    """A client whose upstream answers these raw bytes (respx would decode them itself)."""

    def answer(request: httpx.Request) -> httpx.Response:
        headers = {"content-encoding": coding}
        return httpx.Response(status, stream=httpx.ByteStream(body), headers=headers)

    return CatalogClient(BASE, http=httpx.Client(transport=httpx.MockTransport(answer)))


def _deflate_raw(data: bytes) -> bytes:
    packer = zlib.compressobj(9, zlib.DEFLATED, -zlib.MAX_WBITS)
    return packer.compress(data) + packer.flush()


@pytest.mark.parametrize(
    ("coding", "body"),
    [
        ("gzip", gzip.compress(JSON)),
        ("x-gzip", gzip.compress(JSON)),
        ("deflate", zlib.compress(JSON)),
        ("deflate", _deflate_raw(JSON)),  # raw deflate, as some servers send it
        ("identity", JSON),
        ("gzip, identity", gzip.compress(JSON)),
    ],
)
def test_supported_codings_decode(coding: str, body: bytes) -> None:
    client = _encoded(body, coding)
    assert client.get("x").body == JSON


@pytest.mark.parametrize("coding", ["gzip, gzip", "deflate, gzip", "gzip,deflate,gzip"])
def test_stacked_content_codings_are_refused(coding: str) -> None:
    body = JSON
    for layer in [c.strip() for c in coding.split(",")]:  # applied in the order listed
        body = gzip.compress(body) if layer == "gzip" else zlib.compress(body)
    client = _encoded(body, coding)
    with pytest.raises(ResponseError, match="stacked content encodings"):
        client.get("x")


def test_unsupported_coding_is_refused_not_passed_through() -> None:
    client = _encoded(b"\x8b\x00garbage", "br")
    with pytest.raises(ResponseError, match="unsupported content encoding"):
        client.get("x")


@respx.mock(base_url=BASE)
def test_only_decodable_codings_are_asked_for(respx_mock: respx.MockRouter) -> None:
    route = respx_mock.get("/x").respond(json={})
    CatalogClient(BASE).get("x")
    assert route.calls.last.request.headers["accept-encoding"] == "gzip, deflate"


def test_corrupt_gzip_is_a_response_error() -> None:
    body = gzip.compress(JSON)[:10] + b"\x00" * 40
    client = _encoded(body, "gzip")
    with pytest.raises(ResponseError, match="invalid compressed body"):
        client.get("x")


@pytest.mark.parametrize("size", [MAX_RESPONSE_BYTES, MAX_RESPONSE_BYTES + 1])
def test_the_bound_counts_decoded_bytes(size: int) -> None:
    client = _encoded(gzip.compress(b"a" * size), "gzip")
    if size > MAX_RESPONSE_BYTES:
        with pytest.raises(ResponseError, match="exceeded the client byte limit"):
            client.get("x")
    else:
        assert len(client.get("x").body) == size


def test_one_compressed_chunk_never_inflates_past_the_room_left() -> None:
    # 64 MiB of zeros is one 64 KiB raw chunk: httpx would inflate it whole.
    raw = gzip.compress(bytes(64 << 20))
    assert len(Zlib(zlib.MAX_WBITS | 16).decode(raw, 1000)) == 1001
    with pytest.raises(ResponseError, match="exceeded the client byte limit"):
        read_decoded([raw], "gzip", MAX_RESPONSE_BYTES)


def test_raw_bytes_are_bounded_even_when_they_decode_to_nothing() -> None:
    # Empty stored blocks: every chunk decodes to zero bytes, forever.
    head = gzip.compress(b"")[:10]  # the gzip header alone
    empty_block = b"\x00\x00\x00\xff\xff"  # a non-final stored block of length 0
    chunks = iter([head] + [empty_block * 4096] * 10_000)
    with pytest.raises(ResponseError, match="exceeded the client byte limit"):
        read_decoded(chunks, "gzip", 1 << 20)
    assert next(chunks, None) is not None  # stopped early, not at the end of the stream


def test_error_detail_is_decoded_and_bounded() -> None:
    body = gzip.compress(b'{"detail": "' + b"z" * (8 << 20) + b'"}')
    client = _encoded(body, "gzip", 500)
    with pytest.raises(HTTPStatusError) as info:
        client.get("x")
    assert info.value.status == 500
    assert info.value.detail.startswith('{"detail": "zzz') and len(info.value.detail) == 4096


def test_error_detail_of_a_stacked_body_is_empty_not_decoded() -> None:
    body = gzip.compress(gzip.compress(b"secret upstream text"))
    client = _encoded(body, "gzip, gzip", 502)
    with pytest.raises(HTTPStatusError) as info:
        client.get("x")
    assert info.value.status == 502 and info.value.detail == ""


def test_the_sample_bomb_is_refused_over_loopback(sample: RunningCatalog) -> None:
    client = CatalogClient(sample.url)
    sample.faults.bomb(64 << 20, layers=2, path_prefix="tasks/")
    with pytest.raises(ResponseError, match="stacked content encodings"):
        client.get("tasks/")
    sample.faults.bomb(64 << 20, layers=1, path_prefix="tasks/")
    with pytest.raises(ResponseError, match="exceeded the client byte limit"):
        client.get("tasks/")
    assert client.get("tasks/").json()["results"]  # the pool is still usable afterwards


# --- path segments ------------------------------------------------------------------------

DOT_NAMES = [".", "..", "%2e", "%2E", "%2e%2E", ".%2e", "%252e%252e", "../tasks", "x/../..", ""]


@pytest.mark.parametrize("name", DOT_NAMES)
@pytest.mark.parametrize("segment", [paper_segment, entity_segment])
def test_dot_segments_are_refused(segment: Callable[[str], str], name: str) -> None:
    with pytest.raises(UsageError):
        segment(name)


def test_names_with_dots_that_are_not_segments_still_pass() -> None:
    assert paper_segment("1706.03762v5") == "1706.03762v5"
    assert paper_segment("hep-th/9711200") == "hep-th%2F9711200"
    assert entity_segment("...") == "..."
    assert entity_segment("a..b") == "a..b"
    assert entity_segment("%2e%2e%2ex") == "%252e%252e%252ex"


@pytest.mark.parametrize("name", ["..", "%2e%2e"])
def test_what_httpx_would_send_for_a_dot_segment(name: str) -> None:
    # Why refusing is needed: httpx resolves a literal `..`, and `%2e%2e` is the same
    # segment to any server that normalizes after decoding.
    raw = httpx.Request("GET", f"{BASE}/tasks/{name}/trending-benchmarks").url.raw_path
    assert raw in (b"/api/v1/trending-benchmarks", b"/api/v1/tasks/%2e%2e/trending-benchmarks")
