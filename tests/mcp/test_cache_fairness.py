"""Fair shares of the server's caches (issue #24.2): one client's burst of new work cannot empty
the caches for everyone else. A call adds at most a share of each cache (`reading()`), and a new
key displaces only entries looked up less often than it (pwc_mcp/caching/bounded_cache.py)."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping
from typing import Any

import pytest
from fastmcp import Client

from pwc_core.transport import Reply
from pwc_mcp.caching.cache import CachedCatalog, ChunkCache
from pwc_mcp.server import build_server
from tests.helpers.mcp import call, make_service
from tests.mcp.scripted_catalog import Scripted, serving

BOARD = {"page": 1, "page_size": 100, "ordering": "best_rank"}


class Upstream:
    """The catalog client's `get`, answering a small list page for any path, counted."""

    def __init__(self) -> None:
        self.calls: Counter[str] = Counter()

    def get(self, path: str, params: Mapping[str, Any] | None = None) -> Reply:
        self.calls[path] += 1
        body = {"count": 1, "results": [{"id": path, "name": "x" * 200}]}
        return Reply(200, {"content-type": "application/json"}, json.dumps(body).encode())

    def total(self) -> int:
        return sum(self.calls.values())


# The attacks below are sized for this ceiling (the general family's 8/16 of it: 256 entries);
# the default is larger (pwc_mcp/caching/families.py), and the mechanics are the same.
ENTRIES = 512


def catalog_over(upstream: Upstream) -> CachedCatalog:
    return CachedCatalog(upstream, max_entries=ENTRIES)  # type: ignore[arg-type]  # only `get` is used


def victim_calls(catalog: CachedCatalog) -> None:
    """Twelve answers someone else relies on, one call each."""
    for n in range(12):
        with catalog.reading():
            catalog.get_json(f"papers/{n}")


def against_sota_call(catalog: CachedCatalog, paper: int) -> None:
    """What `against_sota` on a paper with results on 25 leaderboards reads: 45 new pages."""
    with catalog.reading():
        for board in range(45):
            catalog.get_json(f"datasets/{paper}{board:02d}/evaluations/", BOARD)


def test_six_against_sota_calls_leave_a_victims_answers_cached() -> None:
    upstream = Upstream()
    catalog = catalog_over(upstream)
    victim_calls(catalog)
    before = upstream.total()
    for paper in range(1, 7):  # 270 new pages: more than the 256 entries of the cache
        against_sota_call(catalog, paper)
    assert upstream.total() == before + 6 * 45  # every page was read and served
    victim_calls(catalog)
    assert upstream.total() == before + 6 * 45  # and the victim's twelve answers cost nothing


def test_one_call_adds_at_most_its_share_and_the_rest_is_served_uncached() -> None:
    upstream = Upstream()
    catalog = catalog_over(upstream)
    general = catalog.caches["general"]
    share = general.max_entries // 16
    with catalog.reading() as reads:
        answers = [
            catalog.get_json(f"datasets/{n}/evaluations/", BOARD)["results"][0]["id"]
            for n in range(45)
        ]
    assert answers == [f"datasets/{n}/evaluations/" for n in range(45)]
    assert general.entries == share == 16 and general.over_budget == 45 - share
    assert not reads.cacheable  # a result made of answers not kept is not remembered either
    with catalog.reading():  # the same call again: its first 16 pages are hits
        for n in range(45):
            catalog.get_json(f"datasets/{n}/evaluations/", BOARD)
    assert upstream.total() == 45 + 45 - share and general.entries == 2 * share
    for n in range(45):  # outside a call (the CLI) nothing is held to a share
        catalog.get_json(f"datasets/{n}/evaluations/", BOARD)
    assert general.entries == 45


def test_a_burst_of_keys_seen_once_cannot_displace_entries_used_as_often() -> None:
    """No share applies here (the reads are outside any call): admission by frequency alone
    keeps the victim's answers, and a key asked for again still gets in."""
    upstream = Upstream()
    catalog = catalog_over(upstream)
    victim_calls(catalog)
    for n in range(600):  # twice the cache's 256 entries, each key once
        catalog.get_json(f"datasets/{n}/evaluations/", BOARD)
    before = upstream.total()
    victim_calls(catalog)
    assert upstream.total() == before
    general = catalog.caches["general"]
    assert general.entries == 256 and general.rejections == 600 - (256 - 12)
    for _ in range(2):  # a newcomer asked for twice is stored on its second read
        catalog.get_json("datasets/popular/evaluations/", BOARD)
    catalog.get_json("datasets/popular/evaluations/", BOARD)
    assert upstream.calls["datasets/popular/evaluations/"] == 2


def test_outlines_of_nine_long_papers_in_rotation_keep_most_of_the_chunk_cache_warm() -> None:
    """Nine outlines of 32 chunks of 64 KiB (18 MiB) through the 16 MiB chunk cache, in turn, as
    the server reads them (the first chunk by offset, the others by content version). Under
    plain LRU every round read all 288 chunks again."""
    chunks = ChunkCache()
    catalog = catalog_over(Upstream())
    chunk = b"x" * 65536

    def outline(paper: int) -> int:
        reads = 0
        with catalog.reading():
            for n in range(32):
                key = repr((f"p{paper}", "v" * 64, n * 65536, 65536))
                if n == 0 or chunks.get(key) is None:  # the first chunk names the version
                    reads += 1
                    chunks.set(key, chunk, len(chunk))
        return reads

    rounds = [sum(outline(paper) for paper in range(9)) for _ in range(3)]
    assert rounds[0] == 9 * 32
    assert rounds[1] <= 9 + 32 and rounds[2] <= 9 + 32, rounds  # most outlines cost one read
    assert chunks.bytes <= chunks.max_bytes and chunks.entries <= chunks.max_entries


# --- through the tools ------------------------------------------------------------------------

BOARDS = 25


def _catalog_answer(path: str, params: dict[str, str]) -> tuple[int, Any] | None:
    """Papers 2101.000NN with results on 25 leaderboards of 150 rows, two rows a page."""
    if path.startswith("papers/2101."):
        arxiv = path.removeprefix("papers/")
        return 200, {"id": str(int(arxiv[5:])), "arxiv_id": arxiv, "title": f"Paper {arxiv}"}
    if path == "evaluations/":
        paper = params["paper_id"]
        rows = [_row(paper, f"{paper}{k:02d}", k + 1) for k in range(BOARDS)]
        return 200, {"count": len(rows), "next_page": None, "results": rows}
    if path.startswith("datasets/"):
        dataset = path.split("/")[1]
        page = int(params.get("page", "1"))
        rows = [_row(str(n), dataset, 2 * page - 1 + n) for n in range(2)]
        return 200, {"count": 150, "next_page": page + 1, "results": rows}
    return None


def _row(paper: str, dataset: str, rank: int) -> dict[str, Any]:
    return {
        "id": f"{paper}-{dataset}-{rank}",
        "paper_id": paper,
        "dataset_id": dataset,
        "dataset_name": f"Bench {dataset}",
        "model_name": f"Model {paper}",
        "task_id": "7",
        "task_name": "Task",
        "metrics": {"Accuracy": 90.0 - rank},
        "best_metric": "Accuracy",
        "best_rank": rank,
    }


@pytest.mark.anyio
async def test_a_victims_tool_results_survive_a_burst_of_against_sota_calls() -> None:
    scripted = Scripted(dynamic=_catalog_answer)
    with serving(scripted) as url:
        async with Client(build_server(make_service(url))) as client:

            async def victim() -> None:  # six papers' evaluations: twelve cached answers
                for n in range(1, 7):
                    await call(client, "get_paper_evaluations", paper=f"2101.{n:05d}")

            await victim()
            for n in range(100, 120):  # 20 papers, each 47 requests
                await call(
                    client, "get_paper_evaluations", paper=f"2101.{n:05d}", against_sota=True
                )
            before = scripted.total()
            assert before >= 20 * 47
            await victim()
            assert scripted.total() == before
