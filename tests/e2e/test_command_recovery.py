"""Recovery everywhere (issue #36 item 8), commands: a command one word short (`pwc paper
lineage BERT`) suggests the full command (`pwc paper lineage list BERT`), decided from the
declarations, before any request to the sample catalog on loopback; the suggestion runs."""

from __future__ import annotations

import shlex
from collections.abc import Callable

import pytest

from pwc_core.declarations import DECLARED
from pwc_core.declare import Command, Group
from pwc_mcp.sample import RunningCatalog
from tests.helpers.cli import run_cli


@pytest.fixture
def usage_error(
    sample: RunningCatalog, capsys: pytest.CaptureFixture[str]
) -> Callable[[list[str]], str]:
    """The error line of a usage error (argparse's, on stderr), said before any request."""

    def said(argv: list[str]) -> str:
        capsys.readouterr()
        sample.stats.reset()
        result = run_cli(sample.url, argv)
        assert (result.code, result.out, sample.stats.requests) == (2, "", {})
        return capsys.readouterr().err.splitlines()[-1]

    return said


@pytest.mark.parametrize(
    ("argv", "meant"),
    [
        (["paper", "lineage", "BERT"], "pwc paper lineage list BERT"),
        (["--json", "paper", "lineage", "BERT"], "pwc paper lineage list BERT --json"),
        (
            ["paper", "lineage", "Attention Is All You Need", "--json"],
            "pwc paper lineage list 'Attention Is All You Need' --json",
        ),
    ],
)
def test_a_command_one_word_short_suggests_the_full_command(
    sample: RunningCatalog, usage_error: Callable[[list[str]], str], argv: list[str], meant: str
) -> None:
    said = usage_error(argv)
    assert said == (
        f"pwc paper lineage: error: unexpected argument {argv[-2 if argv[-1] == '--json' else -1]!r}"
        f" (did you mean {meant!r}? expected one of: 'list'); run 'pwc paper lineage --help'"
    )
    result = run_cli(sample.url, shlex.split(meant)[1:])  # the suggestion works as given
    assert result.code == 0, result.err


@pytest.mark.parametrize(
    "argv",
    [
        ["paper", "BERT"],  # four subcommands take a paper: none is the one meant
        ["frobnicate"],  # nor at the top, where search and every entity take a word
        ["paper", "lineage", "lst", "BERT"],  # a misspelt subcommand: argparse names it
        ["paper", "lineage", "BERT", "GPT"],  # `list` takes one paper, not two
    ],
)
def test_no_full_command_is_guessed(
    usage_error: Callable[[list[str]], str], argv: list[str]
) -> None:
    assert "did you mean 'pwc " not in usage_error(argv)


def test_every_group_one_word_short_is_said_from_the_declarations(
    usage_error: Callable[[list[str]], str],
) -> None:
    """Each command group whose only value-taking subcommand takes one value suggests it."""
    for group in {d.path for d in DECLARED if isinstance(d, Group)}:
        takers = [
            c.path
            for c in DECLARED
            if isinstance(c, Command)
            and c.path.rpartition(" ")[0] == group
            and (c.entity or [p for p in c.cli() if p.positional])
        ]
        said = usage_error([*group.split(), "BERT"])
        if len(takers) == 1:
            assert f"did you mean 'pwc {takers[0]} BERT'?" in said, said
        else:
            assert "did you mean" not in said, said
