"""Issue #37 item 1, did-you-mean in bounded work. The attack: a 500-character made-up name
(three common words, then nonsense words) given to `get_task`, `get_method` or `get_benchmark`
cost 1.6-1.7 s of server CPU per call (7.9 s against long catalog names), and every repeat the
same: each candidate was scored again after every lookup and once more to rank it, one difflib
comparison per typed word per name word. Now a ranking's comparisons are bounded whatever the
name's length and the catalog's names and pages, and a not-found is remembered like an answer.

The work is counted, never timed: every difflib comparison a ranking makes goes through
`pwc_core.suggest._ratio`, wrapped here (the real one still answers). The worst inputs are the
bench's (`python -m bench.suggestions` times them against the 0.3 s target)."""

from __future__ import annotations

import secrets
from collections.abc import AsyncIterator, Iterator

import pytest
from fastmcp import Client

import pwc_core.suggest
from bench.suggestions import attack_name, worst
from pwc_core.suggest import MAX_CANDIDATES, MAX_COMPARISONS, MAX_TEXT, normal, suggestions
from pwc_core.transport import CatalogClient
from pwc_core.values import MAX_TEXT as MAX_ARGUMENT
from pwc_mcp.caching.cache import FAMILIES, CachedCatalog, ChunkCache
from pwc_mcp.catalog import CatalogService
from pwc_mcp.cursors import CursorCodec
from pwc_mcp.sample import RunningCatalog
from pwc_mcp.server import build_server
from tests.helpers.mcp import Answers, call, error_of, make_service

Compared = list[tuple[str, str]]
# at most: the words' typo checks, and one whole-text comparison per candidate
BOUND = MAX_COMPARISONS + MAX_CANDIDATES


@pytest.fixture
def compared(monkeypatch: pytest.MonkeyPatch) -> Iterator[Compared]:
    """Every pair of texts pwc_core.suggest compares (difflib), in order."""
    pairs: Compared = []
    ratio = pwc_core.suggest._ratio

    def counted(a: str, b: str) -> float:
        pairs.append((a, b))
        return ratio(a, b)

    monkeypatch.setattr(pwc_core.suggest, "_ratio", counted)
    yield pairs


# --- the ranking itself: the worst inputs ---------------------------------------------------


@pytest.mark.parametrize(
    ("typed_length", "name_length", "page_rows"),
    [
        (MAX_ARGUMENT, 20_000, 125),  # the bench's worst: 4 lookups of the costliest names
        (MAX_ARGUMENT, 20_000, 2_000),  # pages far fuller than asked
        (40, 20_000, 2_000),
        (MAX_ARGUMENT, 40, 125),
    ],
)
def test_a_ranking_costs_bounded_work_whatever_the_lengths(
    compared: Compared, typed_length: int, name_length: int, page_rows: int
) -> None:
    typed, page = worst(typed_length, name_length, page_rows)
    asked: list[str] = []

    def search(query: str) -> list[str]:
        asked.append(query)
        return page(len(asked))

    assert suggestions(typed, page(0), search)  # still an answer
    assert len(compared) <= BOUND
    assert max(max(len(a), len(b)) for a, b in compared) <= MAX_TEXT
    whole = [b for a, b in compared if " " in a]  # a word has no space, a whole text does
    assert len(set(whole)) == len(whole) == MAX_CANDIDATES  # the most ranked, each once


def test_each_candidate_is_scored_once_across_lookups(compared: Compared) -> None:
    # Before: every candidate's words were compared again after each lookup and once more to
    # rank it (4,300 comparisons here, where 106 suffice).
    names = [f"Image Classification Variant {i}" for i in range(100)]
    searches = iter([names, names, names])
    suggestions("imagee clasification xyzzy", [], lambda query: next(searches))
    assert next(searches, None) is None  # three lookups, each candidate in all three
    assert len(compared) == len(set(compared))  # no two texts compared twice
    whole = [b for a, b in compared if " " in a]
    assert sorted(whole) == sorted(normal(name) for name in names)


# --- through the tools: the attack as it landed -------------------------------------------

pytestmark = pytest.mark.anyio

# (tool, its name argument, three words common in the sample catalog's names of its kind)
TOOLS = [
    ("get_task", "task", "image classification segmentation"),
    ("get_method", "method", "transformer attention network"),
    ("get_benchmark", "benchmark", "english german treebank"),
]


@pytest.fixture
async def fresh(sample: RunningCatalog) -> AsyncIterator[Client]:
    async with Client(build_server(make_service(sample.url))) as connected:
        yield connected


@pytest.mark.parametrize(("tool", "argument", "words"), TOOLS)
async def test_the_attack_costs_bounded_work_and_a_repeat_none(
    fresh: Client, sample: RunningCatalog, compared: Compared, tool: str, argument: str, words: str
) -> None:
    name = attack_name(words)
    first = await error_of(fresh, tool, **{argument: name})
    assert first.startswith("not_found: ") and "closest results: " in first
    assert 0 < len(compared) <= BOUND
    compared.clear()
    before = sample.stats.total()
    again = await error_of(fresh, tool, **{argument: name})
    assert again == first
    assert compared == []  # no ranking work
    assert sample.stats.total() == before  # nor a catalog request


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


async def test_a_remembered_not_found_lasts_as_long_as_the_lookups_it_came_from(
    upstream: tuple[str, Answers],
) -> None:
    url, answers = upstream
    answers.by_path.clear()
    clock = Clock()
    transport = CachedCatalog(CatalogClient(url, timeout=25.0), clock=clock)
    service = CatalogService(transport, CursorCodec(secrets.token_bytes(32)), ChunkCache())
    answers.by_path["methods/"] = (200, {"count": 1, "results": [{"id": 1, "name": "Alpha Net"}]})
    answers.by_path["areas/"] = (200, {"count": 0, "results": []})
    answers.by_path["methods/1"] = (200, {"id": 1, "name": "Alpha Nte"})
    async with Client(build_server(service)) as client:
        missed = await error_of(client, "get_method", method="Alpha Nte")
        assert missed == "not_found: Method not found: Alpha Nte; closest results: Alpha Net"
        renamed = [{"id": 1, "name": "Alpha Nte"}]
        answers.by_path["methods/"] = (200, {"count": 1, "results": renamed})
        clock.now += FAMILIES["taxonomy"][0] - 1  # the lookup is still cached: so is its miss
        assert await error_of(client, "get_method", method="Alpha Nte") == missed
        clock.now += 2  # expired: the catalog is asked again, and now holds the name
        structured, _ = await call(client, "get_method", method="Alpha Nte")
        assert structured["data"]["method"]["name"] == "Alpha Nte"


async def test_a_not_found_from_a_catalog_404_is_asked_again(
    fresh: Client, sample: RunningCatalog
) -> None:
    # A 404 is no cache entry: nothing tells when the record might appear, so it is not kept.
    first = await error_of(fresh, "get_method", method="987654")
    assert first.startswith("not_found: ")
    before = sample.stats.total()
    assert await error_of(fresh, "get_method", method="987654") == first
    assert sample.stats.total() > before
