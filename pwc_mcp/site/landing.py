"""The page at `/`: what this server is, how to connect each client, every tool with an example.

One self-contained HTML document: inline CSS, no script, nothing fetched (its
Content-Security-Policy allows only its own style, by hash, and a `data:` icon). Every value
that reaches it (tool text, the endpoint URL) is HTML-escaped. The tools come from the server's
own `tools/list`, each with the first example of pwc_mcp.site.examples; the snippets from
pwc_mcp.site.connect. `LandingPage` lists the tools once, at start-up, and renders the bytes once
per advertised origin (pwc_mcp.site.representations).
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import json
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from html import escape
from typing import Any

from fastmcp import FastMCP
from fastmcp.tools import Tool

from pwc_mcp import __version__
from pwc_mcp.edge.jsonrpc import SUPPORTED_PROTOCOLS
from pwc_mcp.site.connect import snippets
from pwc_mcp.site.examples import TOOL_EXAMPLES
from pwc_mcp.site.representations import PerOrigin, Representation
from pwc_mcp.site.server_card import DESCRIPTION, TITLE
from pwc_mcp.site.server_card import PATH as CARD_PATH

MEDIA_TYPE = "text/html; charset=utf-8"
CSS = """
:root{color-scheme:light dark;--fg:#1d1f23;--muted:#5b6270;--bg:#fff;--panel:#f4f5f7;
--line:#dde0e5;--link:#0b57d0}
@media (prefers-color-scheme:dark){:root{--fg:#e6e8eb;--muted:#a3a9b4;--bg:#16181c;
--panel:#1f2227;--line:#30343b;--link:#8ab4f8}}
*{box-sizing:border-box}
body{margin:0;background:var(--bg);color:var(--fg);
font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
header,main,footer{max-width:60rem;margin:0 auto;padding:0 1.25rem}
header{padding-top:2rem}
h1{font-size:1.9rem;margin:0 0 .5rem}
h2{font-size:1.35rem;margin:2rem 0 .75rem;border-bottom:1px solid var(--line)}
h3{font-size:1.05rem;margin:1.25rem 0 .25rem}
p{margin:.25rem 0 .75rem}
a{color:var(--link)}
nav a{margin-right:1rem}
code,pre{font:14px/1.45 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
pre{background:var(--panel);border:1px solid var(--line);border-radius:6px;padding:.75rem;
overflow-x:auto;margin:.25rem 0 1rem}
.where{color:var(--muted)}
table{border-collapse:collapse;width:100%}
th,td{text-align:left;vertical-align:top;padding:.4rem .5rem;border-bottom:1px solid var(--line)}
td code{overflow-wrap:anywhere}
p.text{white-space:pre-wrap}
footer{color:var(--muted);font-size:.9rem;padding-top:1rem;padding-bottom:2rem}
"""
# The page needs nothing but its own style: everything else is refused, framing included.
CSP = "; ".join(
    (
        "default-src 'none'",
        f"style-src 'sha256-{base64.b64encode(hashlib.sha256(CSS.encode()).digest()).decode()}'",
        "img-src data:",
        "base-uri 'none'",
        "form-action 'none'",
        "frame-ancestors 'none'",
    )
)
HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",  # frame-ancestors for browsers that predate it
    "Referrer-Policy": "no-referrer",
}
Lifespan = Callable[[Any], AbstractAsyncContextManager[None]]


@dataclass(frozen=True)
class ToolEntry:
    name: str
    summary: str
    example: str | None  # JSON arguments


def summary(description: str | None) -> str:
    """The first sentence of a tool's description (its first paragraph, on one line)."""
    text = " ".join((description or "").split("\n\n")[0].split())
    end = text.find(". ")
    return text if end < 0 else text[: end + 1]


def tool_entries(tools: Sequence[Tool]) -> tuple[ToolEntry, ...]:
    entries = []
    for tool in tools:
        examples = TOOL_EXAMPLES.get(tool.name, ())
        example = json.dumps(examples[0], ensure_ascii=False) if examples else None
        entries.append(ToolEntry(tool.name, summary(tool.description), example))
    return tuple(entries)


def render(origin: str, endpoint_path: str, tools: Sequence[ToolEntry]) -> str:
    """The whole page for a server at `origin` with its MCP endpoint at `endpoint_path`."""
    endpoint = f"{origin}{endpoint_path}"
    setup = "".join(
        f'<h3 id="setup-{_slug(s.client)}">{escape(s.client)}</h3>\n'
        f'<p class="where">{f"<code>{escape(s.where)}</code>" if s.file else escape(s.where)}'
        f"{f' ({escape(s.note)})' if s.note else ''}</p>\n"
        f'<pre><code class="snippet">{escape(s.text)}</code></pre>\n'
        for s in snippets(endpoint)
    )
    rows = "".join(
        f'<tr id="tool-{escape(t.name)}"><td><code>{escape(t.name)}</code></td>'
        f"<td>{escape(t.summary)}</td>"
        f"<td>{f'<code>{escape(t.example)}</code>' if t.example else ''}</td></tr>\n"
        for t in tools
    )
    versions = ", ".join(SUPPORTED_PROTOCOLS)
    return f"""<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{escape(TITLE)} MCP server</title>
<link rel="icon" href="data:,">
<style>{CSS}</style>
</head>
<body>
<header>
<h1>{escape(TITLE)} MCP server</h1>
<p>{escape(DESCRIPTION)}, for AI agents. Connect a Model Context Protocol client and ask for
papers, their full text, tasks, methods and the state of the art on any leaderboard. No
account, no key: every tool only reads.</p>
<p>Endpoint (Streamable HTTP): <code id="endpoint">{escape(endpoint)}</code></p>
<nav><a href="/docs">Tool schemas (/docs)</a> <a href="/health">Health (/health)</a>
<a href="{escape(endpoint_path + CARD_PATH)}">Server card</a></nav>
</header>
<main>
<section id="setup">
<h2>Set up</h2>
{setup}</section>
<section id="tools">
<h2>{len(tools)} tools</h2>
<p>Each example is the tool's arguments, as a client sends them in <code>tools/call</code>.</p>
<table>
<thead><tr><th>Tool</th><th>What it does</th><th>Example arguments</th></tr></thead>
<tbody>
{rows}</tbody>
</table>
</section>
</main>
<footer>pwc-mcp {escape(__version__)} · MCP protocol versions {escape(versions)}</footer>
</body>
</html>
"""


def _slug(client: str) -> str:
    return "-".join(client.lower().split())


class LandingPage:
    """The page of one server: its tools listed once, its bytes rendered once per origin."""

    def __init__(self, mcp: FastMCP, endpoint_path: str) -> None:
        self._mcp = mcp
        self._endpoint_path = endpoint_path
        self._tools: tuple[ToolEntry, ...] | None = None
        self._pages = PerOrigin(self._render)

    async def ready(self) -> None:
        """List the tools (once; repeating it is harmless, so no lock)."""
        if self._tools is None:
            self._tools = tool_entries(await self._mcp.list_tools())

    async def page(self, origin: str) -> Representation:
        await self.ready()  # already done at start-up when the app ran its lifespan
        return self._pages.get(origin)

    def built_at_startup(self, lifespan: Lifespan, origin: str | None) -> Lifespan:
        """`lifespan`, then the tool list and, for a configured public origin, the page
        itself, so the first visitor is served bytes that already exist."""

        @contextlib.asynccontextmanager
        async def building(app: Any) -> AsyncIterator[None]:
            async with lifespan(app):
                await (self.ready() if origin is None else self.page(origin))
                yield

        return building

    def _render(self, origin: str) -> Representation:
        assert self._tools is not None, "ready() lists the tools first"
        body = render(origin, self._endpoint_path, self._tools).encode()
        return Representation(body, MEDIA_TYPE)
