// @ts-check
/*
 * The leaderboard app's script (MCP Apps, io.modelcontextprotocol/ui), in a browser: it speaks
 * the host protocol, takes the host's theme, and draws the structured result of get_benchmark:
 * the table from `evaluations` and the charts from `chart`, which the server computed
 * (pwc_core/chart.py, chart_json.py). view.js checks the result, scenes.js describes what to
 * draw; this module only turns the descriptions into elements (text and attribute values only,
 * never markup), wires the tooltip and keys, and answers the host.
 *
 * pwc_mcp/ui/__init__.py inlines the three modules, in order, into leaderboard.html: one module
 * scope, so their top-level names are distinct. Node's test runner imports them (tests/js); the
 * browser part starts only where there is a document.
 */

import { list, obj, str, toView } from "./view.js";
import { columns, nextSort, scatterScene, summary, tableScene, timelineScene } from "./scenes.js";

/** @import { View } from "./view.js" */
/** @import { Scene, Sort, VNode } from "./scenes.js" */

export const PROTOCOL = "2026-01-26";
const NS = "http://www.w3.org/2000/svg";

// ---- host context: the host's style variables are data, not CSS ------------------------------
// Only the names this stylesheet reads are taken, each value whole against its grammar below. No
// backslash (so no CSS escape), no parenthesis but a colour function's, no var(); anything else
// is dropped, never repaired or unescaped.
const NUMBER = /^[+-]?(?:\d{1,4}(?:\.\d{1,4})?|\.\d{1,4})(?:%|deg)?$/i;
const NAMED_COLOURS = new Set(["transparent", "currentcolor", "black", "white", "gray", "grey", "silver",
  "red", "maroon", "orange", "yellow", "green", "lime", "olive", "teal", "navy", "blue", "purple", "fuchsia", "aqua"]);
const SIMPLE_COLOUR = "#[0-9a-f]{3,8}|[a-z]{3,20}|(?:rgba?|hsla?)\\([^()]{1,80}\\)";
const LIGHT_DARK = new RegExp("^light-dark\\(\\s*(" + SIMPLE_COLOUR + ")\\s*,\\s*(" + SIMPLE_COLOUR + ")\\s*\\)$", "i");
/** #rgb #rgba #rrggbb #rrggbbaa, a named colour, rgb[a]()/hsl[a]() of numbers. @param {string} v */
function isSimpleColour(v) {
  if (/^#(?:[0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})$/i.test(v) || NAMED_COLOURS.has(v.toLowerCase())) return true;
  const call = /^(?:rgba?|hsla?)\(([^()]*)\)$/i.exec(v);
  const args = call ? call[1].trim().split(/\s*[,/]\s*|\s+/) : [];
  return args.length >= 3 && args.length <= 4 && args.every((a) => NUMBER.test(a));
}
/** A simple colour, or light-dark() of two (hosts theme both schemes at once). @param {string} v */
function isColour(v) {
  const pair = LIGHT_DARK.exec(v);
  return pair ? isSimpleColour(pair[1]) && isSimpleColour(pair[2]) : isSimpleColour(v);
}
/** Quoted or bare family names: letters, digits, spaces and hyphens. @param {string} v */
function isFontList(v) {
  const names = v.split(",");
  return names.length <= 20 && names.every((n) =>
    /^(?:"[a-z0-9 -]{1,60}"|'[a-z0-9 -]{1,60}'|[a-z0-9-]{1,60}(?: [a-z0-9-]{1,60}){0,5})$/i.test(n.trim()));
}
/** @param {string} v */
const isLength = (v) => /^(?:0|(?:\d{1,4}(?:\.\d{1,4})?|\.\d{1,4})(?:px|rem|em|%))$/i.test(v);
/** @param {string} v */
const isWeight = (v) => /^(?:[1-9]\d{0,2}|1000)$/.test(v);
/** @type {Map<string, (v: string) => boolean>} */
const THEME_VARIABLES = new Map([
  ["--color-background-primary", isColour], ["--color-background-secondary", isColour],
  ["--color-text-primary", isColour], ["--color-text-secondary", isColour],
  ["--color-border-primary", isColour], ["--color-ring-primary", isColour],
  ["--font-sans", isFontList], ["--font-weight-semibold", isWeight],
  ["--border-radius-sm", isLength], ["--border-radius-md", isLength],
]);
/** The value to set, or null to drop the variable. @param {string} name @param {unknown} value */
export function themeValue(name, value) {
  const valid = THEME_VARIABLES.get(name);
  if (!valid || typeof value !== "string" || value.length > 300 || /[\\;{}!<>]/.test(value)) return null;
  const trimmed = value.trim();
  return valid(trimmed) ? trimmed : null;
}

// ---- the browser part: the DOM, the tooltip, the host protocol -------------------------------

/** @param {Document} doc @param {Window} win */
function start(doc, win) {
  const root = doc.documentElement;
  /** @param {string} id @returns {HTMLElement} */
  const $ = (id) => /** @type {HTMLElement} */ (doc.getElementById(id));
  /** @type {{view: View | null, sort: Sort | null, ready: boolean}} */
  const state = { view: null, sort: null, ready: false };

  /** Elements from a description; `tipped` collects those with a tooltip, in order.
   * @param {VNode} node @param {boolean} svg @param {Array<{node: Element, tip: string[]}>} tipped
   * @returns {Element} */
  function build(node, svg, tipped) {
    const e = svg ? doc.createElementNS(NS, node.tag) : doc.createElement(node.tag);
    for (const k of Object.keys(node.attrs)) e.setAttribute(k, String(node.attrs[k]));
    if (node.text != null) e.textContent = node.text;
    for (const c of node.children) e.appendChild(build(c, svg, tipped));
    if (node.tip) tipped.push({ node: e, tip: node.tip });
    return e;
  }
  /** @param {Element} target @param {string[]} lines */
  function showTip(target, lines) {
    const tip = $("tip");
    tip.replaceChildren();
    lines.forEach((line, k) => {
      if (!line) return;
      const e = doc.createElement(k === 0 ? "b" : "div");
      e.textContent = line;
      tip.appendChild(e);
    });
    tip.hidden = false;
    const r = target.getBoundingClientRect();
    const w = tip.offsetWidth, ht = tip.offsetHeight;
    let x = r.right + 8 + win.scrollX, y = r.top - ht - 6 + win.scrollY;
    if (x + w > win.scrollX + root.clientWidth - 4) x = r.left - w - 8 + win.scrollX;
    if (y < win.scrollY + 2) y = r.bottom + 6 + win.scrollY;
    tip.style.left = Math.max(2, x) + "px";
    tip.style.top = Math.max(2, y) + "px";
  }
  function hideTip() { $("tip").hidden = true; }
  /** Hover and focus show the tip; arrow keys move between points (one tab stop per chart).
   * @param {Array<{node: Element, tip: string[]}>} points */
  function wirePoints(points) {
    points.forEach((p, k) => {
      const c = /** @type {SVGElement} */ (p.node);
      c.setAttribute("tabindex", k === 0 ? "0" : "-1");
      const show = () => showTip(c, p.tip);
      c.addEventListener("mouseenter", show);
      c.addEventListener("mouseleave", () => { if (doc.activeElement !== c) hideTip(); });
      c.addEventListener("focus", () => {
        points.forEach((q) => q.node.setAttribute("tabindex", q === p ? "0" : "-1"));
        show();
      });
      c.addEventListener("blur", hideTip);
      c.addEventListener("keydown", (ev) => {
        /** @type {Record<string, number>} */
        const moves = { ArrowRight: k + 1, ArrowUp: k + 1, ArrowLeft: k - 1, ArrowDown: k - 1, Home: 0, End: points.length - 1 };
        if (ev.key === "Escape") { hideTip(); return; }
        if (!(ev.key in moves)) return;
        ev.preventDefault();
        const next = points[Math.max(0, Math.min(points.length - 1, moves[ev.key]))];
        /** @type {SVGElement} */ (next.node).focus();
      });
    });
  }
  /** @param {string} prefix @param {Scene | null} scene */
  function drawChart(prefix, scene) {
    const section = $(prefix + "-section"), svg = $(prefix);
    if (!scene) { section.hidden = true; return; }
    $(prefix + "-heading").textContent = scene.heading;
    $(prefix + "-direction").textContent = scene.direction;
    $(prefix + "-note").textContent = scene.note;
    const legend = doc.getElementById(prefix + "-legend");
    if (legend) {
      legend.replaceChildren(...scene.legend.map(([cls, text]) => {
        const item = doc.createElement("span"), key = doc.createElement("span");
        key.className = "key " + cls;
        item.append(key, text);
        return item;
      }));
    }
    /** @type {Array<{node: Element, tip: string[]}>} */
    const tipped = [];
    svg.replaceChildren(...scene.children.map((c) => build(c, true, tipped)));
    svg.setAttribute("aria-label", scene.label);
    wirePoints(tipped);
    section.hidden = false;
  }
  /** @param {View} view */
  function drawTable(view) {
    if (!view.rows.length) { $("table-section").hidden = true; return; }
    const table = /** @type {HTMLTableElement} */ ($("table"));
    const scene = tableScene(view, state.sort);
    const none = /** @type {Array<{node: Element, tip: string[]}>} */ ([]);
    /** @type {HTMLTableSectionElement} */ (table.tHead).replaceChildren(build(scene.head, false, none));
    table.tBodies[0].replaceWith(build(scene.body, false, none));
    const cols = columns(view);
    for (const button of table.querySelectorAll("th button")) {
      const key = button.getAttribute("data-key");
      const column = cols.find((c) => c.key === key);
      if (!column) continue;
      button.addEventListener("click", () => {
        state.sort = nextSort(view, column, state.sort);
        drawTable(view);
        const again = table.querySelector('th button[data-key="' + CSS.escape(column.key) + '"]');
        if (again) /** @type {HTMLElement} */ (again).focus();
      });
    }
    $("table-caption").textContent = scene.caption;
    $("table-section").hidden = false;
  }
  function rendered() { root.dataset.rendered = String(Number(root.dataset.rendered || 0) + 1); }
  /** @param {View} view */
  function render(view) {
    state.view = view;
    $("title").textContent = view.name + " leaderboard";
    doc.title = view.name + " leaderboard";
    $("summary").textContent = summary(view);
    $("problem").hidden = true;
    hideTip();
    drawChart("scatter", scatterScene(view));
    drawChart("timeline", timelineScene(view));
    drawTable(view);
    rendered();
  }
  /** @param {string} text */
  function problem(text) {
    const box = $("problem");
    box.textContent = text;
    box.hidden = false;
    rendered();
  }
  /** @param {unknown} input */
  function onToolResult(input) {
    const params = obj(input);
    const text = list(params.content, 20).map(obj).filter((c) => c.type === "text").map((c) => str(c.text, 2000)).join("\n");
    if (params.isError) { problem(text || "The tool call failed."); return; }
    let sc = obj(params.structuredContent);
    if (!Object.keys(sc).length && text) { try { sc = obj(JSON.parse(text)); } catch (e) { sc = {}; } }
    if (!Array.isArray(sc.evaluations) && !Array.isArray(obj(sc.data).results)) { problem("This result is not a leaderboard."); return; }
    render(toView(sc));
  }
  /** @param {unknown} input */
  function applyContext(input) {
    const ctx = obj(input);
    if (ctx.theme === "light" || ctx.theme === "dark") { root.dataset.theme = ctx.theme; root.style.colorScheme = ctx.theme; }
    const vars = obj(obj(ctx.styles).variables);
    for (const k of Object.keys(vars).slice(0, 200)) {
      const v = themeValue(k, vars[k]);
      if (v !== null) root.style.setProperty(k, v);
    }
    const dims = obj(ctx.containerDimensions);
    if (typeof dims.maxHeight === "number") root.style.maxHeight = dims.maxHeight + "px";
  }

  // The MCP Apps postMessage protocol (JSON-RPC 2.0 with the host window).
  let nextId = 1;
  /** @type {Map<number, {resolve: (v: Record<string, unknown>) => void, reject: (e: unknown) => void}>} */
  const pending = new Map();
  /** @param {Record<string, unknown>} message */
  function post(message) { win.parent.postMessage(Object.assign({ jsonrpc: "2.0" }, message), "*"); }
  /** @param {string} method @param {Record<string, unknown>} params @returns {Promise<Record<string, unknown>>} */
  function request(method, params) {
    const id = nextId++;
    post({ id, method, params });
    return new Promise((resolve, reject) => pending.set(id, { resolve, reject }));
  }
  /** @param {string} method @param {Record<string, unknown>} params */
  function notify(method, params) { post({ method, params }); }
  /** @type {Record<string, (params: unknown) => void>} */
  const notifications = {
    "ui/notifications/tool-input": (p) => {
      const name = str(obj(obj(p).arguments).benchmark, 200);
      if (!state.view) $("summary").textContent = name ? "Loading the leaderboard of " + name + "\u2026" : "Loading\u2026";
    },
    "ui/notifications/tool-result": onToolResult,
    "ui/notifications/tool-cancelled": () => { if (!state.view) problem("The tool call was cancelled."); },
    "ui/notifications/host-context-changed": applyContext,
  };
  win.addEventListener("message", (event) => {
    if (event.source !== win.parent) return;
    const m = obj(event.data);
    if (m.jsonrpc !== "2.0") return;
    if (typeof m.method !== "string") {
      const waiter = typeof m.id === "number" ? pending.get(m.id) : undefined;
      if (!waiter || typeof m.id !== "number") return;
      pending.delete(m.id);
      if ("error" in m) waiter.reject(m.error); else waiter.resolve(obj(m.result));
      return;
    }
    if ("id" in m) { // a request from the host
      if (m.method === "ping" || m.method === "ui/resource-teardown") post({ id: m.id, result: {} });
      else post({ id: m.id, error: { code: -32601, message: "method not found" } });
      return;
    }
    const handler = Object.prototype.hasOwnProperty.call(notifications, m.method) ? notifications[m.method] : undefined;
    if (handler) handler(m.params);
  });

  let lastSize = "";
  function reportSize() {
    if (!state.ready) return;
    // The content's own height (the document's scrollHeight never drops below the frame's).
    const width = Math.ceil(root.scrollWidth), height = Math.ceil(doc.body.getBoundingClientRect().height);
    const size = width + "x" + height;
    if (size !== lastSize) { lastSize = size; notify("ui/notifications/size-changed", { width, height }); }
  }
  if (typeof ResizeObserver === "function") new ResizeObserver(reportSize).observe(doc.body);

  if (win.parent === win) {
    $("summary").textContent = "This is an MCP App: an MCP host renders it with a get_benchmark result.";
  } else {
    request("ui/initialize", {
      protocolVersion: PROTOCOL,
      appInfo: { name: "pwc-leaderboard", version: "1" },
      appCapabilities: { availableDisplayModes: ["inline"] },
    }).then((result) => {
      applyContext(result.hostContext);
      state.ready = true;
      notify("ui/notifications/initialized", {});
      reportSize();
    }, () => problem("The host refused to initialize the app."));
  }
}

if (typeof document !== "undefined" && typeof window !== "undefined") start(document, window);
