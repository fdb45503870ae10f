// @ts-check
/*
 * What the leaderboard app shows, as DOM descriptions (plain data: the browser part in
 * leaderboard.js turns them into elements, node's test runner reads them): the scatter and the
 * timeline exactly as the server computed them (axes, directions, orientation, ticks, the
 * frontier, the best row, the steps), the sortable table, and the words around them. Sorting by
 * a column and formatting numbers are the app's own; nothing else is worked out here.
 */

/** @import { Axis, Direction, Row, Tick, View } from "./view.js" */

export const SCATTER_BOX = { left: 64, right: 624, top: 14, bottom: 254 };
export const TIMELINE_BOX = { left: 64, right: 624, top: 14, bottom: 196 };
const PARAMETERS = "Parameters"; // the chart model's name of the parameter-count axis
const MAX_METRICS = 6;

/**
 * A DOM description: what the browser part turns into elements (tests read it as data).
 * @typedef {{tag: string, attrs: Record<string, string | number>, text?: string,
 *   children: VNode[], tip?: string[]}} VNode
 */
/** @typedef {{key: string, asc: boolean}} Sort */

// ---- formatting -----------------------------------------------------------------------------

/** @param {number | null | undefined} v */
export function fmt(v) {
  if (v == null) return "\u2014";
  const a = Math.abs(v);
  return String(a >= 1e5 || (a > 0 && a < 1e-3) ? Number(v.toPrecision(4)) : Number(v.toPrecision(6)));
}
/** @param {number | null | undefined} p */
export function fmtParams(p) {
  if (p == null) return "\u2014";
  /** @type {Array<[number, string]>} */
  const units = [[1e12, "T"], [1e9, "B"], [1e6, "M"], [1e3, "K"]];
  for (const [size, unit] of units) if (p >= size) return Number((p / size).toPrecision(3)) + unit;
  return String(Math.round(p));
}
/** @param {Direction | null} dir */
export function dirWords(dir) {
  if (dir === "lower") return "lower is better";
  if (dir === "higher") return "higher is better";
  return "direction unknown";
}
/** @param {{paper: string, arxiv: string}} p */
function paperLine(p) {
  if (!p.paper) return p.arxiv ? "arXiv " + p.arxiv : "";
  return p.paper + (p.arxiv ? " (arXiv " + p.arxiv + ")" : "");
}
/** @param {number} n @param {string} word */
function plural(n, word) {
  return n + " " + word + (n === 1 ? "" : "s");
}

// ---- DOM descriptions -------------------------------------------------------------------------

/**
 * @param {string} tag @param {Record<string, string | number>} [attrs]
 * @param {string | VNode[]} [body] text, or children
 * @returns {VNode}
 */
export function h(tag, attrs, body) {
  /** @type {VNode} */
  const node = { tag, attrs: attrs || {}, children: [] };
  if (typeof body === "string") node.text = body;
  else if (body) node.children = body;
  return node;
}
/** Every node of a description, depth first. @param {VNode} node @returns {VNode[]} */
export function walk(node) {
  return [node].concat(...node.children.map(walk));
}

/**
 * An axis onto pixels: `start` is where its low end goes (left, or bottom), unless the server
 * reversed it so that better is up (y) or left (x).
 * @param {{low: number, high: number, scale?: string, reversed?: boolean}} axis
 * @param {number} start @param {number} end
 * @returns {(v: number) => number}
 */
export function project(axis, start, end) {
  const { low, high } = axis;
  const log = axis.scale === "log";
  const at = log
    ? (/** @type {number} */ v) => (Math.log10(v) - Math.log10(low)) / (Math.log10(high) - Math.log10(low))
    : (/** @type {number} */ v) => (v - low) / (high - low);
  return (v) => {
    const f = axis.reversed ? 1 - at(v) : at(v);
    return start + f * (end - start);
  };
}
/** @param {Array<[number, number]>} corners @returns {string} */
function path(corners) {
  return corners.map(([x, y], k) => (k ? "L" : "M") + x.toFixed(2) + "," + y.toFixed(2)).join("");
}
/** @param {Axis} axis */
function sized(axis) {
  return axis.metric === PARAMETERS;
}
/** The y axis title. @param {Axis} axis */
export function yTitle(axis) {
  return axis.metric + (axis.direction ? " \u2191 " + dirWords(axis.direction) : " (direction unknown)");
}
/** The x axis title. @param {Axis} axis */
export function xTitle(axis) {
  if (sized(axis)) return "Parameters (log scale; fewer is cheaper \u2190)";
  const scale = axis.scale === "log" ? ", log scale" : "";
  return axis.metric + (axis.direction ? " \u2190 " + dirWords(axis.direction) : " (direction unknown)") + scale;
}

/**
 * Grid, tick labels, frame and title of a y axis.
 * @param {Tick[]} marks @param {(v: number) => number} y
 * @param {typeof SCATTER_BOX} box @param {string} title @param {string} id
 */
function yAxisNodes(marks, y, box, title, id) {
  /** @type {VNode[]} */
  const out = [];
  for (const [value, label] of marks) {
    out.push(h("line", { class: "grid", x1: box.left, x2: box.right, y1: y(value), y2: y(value) }));
    out.push(h("text", { x: box.left - 6, y: y(value) + 4, "text-anchor": "end" }, label));
  }
  out.push(h("line", { class: "frame", x1: box.left, x2: box.left, y1: box.top, y2: box.bottom }));
  const cx = 14, cy = (box.top + box.bottom) / 2;
  out.push(h("text", { class: "axis-title", id, x: cx, y: cy, "text-anchor": "middle",
    transform: "rotate(-90 " + cx + " " + cy + ")" }, title));
  return out;
}
/**
 * Grid, tick labels, frame and title of an x axis.
 * @param {Tick[]} marks @param {(v: number) => number} x
 * @param {typeof SCATTER_BOX} box @param {string} title @param {string} id
 */
function xAxisNodes(marks, x, box, title, id) {
  /** @type {VNode[]} */
  const out = [];
  for (const [value, label] of marks) {
    out.push(h("line", { class: "grid", x1: x(value), x2: x(value), y1: box.top, y2: box.bottom }));
    out.push(h("text", { x: x(value), y: box.bottom + 16, "text-anchor": "middle" }, label));
  }
  out.push(h("line", { class: "frame", x1: box.left, x2: box.right, y1: box.bottom, y2: box.bottom }));
  out.push(h("text", { class: "axis-title", id, x: (box.left + box.right) / 2, y: box.bottom + 36,
    "text-anchor": "middle" }, title));
  return out;
}

/**
 * What a chart section shows: its heading, notes, legend, the SVG's label and content.
 * @typedef {{heading: string, direction: string, note: string, legend: Array<[string, string]>,
 *   label: string, children: VNode[]}} Scene
 */

/** The scatter as the server computed it. @param {View} view @returns {Scene} */
export function scatterScene(view) {
  const s = view.scatter;
  if (!s) {
    return { heading: "Chart", direction: "", note: "", legend: [], label: "No chart in this result.",
      children: [h("text", { x: 320, y: 150, "text-anchor": "middle" }, "No chart in this result.")] };
  }
  const { x: xa, y: ya } = s;
  const against = sized(xa) ? "model size" : xa.metric;
  const heading = ya.metric + " against " + against;
  const direction = s.pareto
    ? "The request's Pareto front: " + ya.metric + " (" + dirWords(ya.direction) + ") against " +
      xa.metric + " (" + dirWords(xa.direction) + "). Better is up and to the left."
    : ya.metric + ": " + dirWords(ya.direction) + " (better is up). Parameter count on a log scale.";
  const lacking = sized(xa) ? "a parameter count" : "a " + xa.metric + " value";
  const notes = [];
  if (s.unsized) notes.push(plural(s.unsized, "row") + " without " + lacking + (s.unsized === 1 ? " is" : " are") + " not plotted.");
  if (!s.pareto && !ya.direction) notes.push("No frontier: the metric's direction is unknown.");
  notes.push("Arrow keys move between points.");
  /** @type {Array<[string, string]>} */
  const legend = [["", "result"]];
  if (s.steps.length) {
    legend.push(["line", s.pareto ? "Pareto front of the request" : "Pareto frontier: best " + ya.metric + " for at most that many parameters"]);
  }
  if (s.best !== null) legend.push(["b", "best " + ya.metric]);
  const base = { heading, direction, note: notes.join(" "), legend };
  if (!s.points.length) {
    const none = "No rows with both " + ya.metric + " and " + lacking + ".";
    return { ...base, label: none, children: [h("text", { x: 320, y: 150, "text-anchor": "middle" }, none)] };
  }
  const box = SCATTER_BOX;
  const x = project(xa, box.left, box.right), y = project(ya, box.bottom, box.top);
  const children = [h("g", {}, [
    ...yAxisNodes(ya.ticks, y, box, yTitle(ya), "scatter-y-label"),
    ...xAxisNodes(xa.ticks, x, box, xTitle(xa), "scatter-x-label"),
  ])];
  if (s.steps.length) {
    const corners = s.steps.map(([a, b]) => /** @type {[number, number]} */ ([x(a), y(b)]));
    children.push(h("path", { class: "frontier", d: path(corners), "aria-hidden": "true" }));
  }
  const shown = s.points.slice().sort((a, b) => x(a.x) - x(b.x) || a.row - b.row); // keyboard order
  const layer = shown.map((p) => {
    const row = view.rows[p.row], best = p.row === s.best;
    const across = sized(xa) ? fmtParams(p.x) + " parameters" : xa.metric + ": " + fmt(p.x);
    const words = [p.label + ": " + ya.metric + " " + fmt(p.y), across, paperLine(row),
      row.date ? "published " + row.date : "", p.onFront ? "on the Pareto frontier" : "", best ? "best result" : ""];
    /** @type {Record<string, string | number>} */
    const attrs = { class: "pt" + (best ? " best" : ""), cx: x(p.x), cy: y(p.y), r: best ? 7 : 5, role: "img",
      "aria-label": words.filter(Boolean).join("; "), "data-row": p.row, "data-frontier": p.onFront ? "1" : "0",
      "data-value": p.y, "data-x": p.x };
    if (sized(xa)) attrs["data-params"] = p.x;
    const node = h("circle", attrs);
    node.tip = [p.label, paperLine(row), row.date ? "Published " + row.date : "Date unknown",
      ya.metric + ": " + fmt(p.y) + (best ? " (best)" : ""), across + (p.onFront ? " \u00b7 on the frontier" : "")];
    return node;
  });
  children.push(h("g", {}, layer));
  const front = s.points.filter((p) => p.onFront).length;
  const label = ya.metric + " against " + against + " for " + plural(shown.length, "result") + "; " +
    dirWords(ya.direction) + (front ? "; " + front + " on the Pareto frontier" : "");
  return { ...base, label, children };
}

/** The timeline as the server computed it. @param {View} view @returns {Scene | null} */
export function timelineScene(view) {
  const t = view.timeline;
  if (!t) return null;
  const metric = t.y.metric, dir = t.y.direction;
  const parts = [plural(t.records.length, "record")];
  if (t.considered != null) parts.push("among " + t.considered + " rows reporting " + metric);
  if (t.undated) parts.push(plural(t.undated, "undated row") + " left out");
  if (!t.complete) parts.push("the scan stopped before the end, so later records may be missing");
  const base = { heading: "State of the art over time", legend: [],
    direction: metric + ": " + dirWords(dir) + " (better is up). Each step is a new state of the art.",
    note: parts.join("; ") + "." };
  if (!t.records.length || !t.x) {
    return { ...base, label: "No dated records.",
      children: [h("text", { x: 320, y: 120, "text-anchor": "middle" }, "No dated records.")] };
  }
  const box = TIMELINE_BOX;
  const x = project(t.x, box.left, box.right), y = project(t.y, box.bottom, box.top);
  const children = [h("g", {}, [
    ...yAxisNodes(t.y.ticks, y, box, yTitle(t.y), "timeline-y-label"),
    ...xAxisNodes(t.x.ticks, x, box, "Publication date", "timeline-x-label"),
  ])];
  const corners = t.steps.map(([a, b]) => /** @type {[number, number]} */ ([x(a), y(b)]));
  children.push(h("path", { class: "step", d: path(corners), "aria-hidden": "true" }));
  for (const r of t.records) {
    const gain = r.improvement != null
      ? (dir === "lower" ? "\u2212" : "+") + fmt(r.improvement) + " over the previous record" : "first record";
    const node = h("circle", { class: "pt", cx: x(r.ms), cy: y(r.value), r: 5, role: "img",
      "data-value": r.value, "data-date": r.date,
      "aria-label": [r.label + ": " + metric + " " + fmt(r.value), "published " + r.date, paperLine(r), gain].filter(Boolean).join("; ") });
    node.tip = [r.label, paperLine(r), "Published " + r.date, metric + ": " + fmt(r.value), gain];
    children.push(node);
  }
  const label = "State of the art in " + metric + " over time: " + plural(t.records.length, "record") + "; " + dirWords(dir);
  return { ...base, label, children };
}

// ---- the table: sortable; the best row is the server's -------------------------------------

/**
 * @typedef {{key: string, label: string, num?: boolean, cls?: string, metric?: string,
 *   get: (r: Row) => string | number | null, show: (r: Row) => string}} Column
 */

/** The metric the charts plot, else the first one reported. @param {View} view */
export function leadMetric(view) {
  const plotted = view.scatter ? view.scatter.y.metric : "";
  return view.names.includes(plotted) ? plotted : view.names[0] || "";
}
/** A flag the catalog knows, in words (pwc_core/flags.py); an unknown one is a dash, never
 * either word. @param {boolean | null} flag @param {string} yes @param {string} no */
export function said(flag, yes, no) {
  return flag == null ? "\u2014" : flag ? yes : no;
}
/** @param {boolean | null} flag @returns {number | null} */
function flagOrder(flag) {
  return flag == null ? null : flag ? 0 : 1;
}
/** @param {View} view @returns {Column[]} */
export function columns(view) {
  const lead = leadMetric(view);
  const metrics = [lead].concat(view.names.filter((n) => n !== lead)).filter(Boolean).slice(0, MAX_METRICS);
  /** @type {Column[]} */
  const cols = [
    { key: "rank", label: "Rank", num: true, get: (r) => r.rank, show: (r) => (r.rank == null ? "\u2014" : String(r.rank)) },
    { key: "model", label: "Model", get: (r) => r.model.toLowerCase(), show: (r) => r.model },
  ];
  for (const m of metrics) {
    cols.push({ key: "m:" + m, label: m, num: true, metric: m, get: (r) => (m in r.metrics ? r.metrics[m] : null), show: (r) => fmt(r.metrics[m]) });
  }
  return cols.concat([
    { key: "params", label: "Parameters", num: true, get: (r) => r.params, show: (r) => fmtParams(r.params) },
    { key: "open", label: "Open", get: (r) => flagOrder(r.open), show: (r) => said(r.open, "open", "closed") },
    { key: "extra", label: "Training data", get: (r) => flagOrder(r.extra),
      show: (r) => said(r.extra, "extra training data", "no extra training data") },
    { key: "paper", label: "Paper", cls: "paper", get: (r) => r.paper.toLowerCase() || null, show: paperLine },
    { key: "date", label: "Date", cls: "date", get: (r) => r.date || null, show: (r) => r.date || "\u2014" },
  ]);
}
/** A click on a header: better values first (by the server's directions), then reversed.
 * @param {View} view @param {Column} column @param {Sort | null} sort @returns {Sort} */
export function nextSort(view, column, sort) {
  if (sort && sort.key === column.key) return { key: column.key, asc: !sort.asc };
  return { key: column.key, asc: column.metric ? view.directions[column.metric] !== "higher" : true };
}
/** Rows in a column's order; rows without a value last, ties in the leaderboard's order.
 * @param {Row[]} rows @param {Column} column @param {boolean} asc @returns {Row[]} */
export function sortRows(rows, column, asc) {
  return rows.slice().sort((a, b) => {
    const va = column.get(a), vb = column.get(b);
    if (va == null || vb == null) return va == null && vb == null ? a.i - b.i : va == null ? 1 : -1;
    const o = va < vb ? -1 : va > vb ? 1 : 0;
    return (asc ? o : -o) || a.i - b.i;
  });
}
/** The table's header row and body. @param {View} view @param {Sort | null} sort */
export function tableScene(view, sort) {
  const cols = columns(view), best = view.scatter ? view.scatter.best : null;
  const lead = view.scatter ? view.scatter.y.metric : "";
  const head = h("tr", {}, cols.map((c) => {
    const sorted = sort && sort.key === c.key;
    const dir = c.metric ? view.directions[c.metric] : null;
    return h("th", { scope: "col", class: c.num ? "num" : "", "aria-sort": sorted ? (sort && sort.asc ? "ascending" : "descending") : "none" },
      [h("button", { type: "button", "data-key": c.key, title: dir ? dir + " is better" : "sort" }, c.label)]);
  }));
  const column = sort ? cols.find((c) => c.key === sort.key) : undefined;
  const rows = column && sort ? sortRows(view.rows, column, sort.asc) : view.rows;
  const body = h("tbody", {}, rows.map((r) => h("tr", r.i === best ? { "data-row": r.i, class: "best" } : { "data-row": r.i },
    cols.map((c, k) => {
      const cell = h(k === 1 ? "th" : "td", k === 1 ? { scope: "row" } : { class: c.num ? "num" : c.cls || "" }, c.show(r));
      if (k === 1 && r.scope && r.scope !== view.mainScope) cell.children.push(h("div", { class: "note" }, r.scope));
      if (r.i === best && c.metric === lead) cell.children.push(h("span", { class: "badge" }, "best"));
      return cell;
    }))));
  const d = lead ? view.directions[lead] || (view.scatter && view.scatter.y.direction) : null;
  const caption = plural(rows.length, "row") + (best !== null ? "; best " + lead + " (" + d + " is better) highlighted" : "") + ". Column headers sort.";
  return { head, body, caption };
}

/** The header's summary line. @param {View} view */
export function summary(view) {
  const bits = [];
  if (view.rows.length) bits.push(plural(view.rows.length, "result") + " shown");
  if (view.matched != null) bits.push(view.matched + " matching");
  if (view.total != null) bits.push(view.total + " evaluation rows read");
  if (view.nextPage != null) bits.push("more on page " + view.nextPage);
  return bits.join(" \u00b7 ") || "No results.";
}

