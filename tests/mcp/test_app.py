"""The leaderboard app (MCP Apps, `io.modelcontextprotocol/ui`) as a client sees it: the binding on
`get_benchmark` and on `pwc://benchmarks/{benchmark}`, the `ui://` resource in resources/list
and its HTML, and graceful degradation: the results do not depend on whether the host
negotiated apps. The served document is one file (the script inlined, nothing to load) within
its size; get_benchmark carries the chart the app draws. The app's behaviour in a real browser
is tests/browser/test_leaderboard_app.py; its script's unit tests are tests/js.
"""

from __future__ import annotations

import json
from html.parser import HTMLParser
from importlib.resources import files
from typing import Any

import pytest
from fastmcp import Client
from mcp.client import advertise

from pwc_mcp import ui
from pwc_mcp.sample import RunningCatalog
from pwc_mcp.server import build_server
from tests.helpers.boards import Scope, oracle_front, rows_of, serve
from tests.helpers.charts import brute_frontier
from tests.helpers.mcp import call, make_service, scored_rows

APP_MIME = "text/html;profile=mcp-app"
UI_EXTENSION = "io.modelcontextprotocol/ui"
MAX_BYTES = 60 * 1024
TOOLS_LIST_BUDGET = 300  # bytes the binding may add to tools/list


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
    assert without[0][1]["data"]["benchmark"]["name"] == "ImageNet"
    assert without[1][1]["evaluations"]


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
        self.scripts: list[str] = []
        self._in_script = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))
        self._in_script = tag == "script"

    def handle_endtag(self, tag: str) -> None:
        self._in_script = False

    def handle_data(self, data: str) -> None:
        if self._in_script:
            self.scripts.append(data)


def test_the_app_is_one_small_self_contained_document() -> None:
    """One HTML document: its one inline module script is leaderboard.js, whole; one style; no
    element or attribute that loads anything. That it requests nothing, runs under the strict
    default CSP and puts catalog text in the DOM as text is tests/browser/test_leaderboard_app.py."""
    text = html()
    assert len(text.encode("utf-8")) <= MAX_BYTES
    parser = Tags()
    parser.feed(text)
    tags = [tag for tag, _ in parser.tags]
    assert tags.count("script") == 1 and tags.count("style") == 1
    (script,) = [attrs for tag, attrs in parser.tags if tag == "script"]
    assert script == {"type": "module"}
    inlined = "".join(parser.scripts)
    for name in ui.SCRIPT_FILES:  # every module, whole but for its imports of the others
        code = files("pwc_mcp.ui").joinpath(name).read_text(encoding="utf-8")
        assert ui.LOCAL_IMPORT.sub("", code) in inlined, name
    assert not ui.LOCAL_IMPORT.search(inlined)
    loading = {"link", "img", "iframe", "frame", "object", "embed", "base", "form", "audio",
               "video", "source", "track", "image", "use", "picture"}  # fmt: skip
    assert not loading & set(tags)
    for tag, attrs in parser.tags:
        assert not {"src", "href", "srcset", "action", "poster", "xlink:href"} & set(attrs), tag
        assert attrs.get("http-equiv") is None, "no refresh or CSP override"


@pytest.mark.parametrize(
    "script",
    ["</script><img src=x>", "x = '</SCRIPT >';", "<!-- a comment the parser would honour"],
)
def test_a_script_that_would_break_out_of_its_element_is_refused(script: str) -> None:
    page = files("pwc_mcp.ui").joinpath(ui.HTML_FILE).read_text(encoding="utf-8")
    with pytest.raises(ValueError, match="cannot be inlined"):
        ui.inline(page, script)
    with pytest.raises(ValueError, match="cannot be inlined"):
        ui.inline(page.replace(ui.SCRIPT_SLOT, ""), "const ok = 1;")
    assert ui.inline(page, "const ok = 1;").count("const ok = 1;") == 1


@pytest.mark.parametrize(
    "leaderboard, refused",
    [
        ('import { x } from "./later.js";\n', "not before it"),
        ('import { x } from "https://example.test/x.js";\n', "cannot be inlined"),
        ('import "./view.js";\n', "cannot be inlined"),
    ],
)
def test_only_imports_of_the_earlier_modules_are_inlined(leaderboard: str, refused: str) -> None:
    modules = {"view.js": "export const a = 1;\n", "scenes.js": 'import { a } from "./view.js";\n'}
    assert ui.bundle(modules | {"leaderboard.js": ""}) == "export const a = 1;\n\n\n"
    with pytest.raises(ValueError, match=refused):
        ui.bundle(modules | {"leaderboard.js": leaderboard})


@pytest.mark.anyio
async def test_get_benchmark_carries_the_chart_the_app_draws(cached_client: Client) -> None:
    """The chart points at rows of the same result: each point's row is a row of `data`, with
    the y metric's value; the frontier is made of points; the best row is one of the rows."""
    result, _ = await call(
        cached_client,
        "get_benchmark",
        benchmark="ImageNet",
        pareto=["Top 1 Accuracy:higher", "GFLOPs:lower"],
    )
    rows, scatter = scored_rows(result), result["chart"]["scatter"]
    assert (scatter["y"]["metric"], scatter["x"]["metric"]) == ("Top 1 Accuracy", "GFLOPs")
    assert [p["row"] for p in scatter["points"]] == list(range(len(rows)))
    for point in scatter["points"]:
        row = rows[point["row"]]
        assert (point["label"], point["y"], point["x"]) == (
            row["model_name"],
            row["metrics"]["Top 1 Accuracy"],
            row["metrics"]["GFLOPs"],
        )
    assert sorted(scatter["frontier"]) == [p["row"] for p in scatter["points"]]
    assert scatter["best"] in range(len(rows))


# A board of 40 rows with two metrics that trade off; neither name says its direction.
TRADE = Scope("1", "Score", False, [10.0 + (i * 29 % 41) / 2 for i in range(40)])


def trade_rows() -> list[dict[str, Any]]:
    rows = rows_of([TRADE])
    for row in rows:  # a cost that grows with the score, unevenly: a front of several rows
        score = row["metrics"]["Score"]
        row["metrics"]["Cost"] = round(score * score / 40 + (row["num_parameters"] % 7e6) / 1e6, 3)
    return rows


@pytest.mark.anyio
async def test_a_two_metric_pareto_request_charts_its_metrics_and_exactly_the_handlers_front(
    hostile: tuple[Client, Any],
) -> None:
    """The axes are the two objectives in their stated directions, and the points on the front
    are exactly the rows the handler returned: the whole board's front by pairwise comparison
    (tests/helpers/boards.py). Before, the app drew the metric against parameters and greyed out
    front rows that a size frontier drops; such a row is on this front."""
    client, answers = hostile
    rows = trade_rows()
    serve(answers.by_path, rows)
    front = oracle_front(
        rows,
        [(lambda r: r["metrics"]["Score"], "higher"), (lambda r: r["metrics"]["Cost"], "lower")],
    )
    assert 3 <= len(front) <= 25  # one page holds it
    result, _ = await call(
        client, "get_benchmark", benchmark="Bench", pareto=["Score:higher", "Cost:lower"], limit=25
    )
    returned = [row["id"] for row in result["data"]["results"]]
    assert set(returned) == front and result["matched_count"] == len(front)
    scatter = result["chart"]["scatter"]
    y, x = scatter["y"], scatter["x"]
    assert (y["metric"], y["direction"], y["reversed"]) == ("Score", "higher", False)
    assert (x["metric"], x["direction"], x["reversed"]) == ("Cost", "lower", False)
    on_front = {returned[p["row"]] for p in scatter["points"] if p["on_front"]}
    assert on_front == front and len(scatter["points"]) == len(front) and scatter["pareto"]
    sized = brute_frontier(
        [(r["num_parameters"], r["metrics"]["Score"]) for r in result["data"]["results"]], 1
    )
    dropped = [r["id"] for r in result["data"]["results"]
               if (r["num_parameters"], r["metrics"]["Score"]) not in sized]  # fmt: skip
    assert dropped, "some front row is off the size frontier: the old app greyed it out"
    # the steps climb from the cheapest row to the best, held level to the axis' far end
    corners = scatter["steps"]
    assert [c[0] for c in corners] == sorted(c[0] for c in corners) and corners[-1][0] == x["high"]
    best = max(result["data"]["results"], key=lambda r: r["metrics"]["Score"])
    assert returned[scatter["best"]] == best["id"]
