"""Fair snippet readers (#37): one client searching at its full rate cannot take another
client's snippets. The attack that landed: with records taking 0.5 s, one client searching once
a second left another's searches with [3, 0, 0] snippets instead of [3, 2, 4], from one
first-come pool of 5 readers and 30 places per process.

The reads here are held by a gate instead of a latency, so the tests never sleep: the attacker's
reads occupy every reader until the test opens the gate."""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable
from typing import Any

import pytest

from pwc_core import degraded
from pwc_mcp.caching.upstream import Account, charged_to
from pwc_mcp.tools import abstracts
from tests.helpers import wait_until

HOLD = 10.0  # a held read gives up after this: a hang, not a result


class Records:
    """Paper records whose reads are logged as (owner, path) when they start; the `held`
    owner's reads wait for `gate`."""

    def __init__(self) -> None:
        self.gate = threading.Event()
        self.started: list[tuple[str, str]] = []
        self.held_started = threading.Semaphore(0)
        self._lock = threading.Lock()

    def catalog(self, owner: str, *, held: bool) -> Any:
        records = self

        class Catalog:
            def get_json(self, path: str, params: Any = None) -> Any:
                with records._lock:
                    records.started.append((owner, path))
                if held:
                    records.held_started.release()
                    records.gate.wait(HOLD)
                return {"abstract": f"Abstract of {path}."}

        return Catalog()

    def owners_after(self, count: int) -> list[str]:
        with self._lock:
            return [owner for owner, _ in self.started[count:]]


def rows(prefix: str, count: int) -> list[dict[str, Any]]:
    return [{"id": f"{prefix}{n}", "arxiv_id": f"{prefix}.{n:05d}"} for n in range(count)]


def search(
    name: str, owner: str, catalog: Any, shown: list[dict[str, Any]], into: dict[str, Any]
) -> threading.Thread:
    """A thread that runs one search's snippets as `owner`'s call; its rows land in
    `into[name]`, with the reasons it was noted degraded."""

    def run() -> None:
        with charged_to(Account(owner)), degraded.watch() as reasons:
            into[name] = (abstracts.with_snippets(catalog, shown), reasons)

    thread = threading.Thread(target=run)
    thread.start()
    return thread


def waiting_for_its_reads(thread: threading.Thread) -> Callable[[], bool]:
    """Whether `thread` is waiting on a read's result: every read it asked for was queued or
    refused by then (the pool is the standard library's Future, whatever schedules it)."""

    def check() -> bool:
        frame = sys._current_frames().get(thread.ident or 0)  # noqa: SLF001 - a thread's stack
        while frame is not None:
            code = frame.f_code
            if code.co_name == "result" and code.co_filename.endswith("futures/_base.py"):
                return True
            frame = frame.f_back
        return False

    return check


def snippets(found: tuple[list[dict[str, Any]], list[str]]) -> int:
    return sum("snippet" in row for row in found[0])


@pytest.fixture
def records() -> Any:
    held = Records()
    yield held
    held.gate.set()


def test_a_client_filling_the_room_leaves_another_its_share(records: Records) -> None:
    """The attacker's two 25-row searches fill all 30 places (5 reading, 25 queued); the
    victim's 3-row search still gets its places (the attacker's newest queued reads give them
    up) and all 3 snippets, once a reader is free."""
    results: dict[str, Any] = {}
    attacker = records.catalog("attacker", held=True)
    searches = [
        search(f"attacker{n}", "attacker", attacker, rows(f"24{n}", 25), results) for n in range(2)
    ]
    for _ in range(abstracts.READERS):
        assert records.held_started.acquire(timeout=HOLD)
    for thread in searches:
        wait_until(waiting_for_its_reads(thread))
    victim = search(
        "victim", "victim", records.catalog("victim", held=False), rows("2501", 3), results
    )
    wait_until(lambda: waiting_for_its_reads(victim)() or not victim.is_alive())
    records.gate.set()
    for thread in [*searches, victim]:
        thread.join(HOLD)
    assert snippets(results["victim"]) == 3, "the victim kept every snippet"
    assert results["victim"][1] == []
    lost = sum(25 - snippets(results[key]) for key in ("attacker0", "attacker1"))
    assert lost == 50 - abstracts.PENDING + 3, "the attacker lost only what did not fit, and 3"
    for found in (results["attacker0"], results["attacker1"]):  # a search that lost one says so
        assert found[1] == ([abstracts.DEGRADED] if snippets(found) < 25 else [])


def test_a_newcomers_reads_run_before_another_clients_queue(records: Records) -> None:
    """The attacker's 25-row search holds the 5 readers and queues 20 more reads; the victim's
    3 reads run as soon as readers free, not behind those 20."""
    results: dict[str, Any] = {}
    held = records.catalog("attacker", held=True)
    attacker = search("attacker", "attacker", held, rows("24", 25), results)
    for _ in range(abstracts.READERS):
        assert records.held_started.acquire(timeout=HOLD)
    victim = search(
        "victim", "victim", records.catalog("victim", held=False), rows("2501", 3), results
    )
    wait_until(waiting_for_its_reads(victim))
    records.gate.set()  # every held read ends; the readers take the next jobs
    victim.join(HOLD)
    attacker.join(HOLD)
    after = records.owners_after(abstracts.READERS)
    assert len(after) == 23 and after.count("victim") == 3
    # first come would run the attacker's 20 queued reads first (victim at places 21-23)
    assert max(i for i, owner in enumerate(after) if owner == "victim") < 10, after
    assert snippets(results["victim"]) == 3 and snippets(results["attacker"]) == 25
