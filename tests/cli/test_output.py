"""Output as documented, through `main()`: TSV whenever stdout is captured, aligned tables that
fit the terminal's width, no Markdown markers in a terminal, the same rows in both, empty
results said on stderr, terminal-safe text, and `--help` ending with runnable examples."""

from __future__ import annotations

import shlex
from pathlib import Path

import pytest

from pwc_cli.main import main
from pwc_cli.parser import build_parser
from pwc_cli.terminal import display_width, fit_widths, truncate
from pwc_core.declarations import EXAMPLES
from pwc_core.text import neutralise
from tests.helpers.cli import run_cli

TABLES = [
    "search transformer",
    "paper list --task image-classification",
    "paper recent",
    "paper trending",
    "paper related 2010.11929",
    "paper evaluations 1706.03762",
    "task list",
    "method list",
    "conference list",
    "organization list",
    "framework list",
    "benchmark list",
    "benchmark list --task image-classification",
]
DETAILS = [
    "paper info 1706.03762 --include-resources --include-evals",
    "paper info 2501.12948",
    "paper lineage list BERT",
    "task --name image-classification",
    "task list --group-by-area",
    "method --name transformer",
    "conference --name neurips-2017",
    "organization --name google",
    "framework --name pytorch",
    "benchmark --name ImageNet --limit 5",
    "benchmark list --group-by-area",
]
MARKDOWN = ("## ", "# ", "**", "](", "| ---", "`")


def run(sample, line: str, *, tty: bool = False, width: int = 100) -> tuple[int, str, str]:
    result = run_cli(sample.url, shlex.split(line), tty=tty, width=width)
    return result.code, result.out, result.err


@pytest.mark.parametrize("line", TABLES)
def test_tables_are_tsv_when_piped_and_fit_the_terminal(sample, line: str) -> None:
    code, piped, _ = run(sample, line)
    assert code == 0
    rows = [r.split("\t") for r in piped.splitlines()]
    assert len(rows) > 1 and len({len(r) for r in rows}) == 1  # header + rows, one shape
    assert all(cell == cell.strip() for row in rows for cell in row)  # no padding
    code, shown, _ = run(sample, line, tty=True, width=80)
    lines = shown.splitlines()
    assert code == 0 and "\t" not in shown
    assert all(display_width(x) <= 80 for x in lines), shown  # truncated, never wrapped
    # a column alike on every one of three or more rows is said once above the table
    alike = [
        h for i, h in enumerate(rows[0]) if len(rows) > 3 and len({r[i] for r in rows[1:]}) == 1
    ]
    first = next(h for h in rows[0] if h not in alike)
    start = next(i for i, x in enumerate(lines) if x.lstrip().startswith(first + " "))
    assert [h for h in alike if not any(x.startswith(h + ": ") for x in lines[:start])] == []
    assert len(lines) - start == len(rows)  # the same rows, only presented differently


@pytest.mark.parametrize("line", DETAILS)
def test_no_markdown_markers_in_a_terminal(sample, line: str) -> None:
    code, shown, _ = run(sample, line, tty=True, width=120)
    assert code == 0 and shown
    for marker in MARKDOWN:
        assert not any(x.startswith(marker) or f" {marker}" in x for x in shown.splitlines()), (
            marker,
            shown,
        )
    assert run(sample, line)[1] != shown  # captured, the detail view is Markdown


def test_wide_leaderboard_fits_a_narrow_terminal(sample) -> None:
    # 70: no score is cut (tests/cli/test_table_layout.py), so the narrowest this table takes
    # is its widest score beside the other columns at their minimum
    _, shown, _ = run(sample, "benchmark --name ImageNet --limit 5", tty=True, width=70)
    table = shown.split("Rank", 1)[1]
    assert all(display_width(x) <= 70 for x in table.splitlines())
    assert "…" in table  # long cells are cut, full values stay in --json or a pipe
    assert "…" not in run(sample, "benchmark --name ImageNet --limit 5")[1]


def test_empty_result_is_said_on_stderr(sample) -> None:
    line = "paper trending --max-age-days 30 --min-velocity 1"
    code, piped, err = run(sample, line)
    assert (code, piped, err) == (
        0,
        "id\ttitle\tyear\tcitations\n",  # TSV keeps its header
        "# no results; try a larger --max-age-days or a lower --min-velocity\n",
    )
    code, shown, err = run(sample, line, tty=True)
    assert (code, shown) == (0, "") and err.startswith("# no results")
    assert run(sample, line + " --json")[2] == ""  # JSON carries the empty list itself


@pytest.mark.parametrize(
    ("line", "note"),
    [
        ("search transformer --page 100", "# no results on page 100"),
        ("task list --search zzzz-nothing", "# no results; try other --search words"),
        ("benchmark list --search zzzz-nothing", "# no results; try other --search words"),
        ("conference list --year 1901", "# no results; try another --year"),
        ('benchmark --name ImageNet --min "Top 1 Accuracy=101"', "# no results; loosen --min"),
    ],
)
def test_empty_results_have_a_note(sample, line: str, note: str) -> None:
    code, _, err = run(sample, line)
    assert code == 0 and err.startswith(note), err


HOSTILE = "\x1b]0;owned\x07\x1b[2JEvil\x9b31m title\x00\r"


def test_control_characters_are_neutralised_but_json_stays_exact(pwc, api) -> None:
    row = {"id": "1", "arxiv_id": "2101.00001", "title": HOSTILE, "citation_count": 1}
    api.get("/papers/search").respond(json={"count": 1, "results": [row]})
    api.get("/papers/2101.00001").respond(json=row | {"abstract": HOSTILE})
    for result in (
        pwc("search", "x"),
        pwc("search", "x", tty=True),
        pwc("paper", "info", "2101.00001"),
        pwc("paper", "info", "2101.00001", tty=True),
    ):
        assert result.code == 0
        assert "Evil title" in result.out
        assert not any(c in result.out for c in "\x1b\x07\x9b\x00\r")
    assert pwc("search", "x", "--json").data["results"][0]["title"] == HOSTILE


def test_error_messages_are_neutralised(pwc, api) -> None:
    api.get("/tasks/").respond(json={"count": 0, "results": []})
    result = pwc("task", "--name", "x\x1b[2Jy")
    assert result.code == 4 and result.err == "pwc: Task not found: xy\n"


def test_neutralise_and_fit() -> None:
    assert neutralise("a\x1b[31mb\x1b]8;;http://x\x1b\\c\x9d0;t\x9cd\te\n") == "abcd\te\n"
    assert neutralise("plain") == "plain" and neutralise("a\r\nb") == "a\nb"
    assert truncate("abcdef", 4) == "abc…" and truncate("ab", 4) == "ab"
    assert display_width("漢字") == 4 and truncate("漢字漢字", 5) == "漢字…"
    assert fit_widths([3, 50, 40], 40) == [3, 17, 16]  # the narrow column keeps its width
    assert fit_widths([3, 4], 40) == [3, 4]


def help_text(path: str, capsys: pytest.CaptureFixture[str]) -> str:
    assert main([*path.split(), "--help"]) == 0
    return capsys.readouterr().out


@pytest.mark.parametrize("path", sorted(EXAMPLES))
def test_help_ends_with_examples_and_the_catalog_address(
    path: str, capsys: pytest.CaptureFixture[str]
) -> None:
    text = help_text(path, capsys)
    assert "examples:\n" in text and "$PWC_API_URL" in text
    shown = text.split("examples:\n", 1)[1]
    assert [line.strip() for line in shown.splitlines()[: len(EXAMPLES[path])]] == list(
        EXAMPLES[path]
    )
    assert 2 <= len(EXAMPLES[path]) <= 3 or path == "version"


def test_every_parser_has_examples() -> None:
    _, commands = build_parser()
    assert set(commands) <= set(EXAMPLES)


@pytest.mark.parametrize("example", sorted({e for examples in EXAMPLES.values() for e in examples}))
def test_help_example_runs(
    sample, example: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)  # an example may write a file (`--chart ptb.svg`)
    code, out, err = run(sample, example.split(" > ")[0].removeprefix("pwc "))
    assert code == 0 and out, err
