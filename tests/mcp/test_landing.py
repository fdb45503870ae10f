"""The landing page, the snippets and the bytes behind them, without a socket: what the page holds
(the server's own tools, each with the example table's first example; the four set-ups for the
endpoint it is given), that nothing it is given can become markup, and that its CSP admits its
style and nothing else."""

from __future__ import annotations

import base64
import hashlib
import json
import re
import shlex
from html import unescape
from html.parser import HTMLParser

import anyio
import pytest
from fastmcp.tools import Tool

from pwc_mcp.params import TOOLS
from pwc_mcp.server import build_server
from pwc_mcp.site import connect
from pwc_mcp.site import landing as landing_module
from pwc_mcp.site.examples import TOOL_EXAMPLES
from pwc_mcp.site.landing import CSP, LandingPage, ToolEntry, render, summary, tool_entries
from pwc_mcp.site.representations import PerOrigin, Representation, not_modified
from tests.helpers.mcp import make_service

ORIGIN = "https://pwc.example.org"
HOSTILE = '"><script>alert(1)</script><img src=x onerror=alert(2)>'


class Page(HTMLParser):
    """Tags with their attributes, the text of <style>, <code class=snippet> and <h1>."""

    def __init__(self, html: str) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.texts: dict[str, list[str]] = {"style": [], "snippet": [], "h1": [], "td": []}
        self._open: list[str] = []
        self.feed(html)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        self.tags.append((tag, found))
        key = "snippet" if tag == "code" and found.get("class") == "snippet" else tag
        if key in self.texts:
            self.texts[key].append("")
            self._open.append(key)

    def handle_endtag(self, tag: str) -> None:
        if self._open and (
            self._open[-1] == tag or (tag == "code" and self._open[-1] == "snippet")
        ):
            self._open.pop()

    def handle_data(self, data: str) -> None:
        for key in self._open:
            self.texts[key][-1] += data


@pytest.fixture(scope="module")
def entries(sample) -> tuple[ToolEntry, ...]:
    tools = anyio.run(build_server(make_service(sample.url)).list_tools)
    return tool_entries(tools)


def test_the_page_lists_every_tool_of_tools_list_with_its_first_example(entries) -> None:
    assert [e.name for e in entries] == list(TOOLS)
    page = render(ORIGIN, "/mcp", entries)
    assert f"<h2>{len(TOOLS)} tools</h2>" in page
    for name, examples in TOOL_EXAMPLES.items():
        row = re.search(rf'<tr id="tool-{name}">(.*?)</tr>', page)
        assert row, name
        cells = re.findall(r"<td>(.*?)</td>", row.group(1))
        assert cells[0] == f"<code>{name}</code>"
        assert cells[1] and "." in cells[1]  # one sentence from the tool's description
        shown = re.fullmatch(r"<code>(.*)</code>", cells[2])
        assert shown and json.loads(unescape(shown.group(1))) == examples[0]


def test_the_page_shows_the_four_snippets_for_its_endpoint(entries) -> None:
    parsed = Page(render(ORIGIN, "/mcp", entries))
    assert parsed.texts["snippet"] == [s.text for s in connect.snippets(f"{ORIGIN}/mcp")]
    assert [s.client for s in connect.snippets(ORIGIN)] == [
        "Claude Code",
        "VS Code",
        "Cursor",
        "Claude Desktop",
    ]
    assert parsed.texts["h1"] == ["Papers With Code MCP server"]
    links = [a["href"] for tag, a in parsed.tags if tag == "a"]
    assert links == ["/docs", "/health", "/mcp/server-card"]


def test_each_snippet_names_the_endpoint_once_and_parses() -> None:
    endpoint = f"{ORIGIN}/mcp"
    code, vscode, cursor, desktop = connect.snippets(endpoint)
    assert shlex.split(code.text) == [
        "claude",
        "mcp",
        "add",
        "--transport",
        "http",
        "pwc",
        endpoint,
    ]
    assert json.loads(vscode.text) == {"servers": {"pwc": {"type": "http", "url": endpoint}}}
    assert json.loads(cursor.text) == {"mcpServers": {"pwc": {"url": endpoint}}}
    server = json.loads(desktop.text)["mcpServers"]["pwc"]
    assert [server["command"], *server["args"]] == connect.desktop_command(endpoint)
    assert server["args"][1] == connect.MCP_REMOTE and "@" in connect.MCP_REMOTE  # pinned


def test_a_shell_snippet_quotes_what_the_shell_would_read() -> None:
    """Only allowlisted Host values reach it, but the snippet stays safe to paste anyway."""
    odd = "http://127.0.0.1:1/mcp;touch x"
    (code, *_) = connect.snippets(odd)
    assert shlex.split(code.text)[-1] == odd


def test_nothing_the_page_is_given_becomes_markup() -> None:
    tools = [ToolEntry(HOSTILE, HOSTILE, json.dumps({"q": HOSTILE}))]
    page = render(f"http://{HOSTILE}", HOSTILE, tools)
    parsed = Page(page)
    assert [tag for tag, _ in parsed.tags if tag in ("script", "img", "iframe")] == []
    assert not any(k.startswith("on") for _, attrs in parsed.tags for k in attrs)
    assert "<script" not in page and HOSTILE not in page


def test_the_csp_admits_exactly_the_pages_style_and_nothing_that_fetches(entries) -> None:
    parsed = Page(render(ORIGIN, "/mcp", entries))
    (style,) = parsed.texts["style"]
    digest = base64.b64encode(hashlib.sha256(style.encode()).digest()).decode()
    directives = dict(d.split(" ", 1) for d in CSP.split("; "))
    assert directives == {
        "default-src": "'none'",
        "style-src": f"'sha256-{digest}'",
        "img-src": "data:",
        "base-uri": "'none'",
        "form-action": "'none'",
        "frame-ancestors": "'none'",
    }
    fetched = [a.get("src") or a.get("href") for t, a in parsed.tags if t in ("link", "img")]
    assert fetched == ["data:,"]  # the icon: no /favicon.ico request
    assert not [t for t, _ in parsed.tags if t in ("script", "form", "iframe", "object")]


def test_a_summary_is_the_first_sentence_of_the_first_paragraph() -> None:
    assert summary("One paper: metadata.\nMore. Even more.\n\nArgs.") == "One paper: metadata."
    assert summary("A wrapped\n  line without a stop") == "A wrapped line without a stop"
    assert summary(None) == ""


def test_a_tool_without_an_example_is_listed_without_one() -> None:
    tool = Tool(name="not_in_the_table", description="Does a thing. Then more.", parameters={})
    assert tool_entries([tool]) == (ToolEntry("not_in_the_table", "Does a thing.", None),)


@pytest.mark.anyio
async def test_the_tools_are_listed_once_and_each_origin_rendered_once(sample, monkeypatch) -> None:
    mcp = build_server(make_service(sample.url))
    listed: list[int] = []
    rendered: list[str] = []

    def counting_entries(tools: list[Tool]) -> tuple[ToolEntry, ...]:
        listed.append(len(tools))
        return tool_entries(tools)

    def counting_render(origin: str, *args: object) -> str:
        rendered.append(origin)
        return render(origin, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(landing_module, "tool_entries", counting_entries)
    monkeypatch.setattr(landing_module, "render", counting_render)
    landing = LandingPage(mcp, "/mcp")
    first = await landing.page(ORIGIN)
    assert await landing.page(ORIGIN) is first and listed == [len(TOOLS)]
    other = await landing.page("http://127.0.0.1:7860")
    assert other.etag != first.etag and b"http://127.0.0.1:7860/mcp" in other.body
    assert await landing.page(ORIGIN) is first
    assert rendered == [ORIGIN, "http://127.0.0.1:7860"] and listed == [len(TOOLS)]


def test_if_none_match_is_read_as_rfc_9110_says() -> None:
    tag = Representation(b"x", "text/plain").etag
    assert re.fullmatch(r'"[0-9a-f]{32}"', tag)
    assert not_modified(tag, tag) and not_modified(f'"a", W/{tag}', tag) and not_modified("*", tag)
    assert not not_modified(None, tag) and not not_modified('"other"', tag)
    assert not not_modified(tag.strip('"'), tag)  # an unquoted value is not the tag


def test_per_origin_keeps_a_bounded_number_of_renderings() -> None:
    rendered: list[str] = []

    def render_one(origin: str) -> Representation:
        rendered.append(origin)
        return Representation(origin.encode(), "text/plain")

    pages = PerOrigin(render_one, size=4)
    for port in range(100):
        pages.get(f"http://127.0.0.1:{port}")
    pages.get("http://127.0.0.1:99")
    assert pages.kept() == 4 and len(rendered) == 100


def test_the_module_prints_what_interop_and_the_readme_use(capsys) -> None:
    assert connect.main(["mcp-remote"]) == 0
    assert capsys.readouterr().out == f"{connect.MCP_REMOTE}\n"
    assert connect.main(["desktop-command", "http://127.0.0.1:1/mcp"]) == 0
    assert capsys.readouterr().out.split() == connect.desktop_command("http://127.0.0.1:1/mcp")
    assert connect.main(["readme"]) == 0
    assert capsys.readouterr().out == connect.markdown(connect.HOSTED_ENDPOINT)
    assert connect.main([]) == 2
