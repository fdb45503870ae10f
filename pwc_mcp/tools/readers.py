"""A fixed pool of reader threads shared fairly between clients (issue #37, "fair snippet
readers"; docs/decisions.md, "Snippets from the paper records").

Every job belongs to an owner (the hashed identity of the client whose call asked for it).
Fair in both of the pool's resources:

* **the room** (jobs running or queued, at most `room`): while it has room anyone may queue;
  once it is full, an owner holding less than its fair share (`room` over the owners holding
  any) takes the place of the newest queued job of the owner holding the most above its share,
  whose caller goes without that result at once; otherwise the job is refused (None);
* **the readers**: a free reader takes the oldest job of the owner with the fewest jobs
  running (the owner served longest ago among equals), so a newcomer's jobs run next, not
  behind another client's queue.

A refused or displaced job costs its caller one result, never a wait: `submit` answers at once.
"""

from __future__ import annotations

import itertools
import threading
from collections import deque
from collections.abc import Callable
from concurrent.futures import Future
from typing import Any


class _Job:
    __slots__ = ("owner", "future", "run", "released")

    def __init__(self, owner: str, run: Callable[[], Any]) -> None:
        self.owner, self.run = owner, run
        self.future: Future[Any] = Future()
        self.released = False  # its room given back (done, cancelled or displaced)


class FairReaders:
    def __init__(self, readers: int, room: int, *, name: str = "pwc-reader") -> None:
        self.readers, self.room, self.name = readers, room, name
        self._lock = threading.Condition()
        self._queued: dict[str, deque[_Job]] = {}  # per owner, oldest first
        self._held: dict[str, int] = {}  # per owner: jobs running or queued
        self._running: dict[str, int] = {}
        self._served: dict[str, int] = {}  # per owner: when a reader last took its job
        self._ticks = itertools.count()
        self._threads: list[threading.Thread] = []

    def held(self, owner: str) -> int:
        """Jobs of `owner` running or queued."""
        with self._lock:
            return self._held.get(owner, 0)

    def submit(self, owner: str, run: Callable[[], Any]) -> Future[Any] | None:
        """`run` in a reader, as `owner`'s job; None when it has no room (see the docstring)."""
        job = _Job(owner, run)
        with self._lock:
            displaced = self._make_room(owner)
            if displaced is False:
                return None
            self._held[owner] = self._held.get(owner, 0) + 1
            self._queued.setdefault(owner, deque()).append(job)
            self._start_readers()
            self._lock.notify()
        if isinstance(displaced, _Job):  # outside the lock: its callbacks take it
            displaced.future.cancel()
        job.future.add_done_callback(lambda _: self._done(job))
        return job.future

    def _make_room(self, owner: str) -> _Job | bool:
        """True when there is room, a queued job to displace for `owner`, or False. Caller
        holds the lock; a displaced job leaves the queue here and its holder's count with it."""
        if sum(self._held.values()) < self.room:
            return True
        owners = len(self._held) + (owner not in self._held)
        share = max(1, self.room // owners)
        if self._held.get(owner, 0) >= share:
            return False
        over = [o for o, held in self._held.items() if held > share and self._queued.get(o)]
        if not over:
            return False
        richest = max(over, key=lambda o: self._held[o])
        displaced = self._queued[richest].pop()  # its newest: the oldest keep their turn
        if not self._queued[richest]:
            del self._queued[richest]
        self._release(displaced)
        return displaced

    def _release(self, job: _Job) -> None:
        """Give back the room `job` held, once. Caller holds the lock."""
        if job.released:
            return
        job.released = True
        left = self._held[job.owner] - 1
        if left:
            self._held[job.owner] = left
        else:
            del self._held[job.owner]
            self._served.pop(job.owner, None)

    def _done(self, job: _Job) -> None:
        """A job ended: ran, failed, or was cancelled (queued: its caller stopped waiting)."""
        with self._lock:
            queue = self._queued.get(job.owner)
            if queue is not None and job in queue:
                queue.remove(job)
                if not queue:
                    del self._queued[job.owner]
            self._release(job)

    def _start_readers(self) -> None:
        while len(self._threads) < self.readers:
            thread = threading.Thread(target=self._serve, name=self.name, daemon=True)
            self._threads.append(thread)
            thread.start()

    def _next(self) -> _Job:
        """The next job to run, by the rule in the docstring; waits for one."""
        with self._lock:
            while not any(self._queued.values()):
                self._lock.wait()
            owner = min(
                (o for o, queue in self._queued.items() if queue),
                key=lambda o: (self._running.get(o, 0), self._served.get(o, -1)),
            )
            job = self._queued[owner].popleft()
            if not self._queued[owner]:
                del self._queued[owner]
            self._served[owner] = next(self._ticks)
            self._running[owner] = self._running.get(owner, 0) + 1
            return job

    def _serve(self) -> None:
        while True:
            job = self._next()
            try:
                if job.future.set_running_or_notify_cancel():
                    try:
                        job.future.set_result(job.run())
                    except BaseException as error:  # the caller reads it from the future
                        job.future.set_exception(error)
            finally:
                with self._lock:
                    left = self._running[job.owner] - 1
                    if left:
                        self._running[job.owner] = left
                    else:
                        del self._running[job.owner]
