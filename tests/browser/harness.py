"""A minimal MCP Apps host page, served on loopback, for the browser tests.

`/host/{case}` is the host: it puts the app in a sandboxed iframe (scripts only, an opaque
origin, as chat hosts do) and plays the host's side of the postMessage protocol: it answers
`ui/initialize` with a host context (theme), and once the app says
`ui/notifications/initialized` it sends `ui/notifications/tool-input` and
`ui/notifications/tool-result` with the case's real `tools/call` result. It resizes the iframe
on `ui/notifications/size-changed` and logs every message the app sent in `window.hostLog`.
`window.hostTheme(theme)` sends `ui/notifications/host-context-changed`, and
`window.hostContext(context)` sends it with any context (style variables, say). A case's
`styles`, if any, go in the initial host context.

`/app.html` is the app's HTML exactly as `resources/read` returned it, under the extension's
restrictive default Content-Security-Policy (what a host applies when the resource declares no
`_meta.ui.csp`). `/probe/{name}` answers 204 and records the name in `probes`: a request the app
was tricked into making, on the one origin the CSP lets it load images from.
"""

from __future__ import annotations

import json
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import Route

APP_CSP = (
    "default-src 'none'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data:; media-src 'self' data:; connect-src 'none'; frame-src 'none'; "
    "object-src 'none'; base-uri 'self'"
)

HOST_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>test host</title><link rel="icon" href="data:,">
<style>body{margin:0;background:#888}iframe{display:block;width:1000px;height:400px;border:0}</style>
</head><body>
<script type="application/json" id="case">__CASE__</script>
<iframe id="app" sandbox="allow-scripts" title="leaderboard app" src="/app.html"></iframe>
<script>
const CASE = JSON.parse(document.getElementById("case").textContent);
const frame = document.getElementById("app");
window.hostLog = [];
function send(message) { frame.contentWindow.postMessage(Object.assign({jsonrpc: "2.0"}, message), "*"); }
window.hostTheme = (theme) => send({method: "ui/notifications/host-context-changed", params: {theme}});
window.hostContext = (params) => send({method: "ui/notifications/host-context-changed", params});
window.addEventListener("message", (event) => {
  if (event.source !== frame.contentWindow) return;
  const m = event.data;
  window.hostLog.push(m);
  if (m.method === "ui/initialize") {
    send({id: m.id, result: {
      protocolVersion: "2026-01-26",
      hostInfo: {name: "pwc-test-host", version: "1"},
      hostCapabilities: {},
      hostContext: Object.assign({theme: CASE.theme, displayMode: "inline", platform: "web",
                    containerDimensions: {maxWidth: 1000}}, CASE.styles ? {styles: CASE.styles} : {}),
    }});
  } else if (m.method === "ui/notifications/initialized") {
    send({method: "ui/notifications/tool-input", params: {arguments: CASE.arguments}});
    send({method: "ui/notifications/tool-result", params: CASE.result});
  } else if (m.method === "ui/notifications/size-changed") {
    frame.style.height = Math.min(10000, m.params.height) + "px";
  }
});
</script>
</body></html>
"""


def host_app(
    app_html: str, cases: dict[str, dict[str, Any]], probes: list[str] | None = None
) -> Starlette:
    """`cases`: name -> {"arguments": ..., "result": CallToolResult as JSON, "theme": ...,
    optionally "styles": host context styles}; `probes` collects the names of probe requests."""

    async def host(request: Request) -> Response:
        case = cases.get(request.path_params["case"])
        if case is None:
            return Response(status_code=404)
        embedded = json.dumps(case, ensure_ascii=False).replace("<", "\\u003c")
        return HTMLResponse(HOST_PAGE.replace("__CASE__", embedded))

    async def app(request: Request) -> Response:
        return HTMLResponse(app_html, headers={"Content-Security-Policy": APP_CSP})

    async def probe(request: Request) -> Response:
        if probes is not None:
            probes.append(request.path_params["name"])
        return Response(status_code=204)

    return Starlette(
        routes=[
            Route("/host/{case}", host),
            Route("/app.html", app),
            Route("/probe/{name}", probe),
        ]
    )
