// @ts-check
/*
 * The leaderboard app's input: the structured result of get_benchmark, checked. Every value
 * from the host is untrusted: a value of the wrong type, out of range or too long is dropped or
 * cut here, so the scenes (scenes.js) draw only well-formed rows and charts. The chart is the
 * server's (pwc_core/chart_json.py), taken as it is: nothing in it is worked out again.
 */

export const MAX_ROWS = 100;
export const MAX_RECORDS = 1000;
const MAX_TICKS = 24;

/** @typedef {"higher" | "lower"} Direction */
/** @typedef {[number, string]} Tick */
/**
 * @typedef {{metric: string, direction: Direction | null, scale: "linear" | "log",
 *   reversed: boolean, low: number, high: number, ticks: Tick[]}} Axis
 */
/** @typedef {{row: number, label: string, x: number, y: number, onFront: boolean}} Point */
/**
 * @typedef {{x: Axis, y: Axis, points: Point[], steps: Array<[number, number]>, pareto: boolean,
 *   best: number | null, unsized: number, unvalued: number}} Scatter
 */
/** @typedef {{low: number, high: number, ticks: Tick[]}} DateAxis dates as epoch milliseconds */
/**
 * @typedef {{date: string, ms: number, value: number, label: string, paper: string,
 *   arxiv: string, improvement: number | null}} TimelineRecord
 */
/**
 * @typedef {{y: Axis, x: DateAxis | null, records: TimelineRecord[], steps: Array<[number, number]>,
 *   considered: number | null, undated: number | null, complete: boolean}} Timeline
 */
/**
 * @typedef {{i: number, metrics: Record<string, number>, model: string, paper: string,
 *   arxiv: string, date: string, params: number | null, open: boolean | null, extra: boolean | null,
 *   rank: number | null, scope: string}} Row
 */
/**
 * @typedef {{name: string, total: number | null, matched: number | null,
 *   nextPage: number | null, rows: Row[], names: string[], directions: Record<string, Direction>,
 *   mainScope: string, scatter: Scatter | null, timeline: Timeline | null}} View
 */

// ---- untrusted values -----------------------------------------------------------------------

/** @param {unknown} v @returns {Record<string, unknown>} */
export function obj(v) {
  return v && typeof v === "object" && !Array.isArray(v) ? /** @type {Record<string, unknown>} */ (v) : {};
}
/** @param {unknown} v @param {number} max @returns {unknown[]} */
export function list(v, max) {
  return Array.isArray(v) ? v.slice(0, max) : [];
}
/** @param {unknown} v @param {number} [max] @returns {string} */
export function str(v, max) {
  if (typeof v === "number" && isFinite(v)) return String(v);
  return typeof v === "string" ? v.slice(0, max || 300) : "";
}
/** A finite number, or null. @param {unknown} v @returns {number | null} */
export function finite(v) {
  return typeof v === "number" && isFinite(v) ? v : null;
}
/** A metric value as the catalog writes it: a number, or "88.5" / "88.5%". @param {unknown} v */
export function num(v) {
  if (typeof v === "number") return isFinite(v) ? v : null;
  if (typeof v !== "string" || v.length > 40) return null;
  const m = /^\s*([-+]?(?:\d+\.?\d*|\.\d+)(?:e[-+]?\d+)?)\s*%?\s*$/i.exec(v);
  return m ? parseFloat(m[1]) : null;
}
/** @param {unknown} v @returns {number | null} */
function index(v) {
  return typeof v === "number" && Number.isInteger(v) && v >= 0 ? v : null;
}
/** @param {unknown} v @returns {string} */
function isoDate(v) {
  return typeof v === "string" && /^\d{4}-\d{2}-\d{2}/.test(v) ? v.slice(0, 10) : "";
}
/** @param {string} s @returns {number | null} */
function dateMs(s) {
  const t = s ? Date.parse(s + "T00:00:00Z") : NaN;
  return isFinite(t) ? t : null;
}
/** @param {unknown} v @returns {Direction | null} */
export function direction(v) {
  return v === "higher" || v === "lower" ? v : null;
}

// ---- the structured result, checked ----------------------------------------------------------

/** @param {unknown} v @returns {Tick[]} */
function ticks(v) {
  /** @type {Tick[]} */
  const out = [];
  for (const t of list(v, MAX_TICKS)) {
    const value = Array.isArray(t) ? finite(t[0]) : null;
    if (value !== null && Array.isArray(t)) out.push([value, str(t[1], 20)]);
  }
  return out;
}
/** @param {unknown} v @returns {Axis | null} */
export function checkAxis(v) {
  const a = obj(v);
  const scale = a.scale === "log" || a.scale === "linear" ? a.scale : null;
  const low = finite(a.low), high = finite(a.high);
  if (scale === null || low === null || high === null || !(high > low)) return null;
  if (scale === "log" && !(low > 0)) return null;
  return {
    metric: str(a.metric, 80), direction: direction(a.direction), scale,
    reversed: a.reversed === true, low, high, ticks: ticks(a.ticks),
  };
}
/** @param {unknown} v @param {number} max @returns {Array<[number, number]>} */
function pairs(v, max) {
  /** @type {Array<[number, number]>} */
  const out = [];
  for (const p of list(v, max)) {
    const x = Array.isArray(p) ? finite(p[0]) : null, y = Array.isArray(p) ? finite(p[1]) : null;
    if (x !== null && y !== null) out.push([x, y]);
  }
  return out;
}
/** @param {unknown} v @param {number} rows @returns {Scatter | null} */
export function checkScatter(v, rows) {
  const s = obj(v);
  const x = checkAxis(s.x), y = checkAxis(s.y);
  if (!x || !y) return null;
  /** @type {Point[]} */
  const points = [];
  for (const item of list(s.points, MAX_ROWS)) {
    const p = obj(item), row = index(p.row), px = finite(p.x), py = finite(p.y);
    if (row === null || row >= rows || px === null || py === null) continue;
    if (x.scale === "log" && !(px > 0)) continue;
    points.push({ row, label: str(p.label, 200) || "(unnamed model)", x: px, y: py, onFront: p.on_front === true });
  }
  const best = index(s.best);
  return {
    x, y, points, steps: pairs(s.steps, 2 * MAX_ROWS + 2), pareto: s.pareto === true,
    best: best !== null && best < rows ? best : null,
    unsized: index(s.unsized) || 0, unvalued: index(s.unvalued) || 0,
  };
}
/**
 * The chart's timeline (axes, steps, which records it draws by their position) with the records
 * themselves read from the payload's timeline (`data.timeline`), where they are sent once.
 * @param {unknown} v @param {unknown} payload @returns {Timeline | null}
 */
export function checkTimeline(v, payload) {
  const t = obj(v), source = obj(payload), held = list(source.records, MAX_RECORDS);
  const y = checkAxis(t.y);
  if (!y) return null;
  const rawX = obj(t.x);
  const low = dateMs(isoDate(rawX.low)), high = dateMs(isoDate(rawX.high));
  /** @type {Tick[]} */
  const xTicks = [];
  for (const tick of list(rawX.ticks, MAX_TICKS)) {
    const ms = Array.isArray(tick) ? dateMs(isoDate(tick[0])) : null;
    if (ms !== null && Array.isArray(tick)) xTicks.push([ms, str(tick[1], 20)]);
  }
  const x = low !== null && high !== null && high > low ? { low, high, ticks: xTicks } : null;
  /** @type {TimelineRecord[]} */
  const records = [];
  for (const at of list(t.rows, MAX_RECORDS)) {
    const k = index(at), r = obj(k === null ? null : held[k]);
    const date = isoDate(r.date), ms = dateMs(date), value = finite(r.value);
    if (ms === null || value === null) continue;
    records.push({
      date, ms, value, label: str(r.model_name, 200) || "(unnamed model)",
      paper: str(r.paper_title, 300), arxiv: str(r.paper_arxiv_id, 40), improvement: finite(r.improvement),
    });
  }
  /** @type {Array<[number, number]>} */
  const steps = [];
  for (const p of list(t.steps, 2 * MAX_RECORDS + 2)) {
    const ms = Array.isArray(p) ? dateMs(isoDate(p[0])) : null, value = Array.isArray(p) ? finite(p[1]) : null;
    if (ms !== null && value !== null) steps.push([ms, value]);
  }
  return {
    y, x, records, steps, considered: index(source.considered), undated: index(source.undated),
    complete: source.complete !== false,
  };
}

/**
 * Whether an evaluation and the `data` row at its position are one row: by ID when both have
 * one (an evaluation may be only the ID and numbers of its `data` row), else by model name.
 * @param {Record<string, unknown>} e @param {Record<string, unknown>} r
 */
function sameRow(e, r) {
  if (e.id != null && r.id != null) return e.id === r.id;
  return !("model_name" in e && "model_name" in r) || e.model_name === r.model_name;
}

/** The structured result as the view draws it. @param {unknown} input @returns {View} */
export function toView(input) {
  const sc = obj(input), data = obj(sc.data);
  const evs = list(sc.evaluations, MAX_ROWS), raws = list(data.results, MAX_ROWS);
  /** @type {Row[]} */
  const rows = [];
  const n = evs.length || raws.length;
  for (let i = 0; i < n; i++) {
    const e = obj(evs[i]);
    let r = obj(raws[i]);
    if (evs.length && !sameRow(e, r)) r = {};
    const source = Object.keys(obj(e.metrics)).length ? obj(e.metrics) : obj(r.metrics);
    /** @type {Record<string, number>} */
    const metrics = {};
    for (const k of Object.keys(source).slice(0, 20)) {
      const x = num(source[k]);
      if (x !== null) metrics[k.slice(0, 80)] = x;
    }
    const scope = obj(list(e.rank_scopes || r.rank_scopes, 1)[0]);
    const params = num(e.num_parameters != null ? e.num_parameters : r.num_parameters);
    const open = e.is_open != null ? e.is_open : r.is_open;
    const extra = e.uses_additional_data != null ? e.uses_additional_data : r.uses_additional_data;
    const rank = num(e.best_rank != null ? e.best_rank : r.best_rank);
    rows.push({
      i, metrics,
      model: str(e.model_name || r.model_name, 200) || "(unnamed model)",
      paper: str(e.paper_title || r.paper_title, 300),
      arxiv: str(e.paper_arxiv_id || r.paper_arxiv_id, 40),
      date: isoDate(r.paper_published_date || e.paper_published_date),
      params: params !== null && params > 0 ? params : null,
      open: typeof open === "boolean" ? open : null,
      extra: typeof extra === "boolean" ? extra : null,
      rank: rank !== null && rank >= 1 ? Math.floor(rank) : null,
      scope: str(scope.task_name || r.task_name, 120),
    });
  }
  /** @type {string[]} */
  const names = [];
  for (const row of rows) for (const k of Object.keys(row.metrics)) if (!names.includes(k)) names.push(k);
  /** @type {Record<string, Direction>} */
  const directions = {};
  const given = Object.assign({}, obj(data.metric_directions), obj(sc.metric_directions));
  for (const k of Object.keys(given).slice(0, 50)) {
    const d = direction(given[k]);
    if (d) directions[k] = d;
  }
  const scopes = list(data.task_scopes, 20).map(obj);
  const main = scopes.find((s) => s.main === true) || scopes[0] || {};
  const bench = obj(sc.benchmark || data.benchmark);
  const chart = obj(sc.chart);
  return {
    name: str(bench.name, 200) || str(bench.slug, 200) || "Benchmark",
    total: num(sc.evaluation_count != null ? sc.evaluation_count : data.count),
    matched: num(sc.matched_count != null ? sc.matched_count : data.matched_count),
    nextPage: num(sc.next_page),
    rows, names: names.slice(0, 40), directions, mainScope: str(main.task_name, 120),
    scatter: checkScatter(chart.scatter, rows.length),
    timeline: checkTimeline(chart.timeline, data.timeline),
  };
}

