"""Counters of the sample catalog: requests per ``/api/v1`` path and accepted TCP connections."""

from __future__ import annotations

import threading
from collections import Counter


class Stats:
    """Thread-safe counters: requests per path relative to /api/v1, and accepted TCP connections."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._requests: Counter[str] = Counter()
        self._connections = 0

    @property
    def requests(self) -> dict[str, int]:
        """Snapshot: decoded path relative to /api/v1 (e.g. ``papers/search``) -> request count."""
        with self._lock:
            return dict(self._requests)

    @property
    def connections(self) -> int:
        with self._lock:
            return self._connections

    def total(self) -> int:
        with self._lock:
            return sum(self._requests.values())

    def reset(self) -> None:
        with self._lock:
            self._requests.clear()
            self._connections = 0

    def record_request(self, path: str) -> None:
        with self._lock:
            self._requests[path] += 1

    def record_connection(self) -> None:
        with self._lock:
            self._connections += 1
