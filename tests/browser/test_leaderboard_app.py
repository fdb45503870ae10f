"""The leaderboard app in a real browser: headless Chromium loads it inside a small host page on
loopback that plays the host's side of the MCP Apps postMessage protocol with real `get_benchmark`
results, read from the running server by a real MCP client, together with the app's HTML (found
the way a host finds it: the tool's `_meta.ui.resourceUri`, then `resources/read`).

Two leaderboards of the sample catalog, each with its SOTA timeline: ImageNet (Top 1 Accuracy,
higher is better) and Penn Treebank word-level language modelling (Test perplexity, lower is
better). The rendered DOM is checked against what the test computes
on its own from the structured result: rows, points, the Pareto frontier, the best result, the
axis orientation (better is up), the timeline's steps; keyboard operation and the host's theme
too. A Pareto request on ImageNet's Top 1 Accuracy x GFLOPs plots those two metrics with every
returned row on the front; markup in a model name stays text; the app answers the host's
requests and ignores messages from anyone else. Screenshots go to the test's temporary
directory (light and dark) for a human to look at.

The host's style variables are data (issue #24): hostile ones (CSS escapes, `image-set()`, var()
chains, names the app does not read) make no request and set nothing, while the allowed ones
apply; the grammar is also checked value by value through the app's message handler.

Needs Debian's `chromium` (`.ci/run` installs it): without it the test is skipped, and fails
under CI=true like the other tests of external tools.
"""

from __future__ import annotations

import base64
import contextlib
import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from fastmcp import Client
from fastmcp.client.transports import StreamableHttpTransport

from pwc_mcp.app import create_app
from pwc_mcp.config import Settings
from pwc_mcp.sample import RunningCatalog
from pwc_mcp.serving.localserver import serve_in_thread
from tests.browser.cdp import Devtools, chromium
from tests.browser.harness import host_app
from tests.helpers.mcp import scored_rows

CASES = {
    "imagenet": ({"benchmark": "ImageNet", "timeline": True}, "Top 1 Accuracy", "higher"),
    "ptb": (
        {"benchmark": "Penn Treebank (Word Level)", "timeline": True},
        "Test perplexity",
        "lower",
    ),
}
# A Pareto request on the two metrics of the sample ImageNet board that trade off: accuracy up,
# compute down. Every row it returns is on the front.
PARETO = {"benchmark": "ImageNet", "pareto": ["Top 1 Accuracy:higher", "GFLOPs:lower"]}
HOSTILE = '<img src=x onerror="document.title=1">\u202e'
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
    cx: +c.getAttribute("cx"), cy: +c.getAttribute("cy"), label: c.getAttribute("aria-label"),
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
    xLabel: text("#scatter-x-label"),
    heading: text("#scatter-heading"),
    frontierCorners: ((document.querySelector("#scatter path.frontier") || {getAttribute: () => ""})
      .getAttribute("d") || "").split(/[ML]/).filter(Boolean).length,
    images: document.querySelectorAll("img, image").length,
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
        for i, row in enumerate(scored_rows(structured))
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
        for i, r in enumerate(scored_rows(structured))
        if metric in r.get("metrics", {})
    ]
    pick = max if direction == "higher" else min
    best = pick(value for _, value in scored)
    return next(i for i, value in scored if value == best)


# -- the running server, read by a real MCP client --------------------------------------------


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
            calls = {name: arguments for name, (arguments, _, _) in CASES.items()}
            for name, arguments in (calls | {"pareto": PARETO}).items():
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


def one_case_host(served: dict[str, Any], case: str) -> Any:
    """The host page holding one case's served result, in the light theme."""
    result = served["results"][case]
    return host_app(
        served["html"], {case: {"arguments": CASES[case][0], "result": result, "theme": "light"}}
    )


@contextlib.asynccontextmanager
async def app_in_chromium(
    host: Any, case: str, browser_binary: str, tmp_path: Path
) -> AsyncIterator[tuple[Devtools, Any, str, str]]:
    """The host page serving the app on loopback, opened in headless Chromium at `case`:
    (devtools, the running host, the page's session, the app frame's session)."""
    with (
        serve_in_thread(host, name="test-host", lifespan="off") as running,
        chromium(browser_binary, tmp_path) as browser,
    ):
        async with Devtools.connect(browser) as devtools:
            page, app = await open_app(devtools, running.origin, case)
            yield devtools, running, page, app


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
    up: dict[str, Any] = {"type": "keyUp"}
    for event in (down, up):
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
    async with app_in_chromium(host, case, browser_binary, tmp_path) as (
        devtools,
        running,
        page,
        app,
    ):
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
        rows = scored_rows(structured)
        points = plotted(structured, metric)
        best = best_row(structured, metric, direction)
        assert shown["title"].startswith(structured["data"]["benchmark"]["name"])
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
        records = structured["data"]["timeline"]["records"]
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
            assert await devtools.evaluate(f"{header(metric)}.closest('th').ariaSort", app) == aria
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
            e for e in devtools.seen("Log.entryAdded") if e["params"]["entry"]["level"] == "error"
        ]
        assert not errors, errors


# -- the host's style variables are data: an allowlist of names, a grammar for each value -----

ALLOWED_STYLES = {  # one of each grammar, as a host sends them
    "--color-background-primary": "#123456",
    "--color-text-primary": "rgb(250, 240, 230)",
    "--color-border-primary": "light-dark(#010203, hsl(0 0% 90%))",
    "--font-sans": '"Test Sans", Georgia, serif',
    "--font-weight-semibold": "700",
    "--border-radius-md": "3px",
}
APPLIED_STYLES = """(() => {
  const root = document.documentElement, body = getComputedStyle(document.body);
  const th = getComputedStyle(document.querySelector("#table thead th"));
  const custom = [...root.style].filter((p) => p.startsWith("--"));
  return {variables: Object.fromEntries(custom.map((p) => [p, root.style.getPropertyValue(p)])),
    background: body.backgroundColor, backgroundImage: body.backgroundImage, color: body.color,
    font: body.fontFamily, weight: th.fontWeight, border: th.borderBottomColor,
    radius: getComputedStyle(document.getElementById("tip")).borderTopLeftRadius};
})()"""


def themed(theme: str) -> str:
    """Resolves once the app has applied a host context with `theme` and painted twice."""
    return f"""new Promise((resolve) => {{
  const root = document.documentElement;
  const painted = () => requestAnimationFrame(() => requestAnimationFrame(() => resolve(true)));
  if (root.dataset.theme === {json.dumps(theme)}) return painted();
  new MutationObserver((_, watcher) => {{
    if (root.dataset.theme === {json.dumps(theme)}) {{ watcher.disconnect(); painted(); }}
  }}).observe(root, {{attributes: true, attributeFilter: ["data-theme"]}});
}})"""


def style_attacks(origin: str) -> list[dict[str, Any]]:
    """Host style variables that would each make the app request a probe URL of its own origin
    (the one origin its CSP loads images from) or inject CSS: one host context each."""

    def image(name: str) -> str:
        return f'image-set("{origin}/probe/{name}" 1x)'

    return [
        {"--color-background-primary": f"u\\72l({origin}/probe/escaped-r)"},
        {"--color-background-primary": f"\\75rl({origin}/probe/escaped-u)"},
        {"--color-background-primary": f"url({origin}/probe/url)"},
        {"--color-background-primary": image("image-set")},
        {"--color-background-secondary": f"image-set(u\\72l({origin}/probe/nested) 1x)"},
        {"--color-background-primary": f"{image('layer')}, #000"},
        {"--color-background-primary": "expression(alert(1))"},
        {"--probe-x": image("var-chain"), "--color-background-primary": "var(--probe-x)"},
        {
            "--color-background-secondary": image("var-allowed"),
            "--color-background-primary": "var(--color-background-secondary)",
        },
        {"--color-background-primary": "#fff;background-image:" + image("semicolon")},
        {"--color-background-primary": image("over-long") + " " * 300},
        {"--font-sans": '"Long Family Name", ' * 20 + "serif"},  # grammatical, over-long
        {"--c-bg": image("internal-name")},  # the app's own variables are not the host's
        {"--c-panel": image("internal-panel")},
        {"background-image": image("property")},
    ]


@pytest.mark.anyio
async def test_host_style_variables_cannot_make_the_app_load_anything(
    served: dict[str, Any], browser_binary: str, tmp_path: Path
) -> None:
    """Issue #24: escapes (`u\\72l(`), `image-set("…")`, var() chains, unknown names, over-long
    values are all dropped; nothing is requested; the allowed colours, font, weight and radius
    apply. A positive control at the end proves the probe would have seen a request."""
    case = "imagenet"
    probes: list[str] = []
    initial = {
        "variables": {
            **ALLOWED_STYLES,
            "--color-background-secondary": "image-set('/probe/initial' 1x)",
        }
    }
    cases = {
        case: {
            "arguments": CASES[case][0],
            "result": served["results"][case],
            "theme": "light",
            "styles": initial,
        }
    }
    async with app_in_chromium(
        host_app(served["html"], cases, probes), case, browser_binary, tmp_path
    ) as (devtools, running, page, app):
        theme = "light"
        for variables in [*style_attacks(running.origin), {}]:
            theme = "dark" if theme == "light" else "light"  # the mark that it was applied
            context = {"theme": theme, "styles": {"variables": variables}}
            await devtools.evaluate(f"window.hostContext({json.dumps(context)})", page)
            assert await devtools.evaluate(themed(theme), app)
        await devtools.evaluate("window.hostContext({theme: 'light'})", page)
        assert await devtools.evaluate(themed("light"), app)
        applied = await devtools.evaluate(APPLIED_STYLES, app)

        # The positive control: a background image set by the test in the app's frame.
        control = f"{running.origin}/probe/control"
        await devtools.evaluate(
            f"document.body.style.backgroundImage = 'image-set(\"{control}\" 1x)'", app
        )
        # answered, so the probe server has recorded it (sent is not yet received)
        await devtools.wait_for(
            "Network.responseReceived", lambda e: e["params"]["response"]["url"] == control
        )

        assert probes == ["control"], sorted(set(probes))
        requested = {
            e["params"]["request"]["url"] for e in devtools.seen("Network.requestWillBeSent")
        }
        documents = {f"{running.origin}/host/{case}", f"{running.origin}/app.html"}
        assert requested - documents == {control}, sorted(requested - documents)
        # Only the allowed variables were set, and they apply.
        assert applied["variables"] == ALLOWED_STYLES, applied["variables"]
        assert applied["background"] == "rgb(18, 52, 86)" and applied["backgroundImage"] == "none"
        assert applied["color"] == "rgb(250, 240, 230)"
        assert applied["font"] == '"Test Sans", Georgia, serif'
        assert applied["weight"] == "700" and applied["radius"] == "3px"
        assert applied["border"] == "rgb(1, 2, 3)"  # light-dark(), light theme
        assert not devtools.seen("Runtime.exceptionThrown")


# (name, value, accepted): the app's filter, value by value, through its message handler.
STYLE_GRAMMAR: list[tuple[str, Any, bool]] = [
    *(
        ("--color-text-secondary", value, True)
        for value in (
            "#abc",
            "#abcd",
            "#a1b2c3",
            "#A1B2C3D4",
            "rgb(1, 2, 3)",
            "rgba(1,2,3,0.5)",
            "rgb(10% 20% 30% / 50%)",
            "hsl(210deg 40% 50%)",
            "hsla(210, 40%, 50%, .5)",
            "transparent",
            "currentColor",
            "white",
            " #fff ",
            "light-dark(#ffffff, #171717)",
            "light-dark(rgb(1 2 3), hsl(0 0% 10%))",
        )
    ),
    *(
        ("--color-text-secondary", value, False)
        for value in (
            "u\\72l(x)",
            "\\75rl(x)",
            "url(x)",
            'image-set("x" 1x)',
            "expression(alert(1))",
            "var(--x)",
            "rgb(var(--x), 0, 0)",
            "rgb(1, 2)",
            "rgb(1, 2, 3, 4, 5)",
            "rgb(1,,2,3)",
            "rgb(calc(1), 2, 3)",
            "#abcde",
            "#ab",
            "color-mix(in srgb, red, blue)",
            "light-dark(var(--a), red)",
            "light-dark(light-dark(#fff, #000), red)",
            "red;background:red",
            "red !important",
            "env(safe-area-inset-top)",
            "r\\ed",
            "rebeccapurple",
            "attr(data-x)",
            "",
            "red}body{color:red",
            "#fff /**/",
            7,
        )
    ),
    *(
        ("--font-sans", value, True)
        for value in (
            '"Segoe UI", system-ui, -apple-system, BlinkMacSystemFont, sans-serif',
            "Inter",
            "'Noto Sans', Arial",
            "Times New Roman, serif",
        )
    ),
    *(
        ("--font-sans", value, False)
        for value in (
            'Arial, image-set("x" 1x)',
            '"Seg\\6f e UI"',
            "Arial;",
            "local(Arial)",
            "Arial,,serif",
            '"Long Family Name", ' * 20 + "serif",
            "a, " * 21 + "serif",
            "var(--font-mono)",
            '"unclosed, serif',
        )
    ),
    *(("--font-weight-semibold", value, True) for value in ("600", "1000", "1")),
    *(
        ("--font-weight-semibold", value, False)
        for value in ("bold", "600.5", "0", "1001", "calc(600)", "6\\30 0", 600)
    ),
    *(("--border-radius-sm", value, True) for value in ("4px", "0.5rem", "1em", "50%", "0")),
    *(
        ("--border-radius-sm", value, False)
        for value in ("4", "4px 2px", "-1px", "1e3px", "calc(1px + 1px)", "4vh", "4p\\78")
    ),
    *(
        (name, "#fff", False)  # names off the allowlist, even with a good value
        for name in (
            "--bg",
            "--c-bg",
            "--color-background-tertiary",
            "--COLOR-TEXT-PRIMARY",
            "background",
            "color",
            "__proto__",
            "constructor",
            "--x",
        )  # fmt: skip
    ),
]
GRAMMAR = """((cases) => {
  const root = document.documentElement;
  const deliver = (variables) => window.dispatchEvent(new MessageEvent("message", {
    source: window.parent,
    data: {jsonrpc: "2.0", method: "ui/notifications/host-context-changed",
           params: {styles: {variables}}}}));
  return cases.map(([name, value]) => {
    root.style.removeProperty(name);
    deliver({[name]: value});
    return root.style.getPropertyValue(name);
  });
})"""


@pytest.mark.anyio
async def test_the_style_variable_grammar_value_by_value(
    served: dict[str, Any], browser_binary: str, tmp_path: Path
) -> None:
    """Each name and value straight into the app's message handler (a MessageEvent from the
    host's window): the allowed ones are set as given (trimmed), all others dropped."""
    case = "imagenet"
    async with app_in_chromium(one_case_host(served, case), case, browser_binary, tmp_path) as (
        devtools,
        running,
        _,
        app,
    ):
        table = [[name, value] for name, value, _ in STYLE_GRAMMAR]
        got = await devtools.evaluate(f"{GRAMMAR}({json.dumps(table)})", app)
    wrong = [
        (name, value, result)
        for (name, value, accepted), result in zip(STYLE_GRAMMAR, got, strict=True)
        if result != (value.strip() if accepted else "")
    ]
    assert not wrong, wrong


# -- a Pareto request on two metrics, hostile text, and the protocol's other messages ----------


@pytest.mark.anyio
async def test_a_pareto_request_plots_its_two_metrics_and_its_whole_front(
    served: dict[str, Any], browser_binary: str, tmp_path: Path
) -> None:
    """Before: the app plotted accuracy against parameters and greyed out Swin-B, a row the server
    returned as on the front. Now the axes are the two objectives, better up and left, and every
    row of the result is drawn on the front. A model name that is markup stays text."""
    result = json.loads(json.dumps(served["results"]["pareto"]))
    rows = result["structuredContent"]["data"]["results"]
    assert {"Swin-B", "Swin-L (384 res, ImageNet-22k pretrain)"} <= {r["model_name"] for r in rows}
    rows[-1]["model_name"] = HOSTILE
    for point in result["structuredContent"]["chart"]["scatter"]["points"]:
        if point["row"] == len(rows) - 1:
            point["label"] = HOSTILE
    cases = {"pareto": {"arguments": PARETO, "result": result, "theme": "light"}}
    async with app_in_chromium(
        host_app(served["html"], cases), "pareto", browser_binary, tmp_path
    ) as (devtools, running, page, app):
        shown = await devtools.evaluate(SNAPSHOT, app)
        await screenshot(devtools, page, tmp_path / "pareto-light.png")
        header = await devtools.evaluate(
            "document.querySelector('#table tbody tr:last-child th').textContent", app
        )
        assert not devtools.seen("Runtime.exceptionThrown")

    assert shown["problem"] is None
    assert shown["heading"] == "Top 1 Accuracy against GFLOPs"
    assert shown["yLabel"].startswith("Top 1 Accuracy") and "higher is better" in shown["yLabel"]
    assert shown["xLabel"].startswith("GFLOPs") and "lower is better" in shown["xLabel"]
    # every row the server returned is drawn, and drawn on the front; none greyed out
    assert sorted(p["row"] for p in shown["points"]) == list(range(len(rows)))
    assert all(p["frontier"] for p in shown["points"])
    assert shown["frontierCorners"] == 2 * len(rows)  # a step per row, and the level end
    # better is up (accuracy) and left (fewer GFLOPs)
    placed = positions(shown["points"], rows)
    for a, b in ((a, b) for a in placed for b in placed):
        if a["top1"] > b["top1"]:
            assert a["cy"] < b["cy"]
        if a["gflops"] < b["gflops"]:
            assert a["cx"] < b["cx"]
    assert header == HOSTILE and shown["images"] == 0, "markup in a model name stays text"
    assert any(p["label"].startswith(HOSTILE) for p in shown["points"])


def positions(points: list[dict[str, Any]], rows: list[dict[str, Any]]) -> list[dict[str, float]]:
    """Each drawn point's position beside its row's own two values."""
    return [
        {
            "cx": p["cx"],
            "cy": p["cy"],
            "top1": float(str(rows[p["row"]]["metrics"]["Top 1 Accuracy"]).rstrip("%")),
            "gflops": float(rows[p["row"]]["metrics"]["GFLOPs"]),
        }
        for p in points
    ]


# The host's side of the other messages: requests the app must answer, and a message that is
# not from the host (the app's own window posting to itself), which it must ignore.
ANSWERS = """new Promise((resolve) => {
  const frame = document.getElementById("app"), got = {};
  window.addEventListener("message", (event) => {
    const m = event.data;
    if (event.source !== frame.contentWindow || ![71, 72, 73].includes(m.id)) return;
    got[m.id] = m;
    if (Object.keys(got).length === 3) resolve(got);
  });
  for (const [id, method] of [[71, "ping"], [72, "ui/resource-teardown"], [73, "tools/call"]])
    frame.contentWindow.postMessage({jsonrpc: "2.0", id, method, params: {}}, "*");
})"""
SPOOF = """window.postMessage({jsonrpc: "2.0", method: "ui/notifications/tool-result",
  params: {isError: true, content: [{type: "text", text: "spoofed"}]}}, "*")"""
PROBLEM = """({hidden: document.getElementById("problem").hidden,
  text: document.getElementById("problem").textContent,
  rendered: document.documentElement.dataset.rendered})"""


@pytest.mark.anyio
async def test_the_app_answers_the_hosts_requests_and_ignores_anyone_else(
    served: dict[str, Any], browser_binary: str, tmp_path: Path
) -> None:
    case = "imagenet"
    async with app_in_chromium(one_case_host(served, case), case, browser_binary, tmp_path) as (
        devtools,
        running,
        page,
        app,
    ):
        before = await devtools.evaluate(PROBLEM, app)
        await devtools.evaluate(SPOOF, app)  # queued before the host's requests below
        answers = await devtools.evaluate(ANSWERS, page)
        after = await devtools.evaluate(PROBLEM, app)
        log = await devtools.evaluate("window.hostLog.map((m) => m.method || null)", page)
    assert answers["71"]["result"] == {} and answers["72"]["result"] == {}
    assert answers["73"]["error"]["code"] == -32601
    assert before["hidden"] and after == before, "a message from the app's own window is ignored"
    # what the app sent: initialize, initialized, then size reports only
    assert log[:2] == ["ui/initialize", "ui/notifications/initialized"]
    assert set(log[2:]) <= {"ui/notifications/size-changed", None}
