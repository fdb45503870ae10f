"""The parser is the contract: every command, flag, default, bound and message."""

from __future__ import annotations

import argparse

import pytest

from pwc_cli.main import main
from pwc_cli.parser import (
    COMMANDS,
    PRESENTATION_FLAGS,
    RESEARCH_COMMANDS,
    build_parser,
    namespace_for,
    research_actions,
)
from pwc_core.errors import ArgumentError, UsageError

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
    for command, flags in EXPECTED_FLAGS.items():
        options = {o for a in COMMANDS[command]._actions for o in a.option_strings} - {
            "-h",
            "--help",
        }
        assert options == flags, command


def test_presentation_flags_are_not_research_actions() -> None:
    for command in RESEARCH_COMMANDS:
        dests = {a.dest for a in research_actions(command)}
        assert not dests & PRESENTATION_FLAGS


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


def test_namespace_for_applies_defaults_and_the_cli_converters() -> None:
    args = namespace_for(
        "benchmark", {"name": "ImageNet", "max_parameters": "1.5B", "minimum_metrics": ["a=1"]}
    )
    assert (
        args.max_parameters == 1_500_000_000
        and args.limit == 20
        and args.minimum_metrics == [("a", 1.0)]
    )
    with pytest.raises(UsageError, match="argument --limit: --limit must be 1-100"):
        namespace_for("search", {"query": "x", "limit": 500})
    with pytest.raises(UsageError, match="unknown option"):
        namespace_for("search", {"query": "x", "bogus": 1})
    with pytest.raises(UsageError, match="--has-official-implementation expects a boolean"):
        namespace_for("search", {"query": "x", "has_official_implementation": "yes"})
    with pytest.raises(UsageError, match="invalid choice"):
        namespace_for("search", {"query": "x", "mode": "fuzzy"})


# --- one converter: tool values go through the command's own parser ----------------------------

# Tool values (keyed by dest, as pwc_mcp.params.to_cli_values makes them) and the argv a CLI
# user would type for the same request.
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
        {"author": ["A", "@b"], "start_date": "2020-01-01", "has_official_implementation": True},
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
            "minimum_metrics": ["Top 1 Accuracy=80", "Params=1"],
            "require_metrics": "Top 1 Accuracy,Params",
            "is_open": "true",
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
        ],
    ),
    (
        "benchmark list",
        {"page_size": 7, "min_eval_count": 2},
        ["--limit", "7", "--min-eval-count", "2"],
    ),
]


@pytest.mark.parametrize(("command", "values", "argv"), SAME_REQUEST)
def test_namespace_for_is_what_the_cli_parses(
    command: str, values: dict[str, object], argv: list[str]
) -> None:
    """Every attribute, default and converted value is the CLI's, subcommand slots included."""
    assert vars(namespace_for(command, values)) == vars(COMMANDS[command].parse_args(argv))


def test_namespace_for_runs_the_parsers_own_checks() -> None:
    """Repeat limits and exclusions live in argparse actions and groups, not in the converters:
    only the real parser applies them."""
    thresholds = [f"m{i}=1" for i in range(9)]
    with pytest.raises(UsageError, match="may be given at most 8 times") as refused:
        namespace_for("benchmark", {"name": "x", "minimum_metrics": thresholds})
    assert isinstance(refused.value, ArgumentError) and refused.value.dest == "minimum_metrics"
    with pytest.raises(UsageError, match="not allowed with argument"):
        namespace_for("task list", {"group_by_area": True, "flat": True})


def test_namespace_for_keeps_flag_like_text_as_values() -> None:
    assert namespace_for("search", {"query": "-x --json"}).query == "-x --json"
    assert namespace_for("search", {"query": "--"}).query == "--"
    args = namespace_for("paper list", {"search": "--json", "task": "-5"})
    assert (args.search, args.task, args.json) == ("--json", "-5", False)
    assert namespace_for("paper list", {"search": "a=b"}).search == "a=b"
    # `--search=--` is text too (argparse before 3.13 dropped it, past the converter)
    args = namespace_for("paper list", {"search": "--", "author": ["--", "A"]})
    assert (args.search, args.author) == ("--", ["--", "A"])
    with pytest.raises(ArgumentError, match="invalid choice: '--'"):
        namespace_for("search", {"query": "x", "mode": "--"})


def test_a_refused_value_names_its_dest() -> None:
    with pytest.raises(ArgumentError) as refused:
        namespace_for("paper info", {"paper": "x" * 501})
    assert refused.value.dest == "paper" and str(refused.value).startswith("argument PAPER: ")
    with pytest.raises(ArgumentError) as refused:
        namespace_for("benchmark list", {"page_size": 0})
    assert refused.value.dest == "page_size"
    assert str(refused.value) == "argument --limit: --limit must be 1-100"


def test_namespace_for_never_shares_a_default_list() -> None:
    first = namespace_for("paper list", {})
    first.author.append("mutated")
    assert namespace_for("paper list", {}).author == []
