"""`benchmark` (a leaderboard with metric filters) and `benchmark list`."""

from __future__ import annotations

from pwc_core.declarations import shared
from pwc_core.declare import CLI, Command, Param
from pwc_core.values import (
    MAX_METRIC_NAME,
    IntRange,
    Text,
    file_path,
    metric_list,
    metric_sort,
    parameter_size,
    pareto_objectives,
    yes_no,
)

DECLARED = (
    Command(
        "benchmark",
        "Benchmark leaderboard with metric filters.",
        (
            shared.name("benchmark", "exact benchmark name, full name, slug, or ID"),
            shared.limit(20, 100, "rows per page", paged=True),
            shared.page(),
            shared.is_open("rows"),
            Param(
                "extra_training_data",
                "only rows known to use (true) or known not to use (false) training data beyond "
                "the benchmark's own; rows whose flag is unknown are left out, and counted",
                ("--extra-training-data",),
                yes_no,
                choices=("true", "false"),
                tool_help="true: only rows known to use extra training data; false: only rows "
                "known not to (rows not known either way are left out, and counted)",
            ),
            Param(
                "max_parameters",
                "at most SIZE parameters: 500M, 1.5B, 3_000_000_000",
                ("--max-parameters",),
                parameter_size,
                metavar="SIZE",
                tool_help="at most this many parameters: 500M, 1.5B, or a number",
            ),
            Param(
                "require_metrics",
                "only rows reporting all these metrics",
                ("--require-metrics",),
                metric_list,
                default=(),
                metavar="METRIC[,METRIC]",
            ),
            shared.threshold("--min", "minimum_metrics", "≥", "minimum"),
            shared.threshold("--max", "maximum_metrics", "≤", "maximum"),
            Param(
                "sort_metric",
                "sort by a metric, best first when its direction is known (else descending); "
                ":asc/:desc force an order, :higher/:lower state the direction",
                ("--sort",),
                metric_sort,
                metavar="METRIC[:asc|desc|higher|lower]",
                tool_help="a metric, best first; :asc/:desc force an order, :higher/:lower state "
                "its direction",
            ),
            Param(
                "pareto",
                "keep the Pareto frontier over two or more objectives (Parameters: the model size)",
                ("--pareto",),
                pareto_objectives,
                metavar="METRIC:higher,METRIC:lower",
                tool_help="two or more objectives such as ['Top 1 Accuracy:higher', 'Params:lower']",
            ),
            shared.switch(
                "timeline", "SOTA over time: the rows that set a record, by publication date"
            ),
            Param(
                "metric",
                "timeline metric (default: the primary one); :higher/:lower states its direction",
                ("--metric",),
                Text(MAX_METRIC_NAME + len(":higher")),
                metavar="METRIC[:higher|lower]",
            ),
            Param(
                "chart",
                "also write the page's rows as an SVG chart (with --timeline, the timeline too)",
                ("--chart",),
                file_path,
                metavar="FILE.svg",
                where=CLI,  # a tool never writes files
            ),
            shared.json(),
        ),
        (
            'pwc benchmark --name ImageNet --max-parameters 100M --min "Top 1 Accuracy=83" --limit 5',
            'pwc benchmark ImageNet --pareto "Top 1 Accuracy:higher,GFLOPs:lower"',
            'pwc benchmark --name "Penn Treebank (Word Level)" --timeline --chart ptb.svg',
        ),
        tool="get_benchmark",
        entity=True,
    ),
    Command(
        "benchmark list",
        "Benchmarks, grouped by area and task or flat.",
        (
            shared.page(),
            shared.page_size(50),
            shared.text("search", "benchmark name terms"),
            shared.text("task", "task slug, name or ID (trend-ranked by default)"),
            *shared.grouping(),
            shared.text("area", "area name or ID (grouped output only)"),
            Param(
                "benchmarks_per_task",
                "benchmarks per task in grouped output (1-10, default 3)",
                ("--benchmarks-per-task",),
                IntRange("--benchmarks-per-task", 1, 10),
                3,
                tool_help="benchmarks per task in grouped output",
            ),
            shared.switch("include_descendants", "include benchmarks of descendant tasks"),
            Param(
                "min_eval_count",
                "only benchmarks with at least this many evaluations",
                ("--min-eval-count",),
                IntRange("--min-eval-count", 0, None),
                tool_name="minimum_evaluations",
            ),
            shared.is_open("benchmarks"),
            *shared.order(
                ["trending", "name", "full_name", "created_at", "paper_count"], None, "asc"
            ),
            shared.json(),
        ),
        ("pwc benchmark list --task image-classification", "pwc benchmark list --group-by-area"),
        tool="list_benchmarks",
    ),
)
