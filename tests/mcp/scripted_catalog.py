"""A catalog on loopback that answers as a test scripts it: chosen paths answer given bodies a
given number of times, a `dynamic` function may answer any request, and the rest is forwarded to
the sample catalog (when one is given), so each test states only what differs from a healthy
catalog. Every request is counted by path."""

from __future__ import annotations

import json
import threading
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import httpx
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from pwc_mcp.serving.localserver import serve_in_thread

Answer = tuple[int, Any]  # (status, JSON document)
Dynamic = Callable[[str, dict[str, str]], Answer | None]


class Scripted:
    def __init__(self, upstream: str | None = None, dynamic: Dynamic | None = None) -> None:
        self.upstream = upstream
        self.dynamic = dynamic
        self.requests: Counter[str] = Counter()
        self.on_request: Callable[[str], None] | None = None
        self._scripts: list[tuple[Callable[[str], bool], list[Answer]]] = []
        self._lock = threading.Lock()

    def answer(self, matches: Callable[[str], bool], *answers: Answer) -> None:
        """The next requests whose path `matches` get `answers`, one each, then the usual."""
        with self._lock:
            self._scripts.append((matches, list(answers)))

    def total(self) -> int:
        return sum(self.requests.values())

    def _scripted(self, path: str) -> Answer | None:
        with self._lock:
            self.requests[path] += 1
            for matches, answers in self._scripts:
                if answers and matches(path):
                    return answers.pop(0)
        return None

    async def respond(self, request: Request) -> Response:
        path = request.url.path.removeprefix("/api/v1/")
        if self.on_request is not None:
            self.on_request(path)
        params = dict(request.query_params)
        found = self._scripted(path) or (self.dynamic(path, params) if self.dynamic else None)
        if found is None and self.upstream is not None:
            async with httpx.AsyncClient() as client:
                reply = await client.get(f"{self.upstream}/{path}", params=params)
            kind = reply.headers.get("content-type", "application/json")
            return Response(reply.content, reply.status_code, media_type=kind)
        status, document = found or (404, {"detail": "Not found."})
        return Response(json.dumps(document), status, media_type="application/json")


@contextmanager
def serving(scripted: Scripted) -> Iterator[str]:
    """The scripted catalog's API base URL while the block runs."""
    app = Starlette(routes=[Route("/{rest:path}", scripted.respond)])
    with serve_in_thread(app, name="scripted-catalog", lifespan="off") as running:
        yield running.origin + "/api/v1"
