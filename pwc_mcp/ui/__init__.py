"""The leaderboard app (MCP Apps extension `io.modelcontextprotocol/ui`).

`get_benchmark` carries `_meta.ui.resourceUri` = LEADERBOARD_URI; a host that negotiated the
extension reads that `ui://` resource (one self-contained HTML document: `leaderboard.html`
beside this module with its script inlined, the ES modules `view.js`, `scenes.js` and
`leaderboard.js` as one; served as `text/html;profile=mcp-app`) and renders the tool's
structured result in a sandboxed iframe, drawing the `chart` the server computed
(pwc_core.chart_json). The tool's text and structured content do not depend on the
negotiation: a host without apps sees exactly what it saw before (graceful degradation,
SEP-2133).

The resource declares no `_meta.ui.csp`, so hosts apply the extension's restrictive default
(no connections, no external resources): the app inlines its script and style and fetches
nothing.
"""

from __future__ import annotations

import re
from functools import cache
from importlib.resources import files
from typing import Any

from fastmcp.apps import UI_MIME_TYPE
from fastmcp.server.providers import LocalProvider

LEADERBOARD_URI = "ui://pwc/leaderboard.html"
HTML_FILE = "leaderboard.html"
# The app's ES modules, each after those it imports (node's test runner imports them: tests/js).
SCRIPT_FILES = ("view.js", "scenes.js", "leaderboard.js")
SCRIPT_SLOT = "/* leaderboard.js */"  # where the HTML takes them, as one inline module
LOCAL_IMPORT = re.compile(r'^import \{[^}]*\} from "\./([a-z]+\.js)";\n', re.M)
# The binding, on the tool (the extension's wire field) and on the pwc://benchmarks/{benchmark}
# resource template (same shape: the resource's JSON is the tool's structured content).
BINDING: dict[str, Any] = {"ui": {"resourceUri": LEADERBOARD_URI}}


def bundle(modules: dict[str, str]) -> str:
    """The modules as one module: in SCRIPT_FILES order, each without its imports of the ones
    before it (their names are then in the same scope). Any other import is refused."""
    parts = []
    for position, name in enumerate(SCRIPT_FILES):
        code = modules[name]
        for imported in LOCAL_IMPORT.findall(code):
            if imported not in SCRIPT_FILES[:position]:
                raise ValueError(f"{name} imports {imported}, which is not before it")
        code = LOCAL_IMPORT.sub("", code)
        if re.search(r"^\s*import\b", code, re.M):
            raise ValueError(f"{name} has an import that cannot be inlined")
        parts.append(code)
    return "\n".join(parts)


def inline(page: str, script: str) -> str:
    """`page` with `script` in its slot; refused if the script could end its element early or
    open a comment the HTML parser would honour, or the page has not exactly one slot."""
    if page.count(SCRIPT_SLOT) != 1 or "</script" in script.lower() or "<!--" in script:
        raise ValueError("the app's script cannot be inlined into " + HTML_FILE)
    return page.replace(SCRIPT_SLOT, script)


@cache
def leaderboard_html() -> str:
    """The app's HTML with its script inlined, read once from the package data."""
    folder = files(__package__)
    modules = {name: folder.joinpath(name).read_text(encoding="utf-8") for name in SCRIPT_FILES}
    return inline(folder.joinpath(HTML_FILE).read_text(encoding="utf-8"), bundle(modules))


def build() -> LocalProvider:
    provider = LocalProvider(on_duplicate="error")

    @provider.resource(
        LEADERBOARD_URI,
        name="leaderboard_app",
        title="Leaderboard app",
        mime_type=UI_MIME_TYPE,
        description="Interactive view of a get_benchmark result: sortable table, the chart "
        "the server computed (a metric against parameters, or a Pareto request's two "
        "objectives, with the frontier), state of the art over time.",
        meta={"ui": {"prefersBorder": False}},
    )
    def leaderboard_app() -> str:
        return leaderboard_html()

    return provider
