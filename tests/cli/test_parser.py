"""The parser is the contract: every command, flag, default, bound and message; and a tool's
typed values make the very arguments the CLI parses for the same request."""

from __future__ import annotations

import argparse
import datetime as dt
import re
from typing import Any

import pytest

from pwc_cli.main import main
from pwc_cli.parser import build_parser, words_of
from pwc_core.declarations import COMMANDS, RESEARCH_COMMANDS
from pwc_core.declare import CLI, arguments
from pwc_core.errors import ArgumentError, UsageError


def namespace_for(command: str, values: dict[str, Any]) -> argparse.Namespace:
    return arguments(COMMANDS[command], values)


EXPECTED_FLAGS = {
    "search": {
        "--limit",
        "--page",
        "--mode",
        "--start-date",
        "--end-date",
        "--has-official-implementation",
        "--implementation-coverage",
        "--json",
        "--page-size",
    },
    "paper info": {"--include-resources", "--include-evals", "--cite", "--json"},
    "paper evaluations": {"--page", "--limit", "--page-size", "--against-sota", "--json"},
    "paper read": {"--outline", "--section", "--json"},
    "paper list": {
        "--page",
        "--limit",
        "--page-size",
        "--search",
        "--start-date",
        "--end-date",
        "--task",
        "--method",
        "--conference",
        "--framework",
        "--organization",
        "--author",
        "--all-versions",
        "--order-by",
        "--order-dir",
        "--include-resources",
        "--has-official-implementation",
        "--implementation-coverage",
        "--json",
    },
    "paper recent": {"--limit", "--implementation-coverage", "--json"},
    "paper trending": {
        "--limit",
        "--max-age-days",
        "--min-velocity",
        "--implementation-coverage",
        "--json",
    },
    "paper related": {"--limit", "--implementation-coverage", "--json"},
    "paper lineage list": {"--json"},
    "task": {"--name", "--json"},
    "task list": {
        "--page",
        "--limit",
        "--page-size",
        "--search",
        "--group-by-area",
        "--flat",
        "--area",
        "--level",
        "--visible-only",
        "--order-by",
        "--order-dir",
        "--json",
    },
    "method": {"--name", "--json"},
    "method list": {
        "--page",
        "--limit",
        "--page-size",
        "--search",
        "--area",
        "--introduced-year",
        "--order-by",
        "--order-dir",
        "--json",
    },
    "conference": {"--name", "--json"},
    "conference list": {"--year", "--json"},
    "organization": {"--name", "--json"},
    "organization list": {"--featured-only", "--json"},
    "framework": {"--name", "--json"},
    "framework list": {"--domain", "--category", "--platform", "--json"},
    "benchmark": {
        "--name",
        "--limit",
        "--page-size",
        "--page",
        "--is-open",
        "--extra-training-data",
        "--max-parameters",
        "--require-metrics",
        "--min",
        "--max",
        "--sort",
        "--pareto",
        "--chart",
        "--timeline",
        "--metric",
        "--json",
    },
    "benchmark list": {
        "--page",
        "--page-size",
        "--limit",
        "--search",
        "--task",
        "--group-by-area",
        "--flat",
        "--area",
        "--benchmarks-per-task",
        "--include-descendants",
        "--min-eval-count",
        "--is-open",
        "--order-by",
        "--order-dir",
        "--json",
    },
}


def parse(*argv: str) -> argparse.Namespace:
    root, _ = build_parser()
    return root.parse_args(list(argv))


def test_every_research_command_and_its_flags() -> None:
    # The contract's commands keep exactly their flags. A command added later is pinned by the
    # tools/list snapshot (tests/golden) and tests/test_completeness.py instead, so adding one
    # does not mean editing this table too.
    assert set(EXPECTED_FLAGS) <= set(RESEARCH_COMMANDS)
    _, parsers = build_parser()
    for command, flags in EXPECTED_FLAGS.items():
        declared = {f for p in COMMANDS[command].cli() for f in p.flags}
        assert declared == flags, command
        shown = set(re.findall(r"--[\w-]+", parsers[command].format_help()))
        assert flags <= shown, command  # the generated parser offers each of them


def test_presentation_flags_are_not_research_parameters() -> None:
    for command in RESEARCH_COMMANDS:
        research = COMMANDS[command].research()
        assert all(p.where != CLI for p in research)
        assert {p.dest for p in COMMANDS[command].params if p.where == CLI} <= {
            "json",
            "flat",
            "implementation_coverage",
            "chart",
        }


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (["search", "x"], {"limit": 10, "page": 1, "mode": "hybrid"}),
        (
            ["paper", "list"],
            {"page_size": 20, "order_by": "trending", "order_dir": "desc", "author": []},
        ),
        (["paper", "trending"], {"limit": 20, "max_age_days": 180, "min_velocity": None}),
        (["paper", "related", "p"], {"limit": 4}),
        (["task", "list"], {"page_size": 50, "order_by": "name", "order_dir": "asc"}),
        (["method", "list"], {"page_size": 50}),
        (
            ["benchmark", "--name", "b"],
            {"limit": 20, "page": 1, "require_metrics": (), "minimum_metrics": []},
        ),
        (["benchmark", "list"], {"page_size": 50, "benchmarks_per_task": 3, "order_by": None}),
    ],
)
def test_defaults(argv: list[str], expected: dict[str, object]) -> None:
    args = vars(parse(*argv))
    assert {k: args[k] for k in expected} == expected


def test_repeatable_and_alias_flags() -> None:
    args = parse("paper", "list", "--author", "A", "--author", "@b")
    assert args.author == ["A", "@b"]
    assert parse("benchmark", "list", "--limit", "7").page_size == 7
    args = parse("benchmark", "--name", "x", "--min", "a=1", "--min", "b = 2.5", "--max", "c=3")
    assert args.minimum_metrics == [("a", 1.0), ("b", 2.5)] and args.maximum_metrics == [("c", 3.0)]
    assert parse(
        "benchmark", "--name", "x", "--require-metrics", "a", "--require-metrics", " b, ,c"
    ).require_metrics == ("b", "c")


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["search", "x", "--limit", "0"], "argument --limit/--page-size: --limit must be 1-100"),
        (["search", "x", "--limit", "-5"], "--limit must be 1-100"),
        (["search", "x", "--limit", "ten"], "--limit must be an integer"),
        (["benchmark", "--name", "x", "--max-parameters", "-5M"], "got '-5M'"),
        (["search", ""], "argument QUERY: must not be empty"),
        (["search", "x", "--jsn"], "pwc search: error: unrecognized arguments: --jsn"),
        (["benchmark", "--name", "x", "50"], "unrecognized arguments: 50"),
        (["search", "x", "--page", "101"], "argument --page: --page must be 1-100"),
        (["search", "x", "--mode", "fuzzy"], "invalid choice"),
        (["search", "x", "--start-date", "2020-13-01"], "expected a date as YYYY-MM-DD"),
        (["paper", "related", "p", "--limit", "21"], "--limit must be 1-20"),
        (["paper", "trending", "--max-age-days", "366"], "--max-age-days must be 1-365"),
        (["method", "list", "--page-size", "501"], "--limit must be 1-500"),
        (
            ["benchmark", "list", "--limit", "101"],
            "argument --limit/--page-size: --limit must be 1-100",
        ),
        (
            ["benchmark", "list", "--benchmarks-per-task", "11"],
            "--benchmarks-per-task must be 1-10",
        ),
        (["task", "list", "--flat", "--group-by-area"], "not allowed with argument"),
        (["benchmark", "--name", "x", "--require-metrics", " , "], "metric list must not be empty"),
        (["benchmark", "--name", "x", "--min", "a"], "expected METRIC=VALUE"),
        (["benchmark", "--name", "x", "--min", "a=high"], "metric threshold must be numeric"),
        (["benchmark", "--name", "x", "--sort", ":asc"], "expected METRIC[:asc|desc|higher|lower]"),
        (
            ["benchmark", "--name", "x", "--pareto", "a:higher"],
            "Pareto selection requires at least two metrics",
        ),
        (
            ["benchmark", "--name", "x", "--pareto", "a:up,b:lower"],
            "expected METRIC:higher,METRIC:lower",
        ),
        (["paper"], "required"),
        (["frobnicate"], "unexpected argument 'frobnicate' (expected one of: 'search'"),
    ],
)
def test_argument_errors(argv: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    """Through main(): one short usage line of the failing command, then the error line."""
    assert main(argv, client=None) == 2
    usage, err = capsys.readouterr().err.strip().splitlines()
    assert message in err
    assert err.endswith("--help'") and ": error: " in err
    command = err.split(": error: ")[0]
    assert usage.startswith(f"usage: {command} ")


def test_error_line_names_the_full_command_path(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        parse("paper", "info")
    last = capsys.readouterr().err.strip().splitlines()[-1]
    assert last.startswith("pwc paper info: error: ") and last.endswith(
        "; run 'pwc paper info --help'"
    )


def test_arguments_apply_defaults_and_the_kinds() -> None:
    args = namespace_for(
        "benchmark",
        {"name": "ImageNet", "max_parameters": "1.5B", "minimum_metrics": {"a": 1}},
    )
    assert (
        args.max_parameters == 1_500_000_000
        and args.limit == 20
        and args.minimum_metrics == [("a", 1.0)]
    )
    with pytest.raises(UsageError, match="unknown option"):
        namespace_for("search", {"query": "x", "bogus": 1})
    with pytest.raises(UsageError, match="--has-official-implementation expects a boolean"):
        namespace_for("search", {"query": "x", "has_official_implementation": "yes"})
    with pytest.raises(UsageError, match="invalid choice"):
        namespace_for("search", {"query": "x", "mode": "fuzzy"})


# --- one request, two doors: a tool's typed values and the CLI's words -------------------------

# Tool values (keyed by dest, as pwc_mcp.params.to_dests makes them, typed as the tool schema
# validates them) and the argv a CLI user would type for the same request.
SAME_REQUEST = [
    (
        "search",
        {"query": "attention", "limit": 3, "mode": "keyword"},
        ["attention", "--limit", "3", "--mode", "keyword"],
    ),
    (
        "paper info",
        {"paper": "1706.03762", "include_evals": True},
        ["1706.03762", "--include-evals"],
    ),
    (
        "paper list",
        {
            "author": ["A", "@b"],
            "start_date": dt.date(2020, 1, 1),
            "has_official_implementation": True,
        },
        [
            "--author",
            "A",
            "--author",
            "@b",
            "--start-date",
            "2020-01-01",
            "--has-official-implementation",
        ],
    ),
    ("task", {"name": "image-classification"}, ["--name", "image-classification"]),
    (
        "task list",
        {"group_by_area": True, "area": "Computer Vision"},
        ["--group-by-area", "--area", "Computer Vision"],
    ),
    (
        "benchmark",
        {
            "name": "ImageNet",
            "max_parameters": "1.5B",
            "minimum_metrics": {"Top 1 Accuracy": 80, "Params": 1},
            "require_metrics": ["Top 1 Accuracy", "Params"],
            "is_open": True,
            "pareto": ["Top 1 Accuracy:higher", "Params:lower"],
            "sort_metric": "Params:asc",
        },
        [
            "--name",
            "ImageNet",
            "--max-parameters",
            "1.5B",
            "--min",
            "Top 1 Accuracy=80",
            "--min",
            "Params=1",
            "--require-metrics",
            "Top 1 Accuracy,Params",
            "--is-open",
            "true",
            "--pareto",
            "Top 1 Accuracy:higher,Params:lower",
            "--sort",
            "Params:asc",
        ],
    ),
    (
        "benchmark list",
        {"page_size": 7, "min_eval_count": 2},
        ["--limit", "7", "--min-eval-count", "2"],
    ),
]


@pytest.mark.parametrize(("command", "values", "argv"), SAME_REQUEST)
def test_typed_values_make_what_the_cli_parses(
    command: str, values: dict[str, object], argv: list[str]
) -> None:
    """Every attribute, default and converted value the handler reads is the CLI's."""
    root, _ = build_parser()
    parsed = vars(root.parse_args([*command.split(), *argv]))
    typed = vars(namespace_for(command, values))
    shared = ["command", *(p.dest for p in COMMANDS[command].cli())]
    assert {key: typed[key] for key in shared} == {key: parsed[key] for key in shared}


def test_a_list_stays_a_list() -> None:
    """A name with a comma is one name, a Pareto objective with a comma one objective: no trip
    through comma-joined text."""
    args = namespace_for(
        "benchmark",
        {
            "name": "x",
            "require_metrics": ["Top 1 Accuracy, val"],
            "pareto": ["Accuracy (a, b):higher", "Params:lower"],
        },
    )
    assert args.require_metrics == ("Top 1 Accuracy, val",)
    assert args.pareto == (("Accuracy (a, b)", "higher"), ("Params", "lower"))


def test_arguments_apply_the_declared_rules() -> None:
    """Item limits and exclusions are the declaration's, for a tool as for the CLI."""
    with pytest.raises(UsageError, match="at most 8 metrics") as refused:
        namespace_for("benchmark", {"name": "x", "minimum_metrics": {f"m{i}": 1 for i in range(9)}})
    assert isinstance(refused.value, ArgumentError) and refused.value.dest == "minimum_metrics"
    with pytest.raises(UsageError, match="not allowed with argument"):
        namespace_for("task list", {"group_by_area": True, "flat": True})


def test_flag_like_text_stays_a_value() -> None:
    assert namespace_for("search", {"query": "-x --json"}).query == "-x --json"
    assert namespace_for("search", {"query": "--"}).query == "--"
    args = namespace_for("paper list", {"search": "--json", "task": "-5"})
    assert (args.search, args.task, args.json) == ("--json", "-5", False)
    args = namespace_for("paper list", {"search": "--", "author": ["--", "A"]})
    assert (args.search, args.author) == ("--", ["--", "A"])
    with pytest.raises(ArgumentError, match="invalid choice: '--'"):
        namespace_for("search", {"query": "x", "mode": "--"})


def test_the_cli_keeps_flag_like_text_as_values() -> None:
    """`--search=--` is the text "--" (argparse before 3.13 dropped it), a negative-looking
    value after its flag stays the value, and an entity's NAME may look like a flag's value."""
    root, _ = build_parser()

    def parsed(*argv: str) -> argparse.Namespace:
        words, strays = words_of(list(argv))
        assert strays == []
        return root.parse_args(words)

    assert parsed("paper", "list", "--search=--").search == "--"
    assert parsed("paper", "list", "--author=--", "--author", "A").author == ["--", "A"]
    assert parsed("paper", "list", "--task", "-5").task == "-5"
    assert parsed("search", "-5M", "--limit", "2").query == "-5M"
    assert parsed("task", "-1x").name == "-1x"
    assert parsed("--json", "task", "list").json is True


def test_a_refused_value_names_its_dest() -> None:
    with pytest.raises(ArgumentError) as refused:
        namespace_for("benchmark", {"name": "x", "max_parameters": "-5M"})
    assert refused.value.dest == "max_parameters"
    assert str(refused.value).startswith("argument --max-parameters: ")
    with pytest.raises(ArgumentError) as refused:
        namespace_for("benchmark", {"name": "x", "pareto": ["a:higher"]})
    assert refused.value.dest == "pareto" and "at least two" in str(refused.value)


def test_arguments_never_share_a_default_list() -> None:
    first = namespace_for("paper list", {})
    first.author.append("mutated")
    assert namespace_for("paper list", {}).author == []
