"""The offline sample catalog as its endpoints see it: the records (records.py) with the parts
built on them, paper search (search.py), leaderboard and taxonomy views (views.py), public
metadata (metadata.py), and the paper Markdown, which ``set_markdown`` swaps atomically under a
lock. The HTTP layer (``endpoints.py``) only validates parameters and shapes pages.
"""

from __future__ import annotations

import hashlib
import json
import threading
from pathlib import Path

from pwc_mcp.sample.common import ApiError, Json
from pwc_mcp.sample.filler import long_appendix
from pwc_mcp.sample.metadata import PublicMetadata
from pwc_mcp.sample.records import CatalogRecords
from pwc_mcp.sample.search import PaperSearch
from pwc_mcp.sample.views import CatalogViews

DATA_DIR = Path(__file__).with_name("data")


class SampleStore(CatalogRecords):
    """The loaded sample catalog: its records, search, views, public metadata and Markdown."""

    def __init__(self, path: Path | None = None) -> None:
        path = path or DATA_DIR / "catalog.json"
        raw = json.loads(path.read_text("utf-8"))
        super().__init__(raw)
        self._search = PaperSearch(self.papers.values())
        self.views = CatalogViews(self, raw["leaderboards"])
        self.metadata = PublicMetadata(self, raw["public_metadata"], raw["stale_mappings"])
        self._lock = threading.Lock()
        self._markdown: dict[str, tuple[bytes, str]] = {}
        for ref, spec in raw["markdown"].items():
            text = (path.parent / "markdown" / spec["file"]).read_text("utf-8")
            appendix = long_appendix(spec["appendix_kib"]) if "appendix_kib" in spec else ""
            self.set_markdown(ref, text + appendix)

    def search(self, query: str, mode: str) -> list[Json]:
        """Papers matching the query in this mode, best first (see ``search.py``)."""
        return self._search.search(query, mode)

    # -- Markdown ------------------------------------------------------------------------------

    @staticmethod
    def markdown_key(paper: Json) -> str:
        """arXiv papers are keyed by arXiv ID, external papers by numeric id (as upstream)."""
        return paper.get("arxiv_id") or paper["id"]

    def markdown(self, paper: Json) -> tuple[bytes, str]:
        """(UTF-8 bytes, content version) of the paper's Markdown, or 404."""
        with self._lock:
            entry = self._markdown.get(self.markdown_key(paper))
        if entry is None:
            raise ApiError(404, "No Markdown is stored for this paper.")
        return entry

    def set_markdown(self, ref: str, text: str) -> None:
        """Replace (or add) a paper's Markdown; the content version (sha256) follows the bytes."""
        paper = self.find_paper(ref)
        if paper is None:
            raise KeyError(f"unknown paper: {ref}")
        data = text.encode("utf-8")
        with self._lock:
            self._markdown[self.markdown_key(paper)] = (data, hashlib.sha256(data).hexdigest())
