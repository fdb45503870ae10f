"""Issue #27 item 6, "CLI manners", on the command line: did-you-mean for commands, subcommands,
choices and flags; `pwc benchmark NAME` (and the other entities) beside `--name`; shared flags
before the command; a version line without a tab; a bad PWC_API_URL is a configuration error
(exit 2) before any request. Against the sample catalog on loopback and through main()."""

from __future__ import annotations

import argparse
import io
import shlex

import pytest

from pwc_cli.main import main
from pwc_cli.parser import build_parser, words_of
from pwc_core import __version__
from pwc_mcp.sample import RunningCatalog
from tests.helpers.cli import run_cli

ENTITIES = [
    ("benchmark", "ImageNet"),
    ("task", "image-classification"),
    ("method", "transformer"),
    ("conference", "neurips-2017"),
    ("organization", "google"),
    ("framework", "pytorch"),
]


def errors(argv: str, capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    """(exit code, the error line) of a usage mistake, through main() without a catalog."""
    code = main(shlex.split(argv), client=None)
    return code, capsys.readouterr().err.strip().splitlines()[-1]


# --- did you mean ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("argv", "hint"),
    [
        ("papr", "did you mean 'paper'?"),
        ("serch transformer", "did you mean 'search'?"),
        ("paper inf 1706.03762", "did you mean 'info'?"),
        ("paper lineage lst BERT", "did you mean 'list'?"),
        ("search x --limtt 5", "did you mean --limit?"),
        ("search x --limtt=5", "did you mean --limit?"),
        ("benchmark --name x --max-paramters 1B", "did you mean --max-parameters?"),
        ("paper list --order-by citation_cont", "did you mean 'citation_count'?"),
    ],
)
def test_a_mistyped_command_or_flag_names_the_closest(
    argv: str, hint: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, line = errors(argv, capsys)
    assert code == 2 and f"({hint}" in line, line
    assert line.endswith(f"; run '{line.split(': error: ')[0]} --help'")


@pytest.mark.parametrize("argv", ["frobnicate", "search x --zzz", "organization list --limit 3"])
def test_nothing_alike_suggests_nothing(argv: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, line = errors(argv, capsys)
    assert code == 2 and "did you mean" not in line


# --- NAME beside --name ---------------------------------------------------------------------


@pytest.mark.parametrize(("entity", "name"), ENTITIES)
def test_a_name_may_be_given_without_name_flag(
    sample: RunningCatalog, entity: str, name: str
) -> None:
    flagged = run_cli(sample.url, [entity, "--name", name, "--json"])
    positional = run_cli(sample.url, [entity, name, "--json"])
    assert flagged.code == 0 and (positional.code, positional.out) == (0, flagged.out)
    before = run_cli(sample.url, [entity, "--json", name])  # flags on either side of it
    assert (before.code, before.out) == (0, flagged.out)


def test_list_stays_the_subcommand_and_name_list_is_a_name() -> None:
    parser, _ = build_parser()

    def parsed(*argv: str) -> argparse.Namespace:
        return parser.parse_args(words_of(list(argv))[0])

    listed = parsed("benchmark", "list", "--limit", "7")
    assert (listed.command, listed.page_size) == ("benchmark list", 7)
    named = parsed("benchmark", "--name", "list")
    assert (named.command, named.name) == ("benchmark", "list")
    shown = parsed("benchmark", "COCO test-dev", "--limit", "3", "--sort", "box AP")
    assert (shown.command, shown.name, shown.limit) == ("benchmark", "COCO test-dev", 3)
    assert shown.sort_metric is not None


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        ("benchmark ImageNet extra", "unrecognized arguments: extra"),
        ("benchmark ImageNet extra --limit 5", "unrecognized arguments: extra;"),
        ("benchmark --name x ImageNet", "unrecognized arguments: ImageNet"),
        ("benchmark ImageNet --name x", "the name is given twice"),
        ("task image-classification list", "unexpected argument 'list'"),
    ],
)
def test_one_name_only(argv: str, said: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, line = errors(argv, capsys)
    assert code == 2 and said in line, line


def test_usage_and_help_show_the_name(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["benchmark", "ImageNet", "--limit", "0"], client=None) == 2
    assert capsys.readouterr().err.startswith("usage: pwc benchmark [options] [NAME | list ...]\n")
    with pytest.raises(SystemExit):
        build_parser()[0].parse_args(["task", "--help"])
    shown = capsys.readouterr().out
    assert "NAME | list ..." in shown and "NAME" in shown.split("positional arguments:")[1]


# --- shared flags before the command --------------------------------------------------------


@pytest.mark.parametrize(
    ("before", "after"),
    [
        ("--json search transformer --limit 2", "search transformer --limit 2 --json"),
        ("--json paper info 1706.03762", "paper info 1706.03762 --json"),
        ("paper --json evaluations 1706.03762", "paper evaluations 1706.03762 --json"),
        ("--json task list --limit 2", "task list --limit 2 --json"),
        ("task --json list --limit 2", "task list --limit 2 --json"),
        ("--json search -- --limit", "search --json -- --limit"),
    ],
)
def test_shared_flags_before_the_command_mean_the_same(
    sample: RunningCatalog, before: str, after: str
) -> None:
    first, last = (run_cli(sample.url, shlex.split(line)) for line in (before, after))
    assert first.out.startswith('{"schema_version":"v1"')
    assert (first.code, first.out, first.err) == (last.code, last.out, last.err)


# --- version, configuration -----------------------------------------------------------------


def test_the_version_is_one_clean_line(capsys: pytest.CaptureFixture[str]) -> None:
    out = io.StringIO()
    assert main(["version"], stdout=out) == 0
    with pytest.raises(SystemExit):
        build_parser()[0].parse_args(["--version"])
    assert out.getvalue() == capsys.readouterr().out == f"pwc {__version__} (API v1)\n"


@pytest.mark.parametrize("url", ["ftp://x", "http://", "catalog.example/api/v1", "https://[::1"])
def test_a_bad_api_url_is_a_configuration_error(url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PWC_API_URL", url)
    out, err = io.StringIO(), io.StringIO()
    assert main(["search", "x"], stdout=out, stderr=err) == 2
    assert out.getvalue() == ""
    assert err.getvalue().startswith("pwc: PWC_API_URL must be an http:// or https:// URL")
    assert err.getvalue().count("\n") == 1
    assert main(["version"], stdout=out) == 0  # no catalog needed, so no address checked


def test_a_good_api_url_is_used(sample: RunningCatalog, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PWC_API_URL", sample.url + "/")
    out = io.StringIO()
    assert main(["search", "transformer", "--limit", "1", "--json"], stdout=out) == 0
    assert out.getvalue().startswith('{"schema_version":"v1"')
