"""`benchmark` (a leaderboard with metric filters) and `benchmark list`."""

from __future__ import annotations

from typing import Any

from pwc_cli import flags
from pwc_cli.charts.output import chart_file
from pwc_cli.parsers import Builder
from pwc_core.values import (
    MAX_METRIC_NAME,
    IntRange,
    Text,
    metric_list,
    metric_sort,
    parameter_size,
    pareto_objectives,
)


def add(b: Builder, top: Any) -> None:
    bench, blist = b.entity(
        top,
        "benchmark",
        "Benchmark leaderboard with metric filters.",
        "exact benchmark name, full name, slug, or ID",
        json_flag=False,
        list_help="Benchmarks, grouped by area and task or flat.",
        tool="get_benchmark",
        list_tool="list_benchmarks",
        examples=(
            'pwc benchmark --name ImageNet --max-parameters 100M --min "Top 1 Accuracy=83" --limit 5',
            'pwc benchmark ImageNet --pareto "Top 1 Accuracy:higher,GFLOPs:lower"',
            'pwc benchmark --name "Penn Treebank (Word Level)" --timeline --chart ptb.svg',
        ),
        list_examples=(
            "pwc benchmark list --task image-classification",
            "pwc benchmark list --group-by-area",
        ),
    )
    flags.limit(bench, 20, 100, "rows per page", paged=True)
    flags.page(bench)
    flags.is_open(bench, "rows")
    bench.add_argument(
        "--max-parameters",
        type=parameter_size,
        metavar="SIZE",
        help="at most SIZE parameters: 500M, 1.5B, 3_000_000_000",
    )
    bench.add_argument(
        "--require-metrics",
        type=metric_list,
        default=(),
        metavar="METRIC[,METRIC]",
        help="only rows reporting all these metrics",
    )
    flags.threshold(bench, "--min", "minimum_metrics", "≥")
    flags.threshold(bench, "--max", "maximum_metrics", "≤")
    bench.add_argument(
        "--sort",
        dest="sort_metric",
        type=metric_sort,
        metavar="METRIC[:asc|desc|higher|lower]",
        help="sort by a metric, best first when its direction is known (else descending); "
        ":asc/:desc force an order, :higher/:lower state the direction",
    )
    bench.add_argument(
        "--pareto",
        type=pareto_objectives,
        metavar="METRIC:higher,METRIC:lower",
        help="keep the Pareto frontier over two or more objectives (Parameters: the model size)",
    )
    bench.add_argument(
        "--timeline",
        action="store_true",
        help="SOTA over time: the rows that set a record, by publication date",
    )
    bench.add_argument(
        "--metric",
        type=Text(MAX_METRIC_NAME + len(":higher")),
        metavar="METRIC[:higher|lower]",
        help="timeline metric (default: the primary one); :higher/:lower states its direction",
    )
    bench.add_argument(
        "--chart",
        type=chart_file,
        metavar="FILE.svg",
        help="also write the page's rows as an SVG chart (with --timeline, the timeline too)",
    )
    flags.json(bench)
    flags.page(blist)
    flags.page_size(blist, 50)
    blist.add_argument("--search", help="benchmark name terms")
    blist.add_argument("--task", help="task slug, name or ID (trend-ranked by default)")
    flags.grouping(blist)
    blist.add_argument("--area", help="area name or ID (grouped output only)")
    blist.add_argument(
        "--benchmarks-per-task",
        type=IntRange("--benchmarks-per-task", 1, 10),
        default=3,
        help="benchmarks per task in grouped output (1-10, default 3)",
    )
    blist.add_argument(
        "--include-descendants", action="store_true", help="include benchmarks of descendant tasks"
    )
    blist.add_argument(
        "--min-eval-count",
        type=IntRange("--min-eval-count", 0, None),
        help="only benchmarks with at least this many evaluations",
    )
    flags.is_open(blist, "benchmarks")
    flags.order(blist, ["trending", "name", "full_name", "created_at", "paper_count"], None, "asc")
    flags.json(blist)
