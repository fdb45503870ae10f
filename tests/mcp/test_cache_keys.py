"""Cache keys are injective: two different upstream requests never share a key.

"Different" is judged on the wire: the path and query `CatalogClient` actually sends (httpx's own
encoding, captured by a MockTransport), so the property holds for whatever httpx does with
`&`, `=`, `?`, `#`, `%`, `+`, slashes and unicode.
"""

from __future__ import annotations

from typing import Any

import httpx
from hypothesis import example, given, settings
from hypothesis import strategies as st

from pwc_core.transport import CatalogClient, canonical_request, encode_params
from pwc_mcp.caching import shared_cache
from pwc_mcp.caching.cache import ttl_family
from pwc_mcp.caching.shared_cache import SharedCache, cache_secret

_SENT: list[bytes] = []


def _record(request: httpx.Request) -> httpx.Response:
    _SENT.append(request.url.raw_path)  # path and query as on the wire; a fragment never is
    return httpx.Response(200, json={})


CLIENT = CatalogClient(
    "http://catalog.test/api/v1", http=httpx.Client(transport=httpx.MockTransport(_record))
)


def sent(path: str, params: dict[str, Any]) -> bytes | None:
    """The request line target `CatalogClient.get` sends, or None if httpx refuses the URL."""
    _SENT.clear()
    try:
        CLIENT.get(path, params)
    except httpx.InvalidURL:
        return None
    return _SENT[-1]


def key(path: str, params: dict[str, Any]) -> str:
    return canonical_request(path, encode_params(params))  # what CachedCatalog keys on


# Few symbols, many separators: naive joins collide quickly on these.
tricky = st.text(alphabet="ab&=?#%+/ é\u4e2d;2F", max_size=5)
anything = st.text(max_size=8)  # any unicode except surrogates
text = st.one_of(tricky, anything)
value = st.one_of(text, st.lists(text, max_size=3), st.integers(), st.booleans(), st.none())
path = st.one_of(tricky, anything, st.lists(text, max_size=3).map("/".join))
request = st.tuples(path, st.dictionaries(text, value, max_size=4))

ATTACKS = [
    (  # search_papers: a filter smuggled inside the query text
        ("papers/search", {"q": "vision transformer&start_date=2021-01-01", "mode": "keyword"}),
        (
            "papers/search",
            {"q": "vision transformer", "mode": "keyword", "start_date": "2021-01-01"},
        ),
    ),
    (  # list_benchmarks: a task filter smuggled inside the search text
        ("datasets/", {"q": "net&task=image-classification", "ordering": "name"}),
        ("datasets/", {"q": "net", "task": "image-classification", "ordering": "name"}),
    ),
    (("tasks/", {}), ("tasks", {})),  # trailing slash: another route upstream
    (("p", {"a": "b=c"}), ("p", {"a=b": "c"})),
    (("p?a=b", {}), ("p", {"a": "b?"})),
]


@settings(max_examples=400, deadline=None)
@given(st.lists(request, min_size=2, max_size=6))
@example([req for pair in ATTACKS for req in pair])
def test_a_key_never_stands_for_two_different_requests(
    requests: list[tuple[str, dict[str, Any]]],
) -> None:
    owner: dict[str, bytes] = {}
    for path_, params in requests:
        wire = sent(path_, params)
        if wire is None:
            continue
        previous = owner.setdefault(key(path_, params), wire)
        assert previous == wire, f"one key for {previous!r} and {wire!r}"


def test_the_reported_cases_are_different_requests_with_different_keys() -> None:
    for (path_a, params_a), (path_b, params_b) in ATTACKS:
        assert sent(path_a, params_a) != sent(path_b, params_b)
        assert key(path_a, params_a) != key(path_b, params_b)


# -- level 2: the names in Redis -------------------------------------------------------------

NAMES = SharedCache(
    None, cache_secret(b"replica-shared-secret-0123456789abcdef"), max_value_bytes=1
)


def shared_name(path: str, params: dict[str, Any]) -> str:
    return NAMES.name("answer", ttl_family(path), "json:" + key(path, params))


@settings(max_examples=400, deadline=None)
@given(st.lists(request, min_size=2, max_size=6))
@example([req for pair in ATTACKS for req in pair])
def test_a_shared_name_never_stands_for_two_different_requests(
    requests: list[tuple[str, dict[str, Any]]],
) -> None:
    """The same property one level down: the name a replica gives an answer in Redis (a keyed
    hash of the key above, under the payload format's version) is one request's only."""
    owner: dict[str, bytes] = {}
    for path_, params in requests:
        wire = sent(path_, params)
        if wire is None:
            continue
        name = shared_name(path_, params)
        assert name.startswith(f"pwc-mcp:answer:v{shared_cache.FORMAT}:")
        previous = owner.setdefault(name, wire)
        assert previous == wire, f"one shared name for {previous!r} and {wire!r}"


def test_shared_names_change_with_the_payload_format(monkeypatch) -> None:
    before = {shared_name(path_, params) for pair in ATTACKS for path_, params in pair}
    monkeypatch.setattr(shared_cache, "FORMAT", shared_cache.FORMAT + 1)
    after = {shared_name(path_, params) for pair in ATTACKS for path_, params in pair}
    assert len(before) == len(after) == 2 * len(ATTACKS) and not before & after
    assert all(f":v{shared_cache.FORMAT}:" in name for name in after)
