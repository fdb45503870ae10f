"""The leaderboard app (MCP Apps, `io.modelcontextprotocol/ui`) as a client sees it: the binding on
`get_benchmark` and on `pwc://benchmarks/{benchmark}`, the `ui://` resource in resources/list
and its HTML, and graceful degradation: the results do not depend on whether the host
negotiated apps. The HTML itself is checked for the promises a strict CSP relies on (inline
only, no URL it could load, no network API) and for its size. The real-browser test of the app
is tests/browser/test_leaderboard_app.py.
"""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from typing import Any

import pytest
from fastmcp import Client
from mcp.client import advertise

from pwc_mcp import ui
from pwc_mcp.sample import RunningCatalog
from pwc_mcp.server import build_server
from tests.helpers.mcp import make_service

APP_MIME = "text/html;profile=mcp-app"
UI_EXTENSION = "io.modelcontextprotocol/ui"
MAX_BYTES = 60 * 1024
TOOLS_LIST_BUDGET = 300  # bytes the binding may add to tools/list
SVG_NAMESPACE = "http://www.w3.org/2000/svg"  # an identifier, never fetched


def html() -> str:
    return ui.leaderboard_html()


@pytest.mark.anyio
async def test_get_benchmark_and_its_resource_are_bound_to_the_ui_resource(
    cached_client: Client,
) -> None:
    tools = {t.name: t for t in (await cached_client.list_tools_mcp()).tools}
    assert tools["get_benchmark"].meta["ui"] == {"resourceUri": ui.LEADERBOARD_URI}
    assert [name for name, t in tools.items() if "ui" in (t.meta or {})] == ["get_benchmark"]
    templates = (await cached_client.list_resource_templates_mcp()).resource_templates
    bound = {t.uri_template: t.meta["ui"] for t in templates if "ui" in (t.meta or {})}
    assert bound == {"pwc://benchmarks/{benchmark}": {"resourceUri": ui.LEADERBOARD_URI}}

    listed = (await cached_client.list_resources_mcp()).resources
    (app,) = [r for r in listed if str(r.uri).startswith("ui://")]
    assert str(app.uri) == ui.LEADERBOARD_URI == "ui://pwc/leaderboard.html"
    assert app.mime_type == APP_MIME and app.name == "leaderboard_app"
    (content,) = (await cached_client.read_resource_mcp(ui.LEADERBOARD_URI)).contents
    assert content.mime_type == APP_MIME and content.text == html()
    assert "csp" not in (content.meta or {}).get("ui", {}), "no CSP domains: the strict default"


@pytest.mark.anyio
async def test_hosts_without_apps_see_the_same_results(sample: RunningCatalog) -> None:
    """SEP-2133 graceful degradation: a host that did not negotiate the extension gets exactly
    the text and structured content a host with apps gets (the app renders the same result)."""
    apps = advertise(UI_EXTENSION, {"mimeTypes": [APP_MIME]})
    calls = [
        {"benchmark": "ImageNet"},
        {"benchmark": "Penn Treebank (Word Level)", "sort_metric": "Test perplexity"},
    ]
    seen: list[list[Any]] = []
    for extensions in ([], [apps]):
        async with Client(build_server(make_service(sample.url)), extensions=extensions) as client:
            answers: list[Any] = []
            for arguments in calls:
                result = await client.call_tool_mcp("get_benchmark", arguments)
                assert not result.is_error
                answers.append(
                    (
                        [c.model_dump(mode="json") for c in result.content],
                        result.structured_content,
                        result.meta,
                    )
                )
            (read,) = (await client.read_resource_mcp("pwc://benchmarks/imagenet")).contents
            answers.append((read.mime_type, json.loads(read.text)))
            seen.append(answers)
    without, with_apps = seen
    assert without == with_apps
    assert without[0][1]["benchmark"]["name"] == "ImageNet" and without[1][1]["evaluations"]


@pytest.mark.anyio
async def test_the_binding_adds_at_most_300_bytes_to_tools_list(cached_client: Client) -> None:
    tools = (await cached_client.list_tools_mcp()).tools
    added = sum(
        len(b',"ui":') + len(json.dumps(t.meta["ui"], separators=(",", ":")).encode())
        for t in tools
        if "ui" in (t.meta or {})
    )
    assert 0 < added <= TOOLS_LIST_BUDGET, added


class Tags(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))


def test_the_app_is_one_small_self_contained_file() -> None:
    text = html()
    assert len(text.encode("utf-8")) <= MAX_BYTES
    parser = Tags()
    parser.feed(text)
    tags = [tag for tag, _ in parser.tags]
    assert tags.count("script") == 1 and tags.count("style") == 1
    loading = {"link", "img", "iframe", "frame", "object", "embed", "base", "form", "audio",
               "video", "source", "track", "image", "use", "picture"}  # fmt: skip
    assert not loading & set(tags)
    for tag, attrs in parser.tags:
        assert not {"src", "href", "srcset", "action", "poster", "xlink:href"} & set(attrs), tag
        assert attrs.get("http-equiv") is None, "no refresh or CSP override"
    # The one URL is the SVG namespace (an identifier); nothing else names a place to load from.
    assert re.findall(r"[a-z][\w+.-]*://[^\s\"'<>)]*", text, re.I) == [SVG_NAMESPACE]
    for api in ("fetch", "XMLHttpRequest", "WebSocket", "EventSource", "sendBeacon",
                "importScripts", "Worker", "serviceWorker", "import(", "window.open", "url(",
                "@import", "location."):  # fmt: skip
        assert api not in text, api
    # Catalog text is untrusted: it reaches the DOM as text only, never as markup or code.
    for sink in ("innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval(",
                 "Function(", "setTimeout(", "setInterval("):  # fmt: skip
        assert sink not in text, sink


def test_the_app_speaks_the_apps_protocol_it_claims() -> None:
    """The messages the browser test drives are the ones the app implements."""
    text = html()
    for method in (
        "ui/initialize",
        "ui/notifications/initialized",
        "ui/notifications/tool-input",
        "ui/notifications/tool-result",
        "ui/notifications/host-context-changed",
        "ui/notifications/size-changed",
        "ui/resource-teardown",
    ):
        assert f'"{method}"' in text, method
    assert "event.source !== window.parent" in text, "messages from anyone but the host ignored"
    assert "prefers-color-scheme:dark" in text and "data-theme=dark" in text
