"""The leaderboard app in a real browser: headless Chromium loads it inside a small host page on
loopback that plays the host's side of the MCP Apps postMessage protocol with real `get_benchmark`
results, read from the running server by a real MCP client, together with the app's HTML (found
the way a host finds it: the tool's `_meta.ui.resourceUri`, then `resources/read`).

Two leaderboards of the sample catalog, each with its SOTA timeline: ImageNet (Top 1 Accuracy,
higher is better) and Penn Treebank word-level language modelling (Test perplexity, lower is
better). The rendered DOM is checked against what the test computes
on its own from the structured result: rows, points, the Pareto frontier, the best result, the
axis orientation (better is up), the timeline's steps; keyboard operation and the host's theme
too. Screenshots go to the test's temporary directory (light and dark) for a human to look at.

Needs Debian's `chromium` (`.ci/run` installs it): without it the test is skipped, and fails
under CI=true like the other tests of external tools.
"""

from __future__ import annotations

import base64
import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from fastmcp import Client
from fastmcp.client.transports import StreamableHttpTransport

from pwc_mcp.app import create_app
from pwc_mcp.config import Settings
from pwc_mcp.localserver import serve_in_thread
from pwc_mcp.sample import RunningCatalog
from tests.browser.cdp import Devtools, chromium
from tests.browser.harness import host_app
from tests.helpers.ops import require_tool

CASES = {
    "imagenet": ({"benchmark": "ImageNet", "timeline": True}, "Top 1 Accuracy", "higher"),
    "ptb": (
        {"benchmark": "Penn Treebank (Word Level)", "timeline": True},
        "Test perplexity",
        "lower",
    ),
}
DOMAINS = ("Page", "Runtime", "Network", "Log")

RENDERED = """new Promise((resolve) => {
  const done = () => document.documentElement.dataset.rendered;
  if (done()) return resolve(true);
  new MutationObserver((_, watcher) => { if (done()) { watcher.disconnect(); resolve(true); } })
    .observe(document.documentElement, {attributes: true, attributeFilter: ["data-rendered"]});
})"""

SNAPSHOT = """(() => {
  const all = (s) => [...document.querySelectorAll(s)];
  const text = (s) => (document.querySelector(s) || {}).textContent || null;
  const circle = (c) => ({row: c.dataset.row === undefined ? null : +c.dataset.row,
    frontier: c.dataset.frontier === "1", best: c.classList.contains("best"),
    cy: +c.getAttribute("cy"), label: c.getAttribute("aria-label"),
    tabindex: c.getAttribute("tabindex"), date: c.dataset.date || null, value: +c.dataset.value});
  return {
    problem: document.getElementById("problem").hidden ? null : text("#problem"),
    title: text("#title"),
    rows: all("#table tbody tr").map((tr) => ({row: +tr.dataset.row, best: tr.classList.contains("best")})),
    badges: all("#table .badge").map((b) => +b.closest("tr").dataset.row),
    headers: all("#table thead th").map((th) => th.getAttribute("aria-sort")),
    points: all("#scatter circle.pt").map(circle),
    frontierPath: document.querySelector("#scatter path.frontier") !== null,
    yLabel: text("#scatter-y-label"),
    direction: text("#scatter-direction"),
    timelineShown: !document.getElementById("timeline-section").hidden,
    timeline: all("#timeline circle.pt").map(circle),
    timelineLabel: text("#timeline-y-label"),
    theme: document.documentElement.dataset.theme || null,
    background: getComputedStyle(document.body).backgroundColor,
  };
})()"""

# The body's background once the host's dark theme is applied and painted (two frames later).
DARK = """new Promise((resolve) => {
  const root = document.documentElement;
  const painted = () => requestAnimationFrame(() => requestAnimationFrame(
    () => resolve(getComputedStyle(document.body).backgroundColor)));
  if (root.dataset.theme === "dark") return painted();
  new MutationObserver((_, watcher) => {
    if (root.dataset.theme === "dark") { watcher.disconnect(); painted(); }
  }).observe(root, {attributes: true, attributeFilter: ["data-theme"]});
})"""

ROW_ORDER = "[...document.querySelectorAll('#table tbody tr')].map((tr) => +tr.dataset.row)"
TIP = """({focused: document.activeElement.dataset.row,
  shown: !document.getElementById("tip").hidden,
  text: document.getElementById("tip").textContent})"""


def header(metric: str) -> str:
    """The expression for a metric column's sort button."""
    return f"document.querySelector('#table th button[data-key={json.dumps('m:' + metric)}]')"


def luminance(css_rgb: str) -> float:
    red, green, blue = (int(x) for x in css_rgb[css_rgb.index("(") + 1 : -1].split(",")[:3])
    return 0.2126 * red + 0.7152 * green + 0.0722 * blue


# -- what the test expects, computed on its own from the structured result ------------------


def metric_and_direction(structured: dict[str, Any]) -> tuple[str, str]:
    main = next(s for s in structured["data"]["task_scopes"] if s["main"])
    return main["primary_metric"], main["direction"]


def plotted(structured: dict[str, Any], metric: str) -> list[tuple[int, int, float]]:
    return [
        (i, row["num_parameters"], row["metrics"][metric])
        for i, row in enumerate(structured["evaluations"])
        if row.get("num_parameters") and metric in row.get("metrics", {})
    ]


def pareto(points: list[tuple[int, int, float]], direction: str) -> set[int]:
    """Rows no other row beats or equals with at most as many parameters (by definition, pair
    by pair; among exact ties the earlier row stands)."""
    sign = 1 if direction == "higher" else -1

    def beaten(p: tuple[int, int, float]) -> bool:
        i, size, value = p
        return any(
            q_size <= size
            and (sign * q_value > sign * value or (q_value == value and (q_size < size or j < i)))
            for j, q_size, q_value in points
            if j != i
        )

    return {p[0] for p in points if not beaten(p)}


def best_row(structured: dict[str, Any], metric: str, direction: str) -> int:
    scored = [
        (i, r["metrics"][metric])
        for i, r in enumerate(structured["evaluations"])
        if metric in r.get("metrics", {})
    ]
    pick = max if direction == "higher" else min
    best = pick(value for _, value in scored)
    return next(i for i, value in scored if value == best)


# -- the running server, read by a real MCP client --------------------------------------------


@pytest.fixture(scope="module")
def browser_binary() -> str:
    return require_tool("chromium", "/usr/bin/chromium", hint="apt-get install chromium")


@pytest.fixture(scope="module")
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture(scope="module")
async def served(sample: RunningCatalog) -> AsyncIterator[dict[str, Any]]:
    """The app's HTML and each case's tools/call result, as a host gets them."""
    with serve_in_thread(create_app(Settings(api_url=sample.url)), name="pwc-mcp") as server:
        async with Client(StreamableHttpTransport(f"{server.origin}/mcp")) as client:
            tools = {t.name: t for t in (await client.list_tools_mcp()).tools}
            uri = tools["get_benchmark"].meta["ui"]["resourceUri"]
            (content,) = (await client.read_resource_mcp(uri)).contents
            assert content.mime_type == "text/html;profile=mcp-app"
            results = {}
            for name, (arguments, _, _) in CASES.items():
                result = await client.call_tool_mcp("get_benchmark", arguments)
                assert not result.is_error, result.content
                results[name] = result.model_dump(mode="json", by_alias=True, exclude_none=True)
    yield {"html": content.text, "results": results}


async def open_app(devtools: Devtools, origin: str, case: str) -> tuple[str, str]:
    page = await devtools.open_page(DOMAINS)
    await devtools.send(
        "Emulation.setDeviceMetricsOverride",
        {"width": 1040, "height": 900, "deviceScaleFactor": 1, "mobile": False},
        session=page,
    )
    # A headless tab is never the focused window; key events need a focused page.
    await devtools.send("Emulation.setFocusEmulationEnabled", {"enabled": True}, session=page)
    await devtools.send("Page.navigate", {"url": f"{origin}/host/{case}"}, session=page)
    await devtools.wait_for("Page.loadEventFired", lambda e: e.get("sessionId") == page)
    app = devtools.frame_session("/app.html")
    assert await devtools.evaluate(RENDERED, app)
    return page, app


async def screenshot(devtools: Devtools, page: str, path: Path) -> None:
    """The whole host page: the viewport is grown to it (out-of-process frames are not painted
    beyond the viewport by captureBeyondViewport)."""
    height = await devtools.evaluate("document.documentElement.scrollHeight", page)
    await devtools.send(
        "Emulation.setDeviceMetricsOverride",
        {"width": 1040, "height": height, "deviceScaleFactor": 1, "mobile": False},
        session=page,
    )
    shot = await devtools.send("Page.captureScreenshot", {"format": "png"}, session=page)
    path.write_bytes(base64.b64decode(shot["data"]))
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and path.stat().st_size > 10_000


async def press(devtools: Devtools, page: str, key: str) -> None:
    codes = {"Enter": 13, "ArrowRight": 39, "ArrowLeft": 37, "End": 35, "Home": 36}
    down: dict[str, Any] = {"type": "rawKeyDown"}
    if key == "Enter":  # a key with text: keyDown also sends the character, which activates
        down = {"type": "keyDown", "text": "\r", "unmodifiedText": "\r"}
    for event in (down, {"type": "keyUp"}):
        event.update(key=key, code=key, windowsVirtualKeyCode=codes[key])
        await devtools.send("Input.dispatchKeyEvent", event, session=page)


@pytest.mark.anyio
@pytest.mark.parametrize("case", list(CASES))
async def test_the_app_renders_the_leaderboard_in_chromium(
    case: str, served: dict[str, Any], browser_binary: str, tmp_path: Path
) -> None:
    _, metric, direction = CASES[case]
    result = served["results"][case]
    structured = result["structuredContent"]
    assert metric_and_direction(structured) == (metric, direction)
    cases = {case: {"arguments": CASES[case][0], "result": result, "theme": "light"}}
    host = host_app(served["html"], cases)
    with (
        serve_in_thread(host, name="test-host", lifespan="off") as running,
        chromium(browser_binary, tmp_path) as browser,
    ):
        async with Devtools.connect(browser) as devtools:
            page, app = await open_app(devtools, running.origin, case)
            shown = await devtools.evaluate(SNAPSHOT, app)
            await screenshot(devtools, page, tmp_path / f"{case}-light.png")

            # The protocol, as the host saw it: initialize first, then initialized.
            sent = await devtools.evaluate("window.hostLog", page)
            assert [m.get("method") for m in sent[:2]] == [
                "ui/initialize",
                "ui/notifications/initialized",
            ]
            assert sent[0]["params"]["protocolVersion"] == "2026-01-26"

            # What the DOM shows equals what the test computed from the structured result.
            assert shown["problem"] is None
            rows = structured["evaluations"]
            points = plotted(structured, metric)
            best = best_row(structured, metric, direction)
            assert shown["title"].startswith(structured["benchmark"]["name"])
            assert [r["row"] for r in shown["rows"]] == list(range(len(rows)))
            assert [r["row"] for r in shown["rows"] if r["best"]] == [best]
            assert shown["badges"] == [best]
            assert sorted(p["row"] for p in shown["points"]) == [p[0] for p in points]
            frontier = {p["row"] for p in shown["points"] if p["frontier"]}
            assert frontier == pareto(points, direction) and shown["frontierPath"]
            assert [p["row"] for p in shown["points"] if p["best"]] == (
                [best] if any(p[0] == best for p in points) else []
            )
            words = f"{direction} is better"
            assert words in shown["yLabel"] and words in shown["direction"]
            # Better is up: the best plotted value is drawn highest (smallest y), the worst lowest.
            by_value = sorted(shown["points"], key=lambda p: p["value"])
            low, high = by_value[0], by_value[-1]
            better, worse = (high, low) if direction == "higher" else (low, high)
            if better["value"] != worse["value"]:
                assert better["cy"] < worse["cy"]
            for p in shown["points"]:
                row = rows[p["row"]]
                assert row["model_name"] in p["label"] and row["paper_title"] in p["label"]
                assert p["tabindex"] in ("0", "-1")
            # The timeline: one step per record, oldest first, better up.
            records = structured["timeline"]["records"]
            assert shown["timelineShown"] and words in shown["timelineLabel"]
            assert [(p["date"], p["value"]) for p in shown["timeline"]] == [
                (r["date"], r["value"]) for r in records
            ]
            ys = [p["cy"] for p in shown["timeline"]]
            assert ys == sorted(ys, reverse=True) and len(set(ys)) == len(ys)

            # Keyboard: a header sorts on Enter (better first, then reversed; unknown values
            # last); arrow keys walk the points and the tip shows model, paper, date and value.
            scored = sorted(
                (-value if direction == "higher" else value, i)
                for i, row in enumerate(rows)
                if (value := row["metrics"].get(metric)) is not None
            )
            unscored = [i for i, row in enumerate(rows) if metric not in row["metrics"]]
            better_first = [i for _, i in scored]
            worse_first = [i for _, i in sorted((-key, i) for key, i in scored)]
            for expected, aria in (
                (better_first, "descending" if direction == "higher" else "ascending"),
                (worse_first, "ascending" if direction == "higher" else "descending"),
            ):
                await devtools.evaluate(f"{header(metric)}.focus()", app)
                await press(devtools, page, "Enter")
                order = await devtools.evaluate(ROW_ORDER, app)
                assert order == expected + unscored
                assert (
                    await devtools.evaluate(f"{header(metric)}.closest('th').ariaSort", app) == aria
                )
            await devtools.evaluate(
                "document.querySelector('#scatter .pt[tabindex=\"0\"]').focus()", app
            )
            await press(devtools, page, "End")
            tip = await devtools.evaluate(TIP, app)
            last = max(points, key=lambda p: (p[1], p[0]))
            assert tip["shown"] and int(tip["focused"]) == last[0]
            source = structured["data"]["results"][last[0]]
            for part in (rows[last[0]]["model_name"], rows[last[0]]["paper_title"],
                         source["paper_published_date"], str(last[2])):  # fmt: skip
                assert part in tip["text"], (part, tip["text"])

            # The host's theme wins over the system's; the dark screenshot is for a human.
            await devtools.evaluate("window.hostTheme('dark')", page)
            dark = await devtools.evaluate(DARK, app)
            assert shown["theme"] == "light" and luminance(dark) < luminance(shown["background"])
            await screenshot(devtools, page, tmp_path / f"{case}-dark.png")

            # Nothing but the two documents was requested; no errors, no CSP violations.
            requested = {
                e["params"]["request"]["url"] for e in devtools.seen("Network.requestWillBeSent")
            }
            assert requested == {f"{running.origin}/host/{case}", f"{running.origin}/app.html"}
            assert not devtools.seen("Runtime.exceptionThrown")
            errors = [
                e
                for e in devtools.seen("Log.entryAdded")
                if e["params"]["entry"]["level"] == "error"
            ]
            assert not errors, errors
