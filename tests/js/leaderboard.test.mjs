// Unit tests of the leaderboard app's script (pwc_mcp/ui/view.js, scenes.js) with node's own
// test runner: the app draws the chart model the server sends (pwc_core/chart_json.py) and
// works out none of it. Run by tests/js/test_leaderboard_js.py (so by `make test`), which also passes, in
// PWC_APP_RESULTS, real get_benchmark results from the sample catalog for the last tests; or
// alone: `node --test tests/js/`.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import * as scenes from "../../pwc_mcp/ui/scenes.js";
import * as view from "../../pwc_mcp/ui/view.js";
import "../../pwc_mcp/ui/leaderboard.js"; // imports in node: its browser part waits for a document

const app = { ...view, ...scenes };

/** Every node of a scene's SVG content. */
const nodes = (scene) => scene.children.flatMap(app.walk);
const circles = (scene) => nodes(scene).filter((n) => n.tag === "circle");
const byId = (scene, id) => nodes(scene).find((n) => n.attrs.id === id);

// Seven rows as the handler returns a Pareto request on Top 1 Accuracy (higher) x GFLOPs (lower):
// every one is on the front. Swin-B has more parameters than EfficientNet-B7 and a lower
// accuracy, so a frontier over (parameters, accuracy) would grey it out.
const ROWS = [
  ["Swin-L", 87.3, 103.9, 197e6], ["DeiT-B 384", 85.2, 55.5, 87e6], ["EfficientNet-B7", 84.3, 37.0, 66e6],
  ["Swin-B", 83.5, 15.4, 88e6], ["Swin-S", 83.0, 8.7, 50e6], ["Swin-T", 81.3, 4.5, 28e6],
  ["EfficientNet-B0", 77.1, 0.39, 5.3e6],
];
const axis = (metric, direction, scale, reversed, low, high, ticks) =>
  ({ metric, direction, scale, reversed, low, high, ticks });
const TOP1 = axis("Top 1 Accuracy", "higher", "linear", false, 76.3, 88.1, [[80, "80"], [85, "85"]]);
const GFLOPS = axis("GFLOPs", "lower", "log", false, 0.24, 166.2, [[1, "1"], [10, "10"], [100, "100"]]);

function result(chart, rows = ROWS) {
  return {
    benchmark: { name: "ImageNet" },
    evaluations: rows.map(([model, top1, gflops, params]) => ({
      model_name: model, paper_title: "Paper of " + model, num_parameters: params,
      metrics: { "Top 1 Accuracy": top1, GFLOPs: gflops },
    })),
    metric_directions: { "Top 1 Accuracy": "higher", GFLOPs: "lower" },
    chart,
  };
}
const drawingOrder = [6, 5, 4, 3, 2, 1, 0];
const PARETO = {
  scatter: {
    x: GFLOPS, y: TOP1, pareto: true, best: 0, unsized: 0, unvalued: 0,
    points: ROWS.map(([label, top1, gflops], row) => ({ row, label, x: gflops, y: top1, on_front: true })),
    frontier: drawingOrder,
    steps: drawingOrder.flatMap((row, k) => {
      const [, y, x] = ROWS[row];
      return k ? [[x, ROWS[drawingOrder[k - 1]][1]], [x, y]] : [[x, y]];
    }).concat([[166.2, 87.3]]),
  },
};

test("the app draws the frontier it is given: every row on the server's front, none greyed out", () => {
  const scene = app.scatterScene(app.toView(result(PARETO)));
  const drawn = circles(scene);
  assert.equal(drawn.length, ROWS.length);
  assert.deepEqual(drawn.map((c) => c.attrs["data-frontier"]), Array(ROWS.length).fill("1"));
  const swinB = drawn.find((c) => c.attrs["data-row"] === 3);
  assert.equal(swinB.attrs["data-frontier"], "1", "Swin-B is on the requested front");
  // The line is the server's steps, corner for corner.
  const line = nodes(scene).find((n) => n.tag === "path" && n.attrs.class === "frontier");
  const corners = line.attrs.d.split(/[ML]/).filter(Boolean);
  assert.equal(corners.length, PARETO.scatter.steps.length);
});

test("the app marks off the front what the server says is off it, whatever it would compute", () => {
  // A size frontier the server did not send: row 1 is off it, though it has the fewest
  // parameters (any frontier over parameters would include it).
  const sized = axis("Parameters", "lower", "log", false, 3e6, 3e8, [[1e7, "10M"], [1e8, "100M"]]);
  const chart = { scatter: { ...PARETO.scatter, x: sized, pareto: false, best: 0,
    points: ROWS.map(([label, top1, , params], row) => ({ row, label, x: params, y: top1, on_front: row === 0 })),
    steps: [[197e6, 87.3], [3e8, 87.3]] } };
  const drawn = circles(app.scatterScene(app.toView(result(chart))));
  const front = drawn.filter((c) => c.attrs["data-frontier"] === "1").map((c) => c.attrs["data-row"]);
  assert.deepEqual(front, [0]);
});

test("the axes of a two-metric Pareto request are the requested metrics", () => {
  const view = app.toView(result(PARETO));
  const scene = app.scatterScene(view);
  assert.equal(scene.heading, "Top 1 Accuracy against GFLOPs");
  assert.match(byId(scene, "scatter-y-label").text, /^Top 1 Accuracy .*higher is better/);
  assert.match(byId(scene, "scatter-x-label").text, /^GFLOPs .*lower is better, log scale$/);
  assert.match(scene.direction, /Pareto front: Top 1 Accuracy \(higher is better\) against GFLOPs \(lower is better\)/);
  // The x ticks are the server's, at their values on the log axis.
  const labels = nodes(scene).filter((n) => n.tag === "text" && n.attrs.y === app.SCATTER_BOX.bottom + 16);
  assert.deepEqual(labels.map((t) => t.text), ["1", "10", "100"]);
  const xs = labels.map((t) => t.attrs.x);
  assert.ok(Math.abs((xs[1] - xs[0]) - (xs[2] - xs[1])) < 1e-9, "decades equally spaced");
  // The table leads with the plotted metric and marks the server's best row.
  assert.equal(app.columns(view)[2].label, "Top 1 Accuracy");
});

test("lower-is-better axes are drawn so that better is the same visual way: up, and left", () => {
  // Two points, the first better on both axes, for every pair of directions; the server says
  // which axes run reversed (a lower-is-better y, a higher-is-better x).
  const good = (dir) => (dir === "higher" ? 9 : 1), bad = (dir) => (dir === "higher" ? 1 : 9);
  for (const [yDir, xDir] of [["higher", "lower"], ["lower", "lower"], ["higher", "higher"], ["lower", "higher"]]) {
    const chart = { scatter: {
      x: axis("Cost", xDir, "linear", xDir === "higher", 0, 10, []),
      y: axis("Score", yDir, "linear", yDir === "lower", 0, 10, []),
      points: [
        { row: 0, label: "better", x: good(xDir), y: good(yDir), on_front: true },
        { row: 1, label: "worse", x: bad(xDir), y: bad(yDir), on_front: false },
      ],
      frontier: [0], steps: [], pareto: true, best: 0, unsized: 0, unvalued: 0 } };
    const [a, b] = circles(app.scatterScene(app.toView(result(chart, ROWS.slice(0, 2)))))
      .sort((p, q) => p.attrs["data-row"] - q.attrs["data-row"]);
    assert.ok(a.attrs.cy < b.attrs.cy, `better y is up (y ${yDir})`);
    assert.ok(a.attrs.cx < b.attrs.cx, `better x is left (x ${xDir})`);
  }
});

// The chart draws records by their position in data.timeline.records, which holds them once.
const TIMELINE_DATA = {
  records: [
    { date: "2014-09-08", value: 78.4, model_name: "LSTM", paper_title: "P1", paper_arxiv_id: "1409.2329", improvement: null },
    { date: "2016-07-12", value: 65.4, model_name: "RHN", paper_title: "P2", paper_arxiv_id: null, improvement: 13.0 },
    { date: "2020-05-28", value: 20.5, model_name: "GPT-3", paper_title: "P3", paper_arxiv_id: null, improvement: 44.9 },
  ],
  considered: 9, undated: 2, complete: false,
};
const TIMELINE = {
  y: axis("Test perplexity", "lower", "linear", true, 15.3, 83.6, [[20, "20"], [40, "40"], [60, "60"], [80, "80"]]),
  x: { low: "2014-07-25", high: "2020-07-12", ticks: [["2015-01-01", "2015"], ["2020-01-01", "2020"]] },
  rows: [0, 1, 2],
  steps: [["2014-09-08", 78.4], ["2016-07-12", 78.4], ["2016-07-12", 65.4], ["2020-05-28", 65.4],
    ["2020-05-28", 20.5], ["2020-07-12", 20.5]],
};
const withTimeline = (input) => ({ ...input, data: { timeline: TIMELINE_DATA } });

test("the timeline steps: one corner per step the server sent, each record better and so higher", () => {
  const scene = app.timelineScene(app.toView(withTimeline(result({ timeline: TIMELINE }, []))));
  const records = circles(scene);
  assert.deepEqual(records.map((c) => c.attrs["data-date"]), TIMELINE_DATA.records.map((r) => r.date));
  assert.match(records[0].attrs["aria-label"], /^LSTM: Test perplexity 78\.4/, "the record's own model");
  const ys = records.map((c) => c.attrs.cy), xs = records.map((c) => c.attrs.cx);
  assert.ok(ys[0] > ys[1] && ys[1] > ys[2], "lower perplexity is drawn higher up");
  assert.ok(xs[0] < xs[1] && xs[1] < xs[2], "later is right");
  const line = nodes(scene).find((n) => n.tag === "path" && n.attrs.class === "step");
  const corners = line.attrs.d.split(/[ML]/).filter(Boolean).map((c) => c.split(",").map(Number));
  assert.equal(corners.length, TIMELINE.steps.length);
  assert.deepEqual(corners.slice(0, 3).map(([x]) => x.toFixed(2)), [xs[0], xs[1], xs[1]].map((x) => x.toFixed(2)));
  assert.equal(corners.at(-1)[0], app.TIMELINE_BOX.right, "held level to the axis' end");
  assert.match(byId(scene, "timeline-y-label").text, /Test perplexity .*lower is better/);
  assert.match(scene.note, /3 records; among 9 rows .*2 undated rows left out; the scan stopped/);
  assert.equal(records[1].tip.at(-1), "\u221213 over the previous record");
});

test("the best row is the server's, in the table and on the chart", () => {
  // The server names row 2; the app does not look for a higher value of its own.
  const chart = { scatter: { ...PARETO.scatter, best: 2 } };
  const view = app.toView(result(chart));
  const { body } = app.tableScene(view, null);
  assert.deepEqual(body.children.filter((tr) => tr.attrs.class === "best").map((tr) => tr.attrs["data-row"]), [2]);
  const bests = circles(app.scatterScene(view)).filter((c) => String(c.attrs.class).includes("best"));
  assert.deepEqual(bests.map((c) => c.attrs["data-row"]), [2]);
  const none = app.toView(result({ scatter: { ...PARETO.scatter, best: null } }));
  assert.equal(app.tableScene(none, null).body.children.filter((tr) => tr.attrs.class === "best").length, 0);
});

test("a header sorts better values first by the server's direction, rows without a value last", () => {
  const view = app.toView(result(PARETO, [...ROWS, ["No score", null, 1.0, 1e6]]));
  const column = app.columns(view).find((c) => c.key === "m:GFLOPs");
  const first = app.nextSort(view, column, null);
  assert.deepEqual(first, { key: "m:GFLOPs", asc: true }, "lower is better: ascending first");
  const order = app.sortRows(view.rows, column, first.asc).map((r) => r.model);
  assert.deepEqual(order.slice(0, 2), ["EfficientNet-B0", "No score"]);
  const top1 = app.columns(view).find((c) => c.key === "m:Top 1 Accuracy");
  const rows = app.sortRows(view.rows, top1, app.nextSort(view, top1, null).asc).map((r) => r.model);
  assert.deepEqual([rows[0], rows.at(-1)], ["Swin-L", "No score"]);
  assert.deepEqual(app.nextSort(view, top1, { key: "m:Top 1 Accuracy", asc: false }), { key: "m:Top 1 Accuracy", asc: true });
});

test("openness and extra training data are words when known, a dash when not (issue #36)", () => {
  const flags = [[true, false], [false, true], [null, null], ["yes", 1]];
  const input = result(PARETO, ROWS.slice(0, 4));
  input.evaluations.forEach((e, k) => Object.assign(e, { is_open: flags[k][0], uses_additional_data: flags[k][1] }));
  const view = app.toView(input);
  const shown = (key) => view.rows.map(app.columns(view).find((c) => c.key === key).show);
  assert.deepEqual(shown("open"), ["open", "closed", "\u2014", "\u2014"], "unknown never reads as open");
  assert.deepEqual(shown("extra"), ["no extra training data", "extra training data", "\u2014", "\u2014"]);
});

test("a hostile chart is dropped or cut, never drawn as markup", () => {
  const evil = '<img src=x onerror="alert(1)">';
  const bad = [
    { ...PARETO.scatter, x: { ...GFLOPS, low: 0 } }, // a log axis through zero
    { ...PARETO.scatter, y: { ...TOP1, high: Infinity } },
    { ...PARETO.scatter, y: { ...TOP1, low: 90, high: 80 } },
    { ...PARETO.scatter, x: "GFLOPs" },
  ];
  for (const scatter of bad) {
    const scene = app.scatterScene(app.toView(result({ scatter })));
    assert.equal(scene.label, "No chart in this result.");
  }
  const points = [
    { row: 99, label: "beyond the rows", x: 1, y: 80, on_front: true },
    { row: -1, label: "negative", x: 1, y: 80, on_front: true },
    { row: 1.5, label: "fraction", x: 1, y: 80, on_front: true },
    { row: 0, label: evil, x: -3, y: 80, on_front: true }, // off a log axis
    { row: 0, label: evil, x: "1", y: 80, on_front: true },
    { row: 0, label: evil, x: 1, y: 80, on_front: "yes" },
  ];
  const view = app.toView(result({ scatter: { ...PARETO.scatter, points, best: 42 } }));
  assert.deepEqual(view.scatter.points.map((p) => [p.row, p.onFront]), [[0, false]]);
  assert.equal(view.scatter.best, null);
  const [circle] = circles(app.scatterScene(view));
  assert.ok(circle.attrs["aria-label"].startsWith(evil), "text, as given: the DOM gets it as text");
  assert.ok(nodes(app.scatterScene(view)).every((n) => ["g", "line", "text", "path", "circle"].includes(n.tag)));
  const long = app.toView(result({ scatter: { ...PARETO.scatter, points: Array(5000).fill(PARETO.scatter.points[0]) } }));
  assert.equal(long.scatter.points.length, app.MAX_ROWS);
});

test("no chart in the result: the table still shows, the scatter says why it is empty", () => {
  const view = app.toView(result(undefined));
  assert.equal(view.scatter, null);
  assert.equal(app.timelineScene(view), null);
  assert.equal(app.scatterScene(view).label, "No chart in this result.");
  assert.equal(app.tableScene(view, null).body.children.length, ROWS.length);
});

test("rows come from the evaluations and the data rows they name, whichever holds the fields", () => {
  const full = result(PARETO);
  const rows = full.evaluations.map((e, k) => ({ id: "e" + k, ...e, paper_published_date: "2021-03-25" }));
  // An evaluation may be only its data row's ID and numbers; the row's fields are in data.
  const refs = { ...full, evaluations: rows.map((r) => ({ id: r.id, metrics: r.metrics })), data: { results: rows } };
  const view = app.toView(refs);
  assert.deepEqual(view.rows.map((r) => r.model), ROWS.map(([model]) => model));
  assert.equal(view.rows[3].date, "2021-03-25");
  assert.equal(view.rows[3].params, 88e6);
  // A data row that is another row (another ID) lends nothing.
  const shifted = { ...refs, data: { results: rows.slice(1) } };
  assert.equal(app.toView(shifted).rows[0].model, "(unnamed model)");
});

// -- real results: get_benchmark over the sample catalog, passed in by the pytest runner ------

const results = process.env.PWC_APP_RESULTS
  ? JSON.parse(readFileSync(process.env.PWC_APP_RESULTS, "utf8"))
  : null;
const real = (name) => (t) => {
  if (!results) return t.skip("PWC_APP_RESULTS not set (tests/js/test_leaderboard_js.py sets it)");
  return { structured: results[name].result, args: results[name].arguments };
};

test("real: a Pareto request on two metrics plots them, every returned row on the front", (t) => {
  const got = real("pareto")(t);
  if (!got) return;
  const view = app.toView(got.structured);
  const scene = app.scatterScene(view);
  const [first, second] = got.args.pareto.map((o) => o.split(":")[0]);
  assert.ok(byId(scene, "scatter-y-label").text.startsWith(first), byId(scene, "scatter-y-label").text);
  assert.ok(byId(scene, "scatter-x-label").text.startsWith(second), byId(scene, "scatter-x-label").text);
  const drawn = circles(scene);
  assert.equal(drawn.length, got.structured.evaluations.length);
  assert.ok(drawn.every((c) => c.attrs["data-frontier"] === "1"));
});

test("real: better is up on every chart the server sends, and left on the scatter", (t) => {
  for (const name of ["pareto", "higher", "lower"]) {
    const got = real(name)(t);
    if (!got) return;
    const view = app.toView(got.structured);
    const { x, y } = view.scatter;
    const score = (value, dir) => (dir === "lower" ? -value : value);
    const drawn = circles(app.scatterScene(view));
    for (const a of drawn) {
      for (const b of drawn) {
        if (score(a.attrs["data-value"], y.direction) > score(b.attrs["data-value"], y.direction)) {
          assert.ok(a.attrs.cy < b.attrs.cy, `${name}: better ${y.metric} is up`);
        }
        if (x.direction && score(a.attrs["data-x"], x.direction) > score(b.attrs["data-x"], x.direction)) {
          assert.ok(a.attrs.cx < b.attrs.cx, `${name}: better ${x.metric} is left`);
        }
      }
    }
    if (view.timeline) {
      const ys = circles(app.timelineScene(view)).map((c) => c.attrs.cy);
      assert.ok(ys.every((v, k) => k === 0 || v < ys[k - 1]), `${name}: each record is higher up`);
    }
  }
});
