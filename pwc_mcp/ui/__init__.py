"""The leaderboard app (MCP Apps extension `io.modelcontextprotocol/ui`).

`get_benchmark` carries `_meta.ui.resourceUri` = LEADERBOARD_URI; a host that negotiated the
extension reads that `ui://` resource (one self-contained HTML file, `leaderboard.html` beside
this module, served as `text/html;profile=mcp-app`) and renders the tool's structured result in
a sandboxed iframe. The tool's text and structured content do not depend on the negotiation: a
host without apps sees exactly what it saw before (graceful degradation, SEP-2133).

The resource declares no `_meta.ui.csp`, so hosts apply the extension's restrictive default
(no connections, no external resources): the app inlines its script and style and fetches
nothing.
"""

from __future__ import annotations

from functools import cache
from importlib.resources import files
from typing import Any

from fastmcp.apps import UI_MIME_TYPE
from fastmcp.server.providers import LocalProvider

LEADERBOARD_URI = "ui://pwc/leaderboard.html"
HTML_FILE = "leaderboard.html"
# The binding, on the tool (the extension's wire field) and on the pwc://benchmarks/{benchmark}
# resource template (same shape: the resource's JSON is the tool's structured content).
BINDING: dict[str, Any] = {"ui": {"resourceUri": LEADERBOARD_URI}}


@cache
def leaderboard_html() -> str:
    """The app's HTML, read once from the package data."""
    return files(__package__).joinpath(HTML_FILE).read_text(encoding="utf-8")


def build() -> LocalProvider:
    provider = LocalProvider(on_duplicate="error")

    @provider.resource(
        LEADERBOARD_URI,
        name="leaderboard_app",
        title="Leaderboard app",
        mime_type=UI_MIME_TYPE,
        description="Interactive view of a get_benchmark result: sortable table, metric "
        "against parameters with the Pareto frontier, state of the art over time.",
        meta={"ui": {"prefersBorder": False}},
    )
    def leaderboard_app() -> str:
        return leaderboard_html()

    return provider
