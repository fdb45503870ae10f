"""A standalone SVG document of a leaderboard payload: the scatter panel, then the timeline
panel when the payload has one. Text is cleaned (no characters XML forbids, bounded length) and
escaped; the document has no scripts, no links, no external references and no styles to load.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pwc_cli.charts import panels
from pwc_cli.charts.markup import clean, element, text_node
from pwc_core.chart import scatter, timeline_of
from pwc_core.selection import Selection

WIDTH = 800
SCATTER_HEIGHT = 480
TIMELINE_HEIGHT = 360
FONT = "system-ui, -apple-system, 'Segoe UI', Helvetica, Arial, sans-serif"


def document(payload: Mapping[str, Any], asked: Selection | None = None) -> str:
    """The whole SVG: the scatter, and under it the SOTA-over-time steps when asked for."""
    bench = payload.get("benchmark") if isinstance(payload.get("benchmark"), dict) else {}
    name = clean((bench or {}).get("name") or "Leaderboard", 80)
    timeline = timeline_of(payload)
    height = SCATTER_HEIGHT + (TIMELINE_HEIGHT if timeline is not None else 0)
    body = [
        element("rect", {"class": "background", "width": WIDTH, "height": height, "fill": "#fff"}),
        panels.scatter_panel(scatter(payload, asked), name, WIDTH, SCATTER_HEIGHT),
    ]
    if timeline is not None:
        body.append(
            element(
                "g",
                {"transform": f"translate(0,{SCATTER_HEIGHT})"},
                panels.timeline_panel(timeline, name, WIDTH, TIMELINE_HEIGHT),
            )
        )
    title = element("title", {}, text_node(f"{name}: leaderboard chart"))
    attrs = {
        "xmlns": "http://www.w3.org/2000/svg",
        "width": WIDTH,
        "height": height,
        "viewBox": f"0 0 {WIDTH} {height}",
        "font-family": FONT,
        "font-size": 12,
        "role": "img",
    }
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + element("svg", attrs, title + "".join(body))
