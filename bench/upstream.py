"""A "fat" sample catalog for the memory benchmark: the same API with large (bounded) answers.

* every JSON object answer under /api/v1 (except Markdown reads) gets a `bench_padding` member
  of `pad_bytes`, which the handlers ignore but the caches must store whole;
* every paper's Markdown grows to `markdown_kib` KiB (the sample's own multi-byte filler), so
  reading it fills the chunk cache with 64 KiB chunks.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from pwc_mcp.localserver import serve_in_thread
from pwc_mcp.sample import Faults, SampleStore, create_app
from pwc_mcp.sample.app import API_PREFIX
from pwc_mcp.sample.store import long_appendix

MARKDOWN_PAPERS = (
    "1706.03762",
    "1810.04805",
    "1512.03385",
    "2010.11929",
    "hep-th/9711200",
    "904512",
)


@dataclass
class Served:
    responses: int = 0
    bytes: int = 0
    padded: int = 0


@dataclass
class Padding:
    """ASGI middleware: append `"bench_padding": "xxx…"` to JSON object answers."""

    app: ASGIApp
    pad_bytes: int
    served: Served = field(default_factory=Served)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        path = scope.get("path", "")
        if scope["type"] != "http" or not path.startswith(API_PREFIX) or path.endswith("/read"):
            await self.app(scope, receive, send)
            return
        start: Message | None = None
        chunks: list[bytes] = []

        async def buffer(message: Message) -> None:
            nonlocal start
            if message["type"] == "http.response.start":
                start = message
            elif message["type"] == "http.response.body":
                chunks.append(message.get("body", b""))

        await self.app(scope, receive, buffer)
        assert start is not None
        body = b"".join(chunks)
        headers = [(k, v) for k, v in start.get("headers", []) if k.lower() != b"content-length"]
        json_type = any(k.lower() == b"content-type" and b"json" in v for k, v in headers)
        if start["status"] == 200 and json_type and body.startswith(b"{") and body != b"{}":
            body = body[:-1] + b',"bench_padding":"' + b"x" * self.pad_bytes + b'"}'
            self.served.padded += 1
        self.served.responses += 1
        self.served.bytes += len(body)
        headers.append((b"content-length", str(len(body)).encode()))
        await send({**start, "headers": headers})
        await send({"type": "http.response.body", "body": body})


@dataclass
class FatCatalog:
    url: str
    served: Served


@contextmanager
def start_fat_catalog(
    pad_bytes: int = 512 * 1024, markdown_kib: int = 3 * 1024
) -> Iterator[FatCatalog]:
    store = SampleStore()
    for ref in MARKDOWN_PAPERS:
        paper = store.find_paper(ref)
        data, _ = store.markdown(paper)
        store.set_markdown(ref, data.decode() + long_appendix(markdown_kib))
    app: Any = Padding(create_app(store, Faults()), pad_bytes)
    with serve_in_thread(app, name="pwc-fat-catalog", lifespan="off") as running:
        yield FatCatalog(running.origin + API_PREFIX, app.served)
