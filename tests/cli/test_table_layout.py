"""A terminal table that cannot misread (issue #36): `pwc` run in a real pseudo-terminal of 80,
100 and 120 columns against the sample catalog keeps every metric's name and value whole (the
primary metric first), cuts no score, and says a column that is the same on every row once
above the table instead of repeating it. The expectations come from the same command's --json.
"""

from __future__ import annotations

import fcntl
import json
import os
import pty
import re
import struct
import subprocess
import sys
import termios

import pytest

from pwc_cli.columns import Parts, fit, folded, said_once
from pwc_cli.terminal import display_width

WIDTHS = (80, 100, 120)
LINE = ["benchmark", "--name", "ImageNet", "--limit", "12"]
RANKED = re.compile(r"^\s*(\d+)\s{2}")


def in_pty(url: str, argv: list[str], width: int) -> str:
    """What `pwc argv` prints on a pseudo-terminal `width` columns wide (its own size detection:
    no COLUMNS in the environment)."""
    leader, follower = pty.openpty()
    fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 40, width, 0, 0))
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}
    env["PWC_API_URL"] = url
    code = "import sys; from pwc_cli.main import main; sys.exit(main())"
    process = subprocess.Popen(
        [sys.executable, "-c", code, *argv], stdin=follower, stdout=follower, env=env
    )
    os.close(follower)
    chunks = []
    while True:
        try:
            chunk = os.read(leader, 65536)
        except OSError:  # the terminal closes when the process ends
            break
        if not chunk:
            break
        chunks.append(chunk)
    os.close(leader)
    assert process.wait(timeout=120) == 0
    return b"".join(chunks).decode().replace("\r\n", "\n")


def piped(url: str, argv: list[str]) -> dict:
    env = {**os.environ, "PWC_API_URL": url}
    code = "import sys; from pwc_cli.main import main; sys.exit(main())"
    done = subprocess.run(
        [sys.executable, "-c", code, *argv, "--json"], env=env, capture_output=True, check=True
    )
    return json.loads(done.stdout)["data"]


def value_texts(value: object) -> set[str]:
    """How a metric's value may be written: as given, or an integral float without `.0`."""
    if isinstance(value, float) and value.is_integer():
        return {str(value), str(int(value))}
    return {str(value)}


def row_blocks(table: list[str]) -> list[list[str]]:
    """A table's lines (header first) grouped into rows: a row starts with its rank."""
    blocks: list[list[str]] = []
    for line in table[1:]:
        if RANKED.match(line):
            blocks.append([line])
        elif blocks:
            blocks[-1].append(line)
    return blocks


@pytest.fixture(scope="module")
def leaderboard(sample) -> dict:
    return piped(sample.url, LINE)


@pytest.mark.parametrize("width", WIDTHS)
def test_every_score_is_whole_and_the_primary_first(sample, leaderboard, width: int) -> None:
    shown = in_pty(sample.url, LINE, width)
    lines = shown.splitlines()
    assert all(display_width(line) <= width for line in lines), shown
    header = next(i for i, line in enumerate(lines) if line.startswith("Rank"))
    table = lines[header:]
    start = table[0].index("Scores")
    end = table[0].index(table[0][start:].split()[1], start)  # the next header
    blocks = row_blocks(table)
    main_rows = [r for r in leaderboard["results"] if r["rank_scopes"][0]["task_id"] == "12"]
    assert len(blocks) >= len(main_rows)
    primary = next(s for s in leaderboard["task_scopes"] if s["main"])["primary_metric"]
    for row, block in zip(main_rows, blocks, strict=False):
        column = [line[start:end] for line in block]
        assert not any("…" in cell for cell in column), block  # no score is cut
        said = " ".join(cell.strip() for cell in column)
        metrics = {k: v for k, v in row["metrics"].items() if v is not None}
        for name, value in metrics.items():
            assert any(f"{name}: {text}" in said for text in value_texts(value)), (name, block)
        if primary in metrics:
            assert said.startswith(f"{primary}: "), block
    # EfficientNet-B7's top-5 score reads as its own, named in full
    b7 = next(
        b for r, b in zip(main_rows, blocks, strict=False) if r["model_name"] == "EfficientNet-B7"
    )
    assert "Top 5 Accuracy: 97" in " ".join(line[start:end].strip() for line in b7)


@pytest.mark.parametrize("width", WIDTHS)
def test_a_column_the_same_on_every_row_is_said_once(sample, leaderboard, width: int) -> None:
    shown = in_pty(sample.url, LINE, width)
    before, table = shown.split("\nRank", 1)
    tasks = {r["rank_scopes"][0]["task_name"] for r in leaderboard["results"]}
    main = next(s for s in leaderboard["task_scopes"] if s["main"])["task_name"]
    assert len(tasks) == 1 and before.splitlines()[-1] == f"Task: {main}"
    header = table.splitlines()[0].split()
    assert "Task" not in header and main not in table
    opened = {r["is_open"] is not False for r in leaderboard["results"]}
    assert ("Open" in header) == (len(opened) > 1)  # this page has a closed row: kept


def test_parts_fold_between_parts_and_a_pipe_sees_the_joined_text() -> None:
    cell = Parts(["Top 1 Accuracy: 84.3", "GFLOPs: 37", "Top 5 Accuracy: 97"])
    assert cell == "Top 1 Accuracy: 84.3, GFLOPs: 37, Top 5 Accuracy: 97"
    assert folded(cell.parts, 34) == ["Top 1 Accuracy: 84.3, GFLOPs: 37,", "Top 5 Accuracy: 97"]
    assert folded(cell.parts, 10) == ["Top 1 Accuracy: 84.3,", "GFLOPs: 37,", "Top 5 Accuracy: 97"]
    assert Parts([]) == "—" and Parts([]).parts == ("—",)


def test_fit_cuts_prose_before_a_whole_column_and_never_below_its_widest_part() -> None:
    headers = ["Model", "Scores", "Paper"]
    natural, cells = [30, 52, 80], [30, 52, 80]
    widths = fit(headers, natural, cells, 80, whole=[0, 22, 0])
    assert widths[2] == 6 and widths[1] >= 22 and sum(widths) + 4 == 80
    assert fit(headers, natural, cells, 40, whole=[0, 22, 0])[1] == 22  # overflows instead


def test_said_once_needs_three_rows_and_leaves_a_column() -> None:
    assert said_once(["a", "b"], [["x", "1"], ["x", "2"], ["x", "3"]]) == [0]
    assert said_once(["a", "b"], [["x", "1"], ["x", "2"]]) == []
    assert said_once(["a", "b"], [["x", "1"]] * 3) == []
