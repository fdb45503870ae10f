"""The `pwc` parser: the single source of truth for every command and flag.

Each leaf command (e.g. "paper info", "task list") records its parser in `COMMANDS`, and
`PRESENTATION_FLAGS` names the flags that only change rendering, so the MCP server can generate
tool parameters from exactly the research flags.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Iterable, Mapping
from typing import Any, NoReturn

from pwc_cli import __version__
from pwc_cli.errors import UsageError
from pwc_cli.help import epilog
from pwc_cli.types import (
    AUTHOR,
    BoundedAppend,
    IntRange,
    bound_text_by_default,
    finite_float,
    iso_date,
    metric_list,
    metric_sort,
    metric_threshold,
    parameter_size,
    pareto_objectives,
)

PRESENTATION_FLAGS = frozenset({"json", "flat", "implementation_coverage"})
VERSION_LINE = f"pwc {__version__}\tapi v1"
_CHOICE = re.compile(
    r"^argument (?:COMMAND|SUBCOMMAND|list): invalid choice: (.*) \(choose from (.*)\)$"
)


class PwcParser(argparse.ArgumentParser):
    """argparse with the contract's error lines: one short usage line of the command that
    failed, then `<prog>: error: <msg>; run '<prog> --help'`."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", argparse.RawDescriptionHelpFormatter)  # examples
        super().__init__(*args, **kwargs)
        bound_text_by_default(self)  # no value without a length bound (pwc_cli.types)

    def error(self, message: str) -> NoReturn:
        print(f"usage: {self.short_usage()}", file=sys.stderr)
        self.exit(2, f"{self.prog}: error: {explain(message)}; run '{self.prog} --help'\n")

    def short_usage(self) -> str:
        """`pwc paper info [options] PAPER`: the full usage block is in --help."""
        words = [self.prog]
        if any(a.option_strings for a in self._actions):
            words.append("[options]")
        for action in self._actions:
            if isinstance(action, argparse._SubParsersAction):
                words.append(str(action.metavar) + (" ..." if action.required else " [...]"))
            elif not action.option_strings:
                words.append(str(action.metavar or action.dest))
        return " ".join(words)

    def _parse_optional(self, arg_string: str) -> Any:
        # `-5M`, `-3` or `-.5` is a (bad) value, not an unknown flag: the value's own check
        # then says what is wrong with it instead of "expected one argument".
        if re.match(r"^-\.?\d", arg_string):
            return None
        return super()._parse_optional(arg_string)


def explain(message: str) -> str:
    """argparse's message for a stray word where a subcommand may stand, in plain words."""
    match = _CHOICE.match(message)
    if match:
        return f"unexpected argument {match.group(1)} (expected one of: {match.group(2)})"
    return message


def blank_positional(parser: argparse.ArgumentParser, args: argparse.Namespace) -> str | None:
    """The name of a required value given blank (`pwc search ""`), so that it is a usage
    error before any request; None when every one has text."""
    for action in parser._actions:
        value = getattr(args, action.dest, None)
        if not action.option_strings and isinstance(value, str) and not value.strip():
            return str(action.metavar or action.dest)
    return None


class RaisingParser(PwcParser):
    """For in-process use: argument errors raise UsageError instead of exiting."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(message)


def _page(parser: argparse.ArgumentParser, *, default: int = 1) -> None:
    parser.add_argument(
        "--page", type=IntRange("--page", 1, 100), default=default, help="page number (1-100)"
    )


def _page_size(parser: argparse.ArgumentParser, default: int, maximum: int = 100) -> None:
    parser.add_argument(
        "--limit",
        "--page-size",
        dest="page_size",
        type=IntRange("--limit", 1, maximum),
        default=default,
        help=f"rows per page (1-{maximum}, default {default})",
    )


def _limit(
    parser: argparse.ArgumentParser, default: int, maximum: int, what: str, *, paged: bool = False
) -> None:
    """`--limit` (dest `limit`); a page size also answers to `--page-size`."""
    parser.add_argument(
        "--limit",
        *(["--page-size"] if paged else []),
        dest="limit",
        type=IntRange("--limit", 1, maximum),
        default=default,
        help=f"{what} (1-{maximum}, default {default})",
    )


def _dates(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--start-date", type=iso_date, metavar="YYYY-MM-DD", help="published on or after"
    )
    parser.add_argument(
        "--end-date", type=iso_date, metavar="YYYY-MM-DD", help="published on or before"
    )


def _official(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--has-official-implementation",
        action="store_true",
        help="only papers with official code (confirmed by the API)",
    )


def _coverage(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--implementation-coverage",
        action="store_true",
        help="add official_implementation and code_repositories columns",
    )


def _json(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--json", action="store_true", help='print {"schema_version": "v1", "data": ...}'
    )


def _paper(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "paper",
        metavar="PAPER",
        help="arXiv ID (modern or legacy), numeric catalog ID, arXiv/Hugging Face/Papers With "
        "Code URL, exact title, or the unique short name before a title's colon",
    )


def _order(
    parser: argparse.ArgumentParser, fields: Iterable[str], default: str | None, direction: str
) -> None:
    choices = list(fields)
    parser.add_argument(
        "--order-by",
        choices=choices,
        default=default,
        help=f"sort field (default {default or 'trending with --task, name otherwise'})",
    )
    parser.add_argument(
        "--order-dir",
        choices=["asc", "desc"],
        default=direction,
        help=f"sort direction (default {direction})",
    )


def _is_open(parser: argparse.ArgumentParser, what: str) -> None:
    parser.add_argument(
        "--is-open",
        choices=["true", "false"],
        help=f"only {what} of open (true) or closed (false) models",
    )


def _grouping(parser: argparse.ArgumentParser) -> None:
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--group-by-area", action="store_true", help="group the results by area")
    group.add_argument("--flat", action="store_true", help="always print the flat table")


def _name(parser: argparse.ArgumentParser, what: str) -> None:
    parser.add_argument("--name", help=what)


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
    _limit(search, 10, 100, "results per page", paged=True)
    _page(search)
    search.add_argument(
        "--mode",
        choices=["hybrid", "keyword", "semantic"],
        default="hybrid",
        help="search mode (default hybrid)",
    )
    _dates(search)
    _official(search)
    _coverage(search)
    _json(search)

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
    _paper(info)
    info.add_argument(
        "--include-resources",
        action="store_true",
        help="add repositories, project pages and Hugging Face links",
    )
    info.add_argument(
        "--include-evals", action="store_true", help="add every evaluation row of the paper"
    )
    _json(info)

    evaluations = b.leaf(
        papers,
        "evaluations",
        "paper evaluations",
        "Evaluation rows of one paper, merged across task scopes.",
    )
    _paper(evaluations)
    _page(evaluations)
    _page_size(evaluations, 20)
    _json(evaluations)

    read = b.leaf(papers, "read", "paper read", "Print a paper's stored Markdown.")
    _paper(read)
    _json(read)

    plist = b.leaf(papers, "list", "paper list", "Deterministic filtered paper listing.")
    _page(plist)
    _page_size(plist, 20)
    plist.add_argument("--search", help="title/abstract topic terms")
    _dates(plist)
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
    _order(plist, ["trending", "date_published", "citation_count"], "trending", "desc")
    plist.add_argument(
        "--include-resources", action="store_true", help="add code and artifact links"
    )
    _official(plist)
    _coverage(plist)
    _json(plist)

    recent = b.leaf(papers, "recent", "paper recent", "Most recently published papers.")
    _limit(recent, 10, 100, "number of papers")
    _coverage(recent)
    _json(recent)

    trending = b.leaf(papers, "trending", "paper trending", "Trending papers.")
    _limit(trending, 20, 100, "number of papers")
    trending.add_argument(
        "--max-age-days",
        type=IntRange("--max-age-days", 1, 365),
        default=180,
        help="only papers published within this many days (1-365, default 180)",
    )
    trending.add_argument("--min-velocity", type=finite_float, help="minimum trending velocity")
    _coverage(trending)
    _json(trending)

    related = b.leaf(papers, "related", "paper related", "Papers related to one paper.")
    _paper(related)
    _limit(related, 4, 20, "number of papers")
    _coverage(related)
    _json(related)

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
    _paper(lineage_list)
    _json(lineage_list)

    _, tlist = _entity(
        b,
        top,
        "task",
        "Task page: hierarchy, benchmarks, methods, papers.",
        "exact task name, slug, or ID",
        list_help="Tasks, grouped by area or flat.",
    )
    _page(tlist)
    _page_size(tlist, 50)
    tlist.add_argument("--search", help="task name terms (flat output)")
    _grouping(tlist)
    tlist.add_argument("--area", help="case-insensitive exact area name or area ID")
    tlist.add_argument("--level", type=IntRange("--level", 0, None), help="task hierarchy level")
    tlist.add_argument("--visible-only", action="store_true", help="only visible tasks")
    _order(tlist, ["name", "created_at", "level", "paper_count"], "name", "asc")
    _json(tlist)

    _, mlist = _entity(
        b,
        top,
        "method",
        "Method details.",
        "exact method name, full name, slug, or ID",
        list_help="Methods.",
    )
    _page(mlist)
    _page_size(mlist, 50, maximum=500)
    mlist.add_argument("--search", help="method name terms")
    mlist.add_argument("--area", help="case-insensitive exact area name or area ID")
    mlist.add_argument(
        "--introduced-year",
        type=IntRange("--introduced-year", 1, 9999),
        help="year the method was introduced",
    )
    _order(
        mlist, ["name", "full_name", "introduced_year", "created_at", "paper_count"], "name", "asc"
    )
    _json(mlist)

    _, clist = _entity(
        b,
        top,
        "conference",
        "Conference details.",
        "exact conference name, slug, or ID",
        list_help="Conferences.",
    )
    clist.add_argument("--year", type=IntRange("--year", 1, 9999), help="only this year")
    _json(clist)

    _, olist = _entity(
        b,
        top,
        "organization",
        "Organization details.",
        "exact organization name, slug, or ID",
        list_help="Organizations.",
    )
    olist.add_argument("--featured-only", action="store_true", help="only featured organizations")
    _json(olist)

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
    _json(flist)

    bench, blist = _entity(
        b,
        top,
        "benchmark",
        "Benchmark leaderboard with metric filters.",
        "exact benchmark name, full name, slug, or ID",
        json_flag=False,
        list_help="Benchmarks, grouped by area and task or flat.",
    )
    _limit(bench, 20, 100, "rows per page", paged=True)
    _page(bench)
    _is_open(bench, "rows")
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
    _json(bench)
    _page(blist)
    _page_size(blist, 50)
    blist.add_argument("--search", help="benchmark name terms")
    blist.add_argument("--task", help="task slug, name or ID (trend-ranked by default)")
    _grouping(blist)
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
    _is_open(blist, "benchmarks")
    _order(blist, ["trending", "name", "full_name", "created_at", "paper_count"], None, "asc")
    _json(blist)

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
    _name(parser, name_help)
    if json_flag:
        _json(parser)
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
    """Arguments for a handler from already-typed or textual values keyed by dest.

    Defaults come from the parser; strings for typed options go through the option's own
    converter so the validation messages are the CLI's.
    """
    actions = _ACTIONS[command]
    unknown = sorted(set(values) - set(actions))
    if unknown:
        raise UsageError(f"unknown option(s) for pwc {command}: {', '.join(unknown)}")
    args = argparse.Namespace(command=command)
    for dest, action in actions.items():
        if isinstance(action, argparse._SubParsersAction):
            continue
        setattr(args, dest, _copy_default(action.default))
    for dest, value in values.items():
        if value is None:
            continue
        setattr(args, dest, _convert(actions[dest], value))
    return args


def _copy_default(value: Any) -> Any:
    return list(value) if isinstance(value, list) else value


def _convert(action: argparse.Action, value: Any) -> Any:
    flag = action.option_strings[0] if action.option_strings else action.dest
    if action.nargs == 0:
        if not isinstance(value, bool):
            raise UsageError(f"{flag} expects a boolean")
        return value
    if action.choices is not None and str(value) not in action.choices:
        choices = ", ".join(repr(c) for c in action.choices)
        raise UsageError(f"argument {flag}: invalid choice: {value!r} (choose from {choices})")
    if isinstance(action, argparse._AppendAction):
        items = value if isinstance(value, list | tuple) else [value]
        return [_typed(action, flag, item) for item in items]
    return _typed(action, flag, value)


def _typed(action: argparse.Action, flag: str, value: Any) -> Any:
    converter = action.type
    if converter is None:
        return str(value)
    try:
        return converter(value if isinstance(value, str) else str(value))
    except argparse.ArgumentTypeError as exc:
        raise UsageError(f"argument {flag}: {exc}") from None
