"""`/docs` for people: the same document as the JSON clients read, as a readable HTML page.

One URL, two representations, chosen by the request's `Accept` (`Vary: Accept`): a browser, whose
`Accept` ranks `text/html` above `application/json`, gets the page; everything else (no `Accept`,
`*/*`, `application/json`) keeps the JSON. Both are built once, as bytes with an ETag
(pwc_mcp.site.representations). The page is the landing page's kind of document: inline style
under the same Content-Security-Policy, no script, every value HTML-escaped.
"""

from __future__ import annotations

import json
from html import escape
from typing import Any

from pwc_mcp.site.landing import CSS
from pwc_mcp.site.landing import MEDIA_TYPE as HTML
from pwc_mcp.site.representations import Representation

JSON = "application/json"


def _weights(accept: str) -> dict[str, float]:
    """Each media range of an Accept header with its q (a malformed q counts as 0)."""
    weights: dict[str, float] = {}
    for item in accept.split(","):
        kind, *parameters = (part.strip() for part in item.split(";"))
        q = 1.0
        for parameter in parameters:
            name, _, value = parameter.partition("=")
            if name.strip().lower() == "q":
                try:
                    q = float(value)
                except ValueError:
                    q = 0.0
        if kind:
            weights[kind.lower()] = max(q, weights.get(kind.lower(), 0.0))
    return weights


def _quality(weights: dict[str, float], media_type: str) -> float:
    """The q the most specific range matching `media_type` gives it (RFC 9110 12.5.1)."""
    major = media_type.split("/")[0]
    for candidate in (media_type, f"{major}/*", "*/*"):
        if candidate in weights:
            return weights[candidate]
    return 0.0


def prefers_html(accept: str | None) -> bool:
    """Whether `accept` ranks the page strictly above the JSON (a tie keeps the JSON)."""
    if not accept:
        return False
    weights = _weights(accept)
    return _quality(weights, "text/html") > _quality(weights, JSON)


def _text(description: str | None) -> str:
    paragraphs = [p.strip() for p in (description or "").split("\n\n") if p.strip()]
    return "".join(f'<p class="text">{escape(p)}</p>\n' for p in paragraphs)


def _schema(title: str, schema: Any) -> str:
    if not schema:
        return ""
    shown = escape(json.dumps(schema, indent=2, ensure_ascii=False))
    return f"<details><summary>{escape(title)}</summary><pre><code>{shown}</code></pre></details>\n"


def render(document: dict[str, Any]) -> str:
    """The page for the `/docs` document (pwc_mcp.app builds it from the server's own lists)."""
    tools = "".join(
        f'<section id="tool-{escape(t["name"])}">\n<h3><code>{escape(t["name"])}</code></h3>\n'
        f"{_text(t['description'])}{_schema('Input schema', t['inputSchema'])}"
        f"{_schema('Output schema', t['outputSchema'])}</section>\n"
        for t in document["tools"]
    )
    templates = "".join(
        f"<tr><td><code>{escape(r['uriTemplate'])}</code></td><td>{escape(r['title'] or r['name'])}"
        f"</td><td>{escape(r['description'] or '')}</td></tr>\n"
        for r in document["resourceTemplates"]
    )
    prompts = "".join(
        f"<tr><td><code>{escape(p['name'])}</code></td><td>{escape(p['description'] or '')}</td>"
        f"<td>{escape(', '.join(a['name'] for a in p['arguments']))}</td></tr>\n"
        for p in document["prompts"]
    )
    name, version = escape(document["name"]), escape(document["version"])
    return f"""<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{name}: tools, resources and prompts</title>
<link rel="icon" href="data:,">
<style>{CSS}</style>
</head>
<body>
<header>
<h1>{name}: tools, resources and prompts</h1>
<p>Version {version}, MCP protocol {escape(document["protocol_version"])}, endpoint
<code>{escape(document["endpoint"])}</code>. The same document as JSON: request this URL with
<code>Accept: application/json</code>.</p>
<nav><a href="#tools">Tools</a> <a href="#resources">Resource templates</a>
<a href="#prompts">Prompts</a> <a href="/">Set up a client</a></nav>
</header>
<main>
<section id="tools">
<h2>{len(document["tools"])} tools</h2>
{tools}</section>
<section id="resources">
<h2>{len(document["resourceTemplates"])} resource templates</h2>
<table>
<thead><tr><th>URI template</th><th>Name</th><th>What it reads</th></tr></thead>
<tbody>
{templates}</tbody>
</table>
</section>
<section id="prompts">
<h2>{len(document["prompts"])} prompts</h2>
<table>
<thead><tr><th>Prompt</th><th>What it asks for</th><th>Arguments</th></tr></thead>
<tbody>
{prompts}</tbody>
</table>
</section>
</main>
<footer>pwc-mcp {version}</footer>
</body>
</html>
"""


def representations(document: dict[str, Any], json_body: bytes) -> dict[bool, Representation]:
    """{prefers HTML: what to send}: the JSON clients read, and the page for people."""
    return {
        False: Representation(json_body, JSON),
        True: Representation(render(document).encode(), HTML),
    }
