"""The `pwc` parser: the single source of truth for every command and flag.

Each leaf command (e.g. "paper info", "task list") records its parser in `COMMANDS`, and
`PRESENTATION_FLAGS` names the flags that only change rendering, so the MCP server can generate
tool parameters from exactly the research flags.
"""

from __future__ import annotations

import argparse
from collections.abc import Mapping
from typing import Any

from pwc_cli import __version__, flags
from pwc_cli.argparsing import (  # noqa: F401  (re-exported: pwc_cli.main and the tests)
    PwcParser,
    RaisingParser,
    blank_positional,
    explain,
    namespace_from,
)
from pwc_cli.help import epilog
from pwc_cli.types import (
    AUTHOR,
    BoundedAppend,
    IntRange,
    finite_float,
    metric_list,
    metric_sort,
    metric_threshold,
    parameter_size,
    pareto_objectives,
)

PRESENTATION_FLAGS = frozenset({"json", "flat", "implementation_coverage"})
VERSION_LINE = f"pwc {__version__}\tapi v1"


class _Builder:
    """Creates leaf parsers and records them under their command path."""

    def __init__(self, parser_class: type[PwcParser]) -> None:
        self.parser_class = parser_class
        self.commands: dict[str, argparse.ArgumentParser] = {}

    def leaf(
        self, subparsers: Any, name: str, command: str, help_text: str, **kw: Any
    ) -> argparse.ArgumentParser:
        parser = subparsers.add_parser(
            name, help=help_text, description=help_text, epilog=epilog(command), **kw
        )
        parser.set_defaults(command=command)
        self.commands[command] = parser
        return parser


def _build(parser_class: type[PwcParser]) -> tuple[PwcParser, dict[str, argparse.ArgumentParser]]:
    b = _Builder(parser_class)
    root = parser_class(
        prog="pwc",
        description="Read-only client for the Papers With Code research catalog (API v1).",
        epilog=epilog(""),
    )
    root.add_argument("--version", action="version", version=VERSION_LINE)
    top = root.add_subparsers(dest="group", metavar="COMMAND", parser_class=parser_class)
    top.required = True

    search = b.leaf(
        top, "search", "search", "Paper search: hybrid (keyword + semantic) by default."
    )
    search.add_argument("query", metavar="QUERY", help="title, topic, author or arXiv ID")
    flags.limit(search, 10, 100, "results per page", paged=True)
    flags.page(search)
    search.add_argument(
        "--mode",
        choices=["hybrid", "keyword", "semantic"],
        default="hybrid",
        help="search mode (default hybrid)",
    )
    flags.dates(search)
    flags.official(search)
    flags.coverage(search)
    flags.json(search)

    paper = top.add_parser(
        "paper",
        help="Paper details, Markdown, lists and lineage.",
        description="Paper details, Markdown, lists and lineage.",
        epilog=epilog("paper"),
    )
    papers = paper.add_subparsers(
        dest="paper_command", metavar="SUBCOMMAND", parser_class=parser_class
    )
    papers.required = True

    info = b.leaf(papers, "info", "paper info", "Show one paper.")
    flags.paper(info)
    info.add_argument(
        "--include-resources",
        action="store_true",
        help="add repositories, project pages and Hugging Face links",
    )
    info.add_argument(
        "--include-evals", action="store_true", help="add every evaluation row of the paper"
    )
    flags.json(info)

    evaluations = b.leaf(
        papers,
        "evaluations",
        "paper evaluations",
        "Evaluation rows of one paper, merged across task scopes.",
    )
    flags.paper(evaluations)
    flags.page(evaluations)
    flags.page_size(evaluations, 20)
    flags.json(evaluations)

    read = b.leaf(papers, "read", "paper read", "Print a paper's stored Markdown.")
    flags.paper(read)
    flags.json(read)

    plist = b.leaf(papers, "list", "paper list", "Deterministic filtered paper listing.")
    flags.page(plist)
    flags.page_size(plist, 20)
    plist.add_argument("--search", help="title/abstract topic terms")
    flags.dates(plist)
    plist.add_argument("--task", help="exact task name, slug, or ID")
    plist.add_argument("--method", help="exact method name, full name, slug, or ID")
    plist.add_argument("--conference", help="exact conference name, slug, or ID")
    plist.add_argument("--framework", help="exact framework name, slug, or ID")
    plist.add_argument("--organization", help="exact organization name, slug, or ID")
    plist.add_argument(
        "--author",
        action="append",
        type=AUTHOR,
        default=[],
        metavar="AUTHOR",
        help="exact author name, author ID, or @HF_USERNAME; repeatable (AND), at most 10",
    )
    plist.add_argument(
        "--all-versions", action="store_true", help="include superseded paper versions"
    )
    flags.order(plist, ["trending", "date_published", "citation_count"], "trending", "desc")
    plist.add_argument(
        "--include-resources", action="store_true", help="add code and artifact links"
    )
    flags.official(plist)
    flags.coverage(plist)
    flags.json(plist)

    recent = b.leaf(papers, "recent", "paper recent", "Most recently published papers.")
    flags.limit(recent, 10, 100, "number of papers")
    flags.coverage(recent)
    flags.json(recent)

    trending = b.leaf(papers, "trending", "paper trending", "Trending papers.")
    flags.limit(trending, 20, 100, "number of papers")
    trending.add_argument(
        "--max-age-days",
        type=IntRange("--max-age-days", 1, 365),
        default=180,
        help="only papers published within this many days (1-365, default 180)",
    )
    trending.add_argument("--min-velocity", type=finite_float, help="minimum trending velocity")
    flags.coverage(trending)
    flags.json(trending)

    related = b.leaf(papers, "related", "paper related", "Papers related to one paper.")
    flags.paper(related)
    flags.limit(related, 4, 20, "number of papers")
    flags.coverage(related)
    flags.json(related)

    lineage = papers.add_parser(
        "lineage",
        help="Explicit predecessor/successor links.",
        description="Explicit predecessor/successor links.",
        epilog=epilog("paper lineage"),
    )
    lineages = lineage.add_subparsers(
        dest="lineage_command", metavar="SUBCOMMAND", parser_class=parser_class
    )
    lineages.required = True
    lineage_list = b.leaf(lineages, "list", "paper lineage list", "A paper's lineage links.")
    flags.paper(lineage_list)
    flags.json(lineage_list)

    _, tlist = _entity(
        b,
        top,
        "task",
        "Task page: hierarchy, benchmarks, methods, papers.",
        "exact task name, slug, or ID",
        list_help="Tasks, grouped by area or flat.",
    )
    flags.page(tlist)
    flags.page_size(tlist, 50)
    tlist.add_argument("--search", help="task name terms (flat output)")
    flags.grouping(tlist)
    tlist.add_argument("--area", help="case-insensitive exact area name or area ID")
    tlist.add_argument("--level", type=IntRange("--level", 0, None), help="task hierarchy level")
    tlist.add_argument("--visible-only", action="store_true", help="only visible tasks")
    flags.order(tlist, ["name", "created_at", "level", "paper_count"], "name", "asc")
    flags.json(tlist)

    _, mlist = _entity(
        b,
        top,
        "method",
        "Method details.",
        "exact method name, full name, slug, or ID",
        list_help="Methods.",
    )
    flags.page(mlist)
    flags.page_size(mlist, 50, maximum=500)
    mlist.add_argument("--search", help="method name terms")
    mlist.add_argument("--area", help="case-insensitive exact area name or area ID")
    mlist.add_argument(
        "--introduced-year",
        type=IntRange("--introduced-year", 1, 9999),
        help="year the method was introduced",
    )
    flags.order(
        mlist, ["name", "full_name", "introduced_year", "created_at", "paper_count"], "name", "asc"
    )
    flags.json(mlist)

    _, clist = _entity(
        b,
        top,
        "conference",
        "Conference details.",
        "exact conference name, slug, or ID",
        list_help="Conferences.",
    )
    clist.add_argument("--year", type=IntRange("--year", 1, 9999), help="only this year")
    flags.json(clist)

    _, olist = _entity(
        b,
        top,
        "organization",
        "Organization details.",
        "exact organization name, slug, or ID",
        list_help="Organizations.",
    )
    olist.add_argument("--featured-only", action="store_true", help="only featured organizations")
    flags.json(olist)

    _, flist = _entity(
        b,
        top,
        "framework",
        "Framework details.",
        "exact framework name, slug, or ID",
        list_help="Frameworks.",
    )
    flist.add_argument("--domain", help="exact domain name or slug")
    flist.add_argument("--category", help="exact category name or slug")
    flist.add_argument("--platform", help="exact platform name")
    flags.json(flist)

    bench, blist = _entity(
        b,
        top,
        "benchmark",
        "Benchmark leaderboard with metric filters.",
        "exact benchmark name, full name, slug, or ID",
        json_flag=False,
        list_help="Benchmarks, grouped by area and task or flat.",
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
    bench.add_argument(
        "--min",
        dest="minimum_metrics",
        type=metric_threshold,
        action=BoundedAppend,
        default=[],
        metavar="METRIC=VALUE",
        help="metric ≥ VALUE; repeatable",
    )
    bench.add_argument(
        "--max",
        dest="maximum_metrics",
        type=metric_threshold,
        action=BoundedAppend,
        default=[],
        metavar="METRIC=VALUE",
        help="metric ≤ VALUE; repeatable",
    )
    bench.add_argument(
        "--sort",
        dest="sort_metric",
        type=metric_sort,
        metavar="METRIC[:asc|desc]",
        help="sort by a metric (default desc)",
    )
    bench.add_argument(
        "--pareto",
        type=pareto_objectives,
        metavar="METRIC:higher,METRIC:lower",
        help="keep the Pareto frontier over two or more objectives",
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

    version = b.leaf(top, "version", "version", "Print the CLI version.")
    del version
    return root, b.commands


def _entity(
    b: _Builder,
    top: Any,
    name: str,
    help_text: str,
    name_help: str,
    *,
    list_help: str,
    json_flag: bool = True,
) -> tuple[argparse.ArgumentParser, argparse.ArgumentParser]:
    """An entity command (`--name` detail) and its optional nested `list` subcommand."""
    parser = b.leaf(top, name, name, help_text)
    flags.name(parser, name_help)
    if json_flag:
        flags.json(parser)
    nested = parser.add_subparsers(
        dest=f"{name}_command", metavar="list", parser_class=b.parser_class
    )
    return parser, b.leaf(nested, "list", f"{name} list", list_help)


def build_parser(*, raising: bool = False) -> tuple[PwcParser, dict[str, argparse.ArgumentParser]]:
    """Build the whole tree; `raising=True` makes argument errors raise UsageError."""
    return _build(RaisingParser if raising else PwcParser)


_ROOT, COMMANDS = build_parser(raising=True)
RESEARCH_COMMANDS = tuple(name for name in COMMANDS if name != "version")
# dest → action per command, built once: namespace_for runs on every tool call.
_ACTIONS = {
    command: {a.dest: a for a in parser._actions if not isinstance(a, argparse._HelpAction)}
    for command, parser in COMMANDS.items()
}


def research_actions(command: str) -> list[argparse.Action]:
    """The research flags and positionals of one leaf command (no help, no presentation)."""
    return [
        action
        for action in COMMANDS[command]._actions
        if not isinstance(action, argparse._HelpAction | argparse._SubParsersAction)
        and action.dest not in PRESENTATION_FLAGS
    ]


def namespace_for(command: str, values: Mapping[str, Any]) -> argparse.Namespace:
    """Arguments for a handler from already-typed or textual values keyed by dest; a refused
    value raises ArgumentError (pwc_cli.argparsing.namespace_from)."""
    return namespace_from(command, _ACTIONS[command], values)
