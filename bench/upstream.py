"""Bigger sample catalogs for the benchmarks.

A "fat" sample catalog for the memory benchmark: the same API with large (bounded) answers.

* every JSON object answer under /api/v1 (except Markdown reads) gets a `bench_padding` member
  of `pad_bytes`, which the handlers ignore but the caches must store whole;
* every paper's Markdown grows to `markdown_kib` KiB (the sample's own multi-byte filler), so
  reading it fills the chunk cache with 64 KiB chunks.

And `start_large_catalog` for the cost benchmark: the sample plus one 1,000-row leaderboard.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from pwc_mcp.sample import Faults, SampleStore, create_app
from pwc_mcp.sample.app import API_PREFIX
from pwc_mcp.sample.store import long_appendix
from pwc_mcp.serving.localserver import serve_in_thread

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


# --- a 1,000-row leaderboard (the cost benchmark) ---------------------------------------------

LARGE_BENCHMARK = "Synthetic-1000"
LARGE_METRICS = {  # eight metrics, so a call can use the most metrics an argument allows
    "Top 1 Accuracy": "higher",
    "Top 5 Accuracy": "higher",
    "mAP": "higher",
    "F1": "higher",
    "GFLOPs": "lower",
    "Latency (ms)": "lower",
    "Memory (GB)": "lower",
    "Energy (J)": "lower",
}


def large_leaderboard(store: SampleStore, rows: int = 1000, seed: int = 14) -> str:
    """Add a benchmark of `rows` evaluation rows (one per model, every metric reported, values
    independent so that many rows are Pareto-optimal) to `store`; returns its name."""
    from pwc_mcp.sample.store import DATA_DIR
    from pwc_mcp.sample.views import CatalogViews

    raw = json.loads((DATA_DIR / "catalog.json").read_text("utf-8"))
    dataset = {
        "id": "90001",
        "name": LARGE_BENCHMARK,
        "slug": LARGE_BENCHMARK.lower(),
        "full_name": f"{LARGE_BENCHMARK} (benchmark data)",
        "description": "A synthetic leaderboard of 1,000 rows for the cost benchmark.",
        "hf_url": None,
        "split_name": "test",
        "created_at": "2025-10-02T08:00:00Z",
    }
    store.datasets[dataset["id"]] = dataset
    papers = sorted(store.papers)[:20]
    task = raw["leaderboards"][0]["task_id"]
    rng = random.Random(seed)
    spec = {
        "dataset_id": dataset["id"],
        "task_id": task,
        "id_start": 9_000_000,
        "updated_at": "2025-10-02T08:00:00Z",
        "metrics": LARGE_METRICS,
        "best_metric": "Top 1 Accuracy",
        "columns": ["model_name", "paper_id", "num_parameters", "is_open", *LARGE_METRICS],
        "rows": [
            [
                f"model-{i:04d}",
                papers[i % len(papers)],
                rng.randrange(1_000_000, 10_000_000_000),
                i % 3 != 0,
                *_scores(rng),
            ]
            for i in range(rows)
        ],
    }
    store.views = CatalogViews(store, [*raw["leaderboards"], spec])
    return LARGE_BENCHMARK


def _scores(rng: random.Random) -> list[float]:
    """Top-5 follows top-1 closely (as on real leaderboards); the others are independent."""
    top1 = rng.uniform(50, 90)
    top5 = top1 * 0.25 + 75 + rng.uniform(-0.5, 0.5)
    others = (rng.uniform(1, 100) for _ in range(len(LARGE_METRICS) - 2))
    return [round(value, 2) for value in (top1, top5, *others)]


@contextmanager
def start_large_catalog(rows: int = 1000) -> Iterator[tuple[str, str]]:
    """The sample catalog plus `large_leaderboard`: yields (API URL, benchmark name)."""
    store = SampleStore()
    name = large_leaderboard(store, rows)
    with serve_in_thread(
        create_app(store, Faults()), name="pwc-large-catalog", lifespan="off"
    ) as running:
        yield running.origin + API_PREFIX, name
