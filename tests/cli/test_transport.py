"""Transport: URL joining, headers, query encoding, the 2 MiB bound and the error classes."""

from __future__ import annotations

import datetime as dt
import threading

import httpx
import pytest
import respx

from pwc_core import __version__
from pwc_core.errors import HTTPStatusError, ResponseError, TransportError, UpstreamTimeout
from pwc_core.transport import (
    MAX_RESPONSE_BYTES,
    CatalogClient,
    canonical_request,
    encode_params,
    entity_segment,
    paper_segment,
)

BASE = "https://catalog.test/api/v1"


def test_base_url_from_environment_and_explicit_override(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PWC_API_URL", "http://env.test/api/v1/")
    assert CatalogClient().url("/papers/search") == "http://env.test/api/v1/papers/search"
    assert CatalogClient("http://explicit.test/x/").url("tasks/") == "http://explicit.test/x/tasks/"
    monkeypatch.delenv("PWC_API_URL")
    assert CatalogClient().base_url == "https://paperswithcode.co/api/v1"


def test_encoding_rules() -> None:
    pairs = encode_params(
        {
            "q": "a b@c",
            "none": None,
            "yes": True,
            "no": False,
            "author": ["Kaiming He", "@x"],
            "d": dt.date(2020, 1, 2),
            "v": 1.0,
            "n": 3,
        }
    )
    assert pairs == (
        ("q", "a b@c"),
        ("yes", "true"),
        ("no", "false"),
        ("author", "Kaiming He"),
        ("author", "@x"),
        ("d", "2020-01-02"),
        ("v", "1.0"),
        ("n", "3"),
    )


def test_path_segments() -> None:
    assert paper_segment("math.GT/0309136") == "math.GT%2F0309136"
    assert entity_segment("image classification/x") == "image%20classification%2Fx"


def test_canonical_request_is_the_request_as_sent() -> None:
    # Injective (tests/mcp/test_cache_keys.py proves it): no separator in a value can forge a
    # parameter, and a trailing slash or another parameter order is another request.
    a = canonical_request("/papers/search/", encode_params({"q": "x", "page": 1}))
    assert a == canonical_request("papers/search/", (("q", "x"), ("page", "1")))
    assert a != canonical_request("papers/search", encode_params({"q": "x", "page": 1}))
    assert canonical_request("p", (("q", "x&page=1"),)) != canonical_request(
        "p", (("q", "x"), ("page", "1"))
    )


@respx.mock(base_url=BASE)
def test_headers_and_query_on_the_wire(respx_mock: respx.MockRouter) -> None:
    route = respx_mock.get("/papers/").respond(json={"results": []})
    CatalogClient(BASE).get_json("papers/", {"author": ["A B", "@c"], "latest_only": True})
    request = route.calls.last.request
    assert request.headers["accept"] == "application/json, text/plain;q=0.9"
    assert request.headers["user-agent"] == f"pwc-cli/{__version__}"
    assert "authorization" not in request.headers
    assert request.url.query == b"author=A+B&author=%40c&latest_only=true"


@respx.mock(base_url=BASE)
def test_credential_only_when_given(respx_mock: respx.MockRouter) -> None:
    route = respx_mock.get("/x").respond(json={})
    CatalogClient(BASE, credential="s3cret").get_json("x")
    assert route.calls.last.request.headers["authorization"] == "Bearer s3cret"


@respx.mock(base_url=BASE)
def test_status_error_carries_status_and_bounded_detail(respx_mock: respx.MockRouter) -> None:
    respx_mock.get("/big").respond(500, text="x" * 10_000)
    with pytest.raises(HTTPStatusError) as info:
        CatalogClient(BASE).get("big")
    assert info.value.status == 500 and len(info.value.detail) == 4096
    assert str(info.value).startswith("API request failed (500): xxx")
    assert info.value.exit_code == 3


@respx.mock(base_url=BASE)
def test_network_failure_and_timeout(respx_mock: respx.MockRouter) -> None:
    respx_mock.get("/down").mock(side_effect=httpx.ConnectError("Connection refused"))
    respx_mock.get("/slow").mock(side_effect=httpx.ReadTimeout("read timed out"))
    with pytest.raises(TransportError, match="API request failed: Connection refused"):
        CatalogClient(BASE).get("down")
    with pytest.raises(UpstreamTimeout, match="API request failed: timed out") as info:
        CatalogClient(BASE).get("slow")
    assert info.value.exit_code == 3


@respx.mock(base_url=BASE)
def test_invalid_json_and_utf8(respx_mock: respx.MockRouter) -> None:
    respx_mock.get("/bad").respond(text="{nope")
    respx_mock.get("/latin").respond(content=b'{"a": "\xff"}')
    with pytest.raises(ResponseError, match="API returned invalid JSON"):
        CatalogClient(BASE).get_json("bad")
    with pytest.raises(ResponseError, match="API returned invalid JSON"):
        CatalogClient(BASE).get_json("latin")


@pytest.mark.parametrize("announce", [True, False])
@respx.mock(base_url=BASE)
def test_two_mib_plus_one_is_refused(respx_mock: respx.MockRouter, announce: bool) -> None:
    body = b"a" * (MAX_RESPONSE_BYTES + 1)
    if announce:
        respx_mock.get("/big").respond(content=body)
    else:
        respx_mock.get("/big").respond(stream=httpx.ByteStream(body), headers={})
    with pytest.raises(ResponseError, match="API response exceeded the client byte limit"):
        CatalogClient(BASE).get("big")


@respx.mock(base_url=BASE)
def test_exactly_two_mib_is_accepted(respx_mock: respx.MockRouter) -> None:
    respx_mock.get("/edge").respond(content=b"a" * MAX_RESPONSE_BYTES)
    assert len(CatalogClient(BASE).get("edge").body) == MAX_RESPONSE_BYTES


def test_streamed_read_stops_early_without_content_length() -> None:
    produced = []

    def chunks():
        for _ in range(100):
            produced.append(1)
            yield b"b" * 65536

    def app(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, stream=_Iter(chunks()))

    client = CatalogClient(BASE, http=httpx.Client(transport=httpx.MockTransport(app)))
    with pytest.raises(ResponseError):
        client.get("x")
    assert len(produced) <= MAX_RESPONSE_BYTES // 65536 + 2


class _Iter(httpx.SyncByteStream):
    def __init__(self, it):
        self.it = it

    def __iter__(self):
        yield from self.it


@respx.mock(base_url=BASE)
def test_client_is_shared_across_threads(respx_mock: respx.MockRouter) -> None:
    respx_mock.get("/ok").respond(json={"ok": True})
    client = CatalogClient(BASE)
    results: list[object] = []
    threads = [
        threading.Thread(target=lambda: results.append(client.get_json("ok"))) for _ in range(8)
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == [{"ok": True}] * 8
