"""Tri-state flags in words (issue #36): a row's openness and its use of extra training data are
said when the catalog knows them ("open" / "closed", "extra training data" / "no extra training
data") and not at all when it does not, so an unknown never reads as either. Checked over a
whole board whose rows take every combination, against what each row of `data` says, in the
tool's text (through a real MCP client) and in the CLI's table (both on a loopback catalog)."""

from __future__ import annotations

from itertools import product
from typing import Any

import pytest
from fastmcp import Client

from tests.helpers.boards import Scope, rows_of, serve
from tests.helpers.cli import run_cli
from tests.helpers.mcp import Answers, call

pytestmark = pytest.mark.anyio

STATES = list(product([True, False, None], repeat=2))  # (is_open, uses_additional_data)
SCOPE = Scope("1", "Accuracy", False, [50.0 + i for i in range(len(STATES) * 2)])
ROWS = [
    {**row, "is_open": STATES[i % 9][0], "uses_additional_data": STATES[i % 9][1]}
    for i, row in enumerate(rows_of([SCOPE]))
]


def read(parts: list[str]) -> tuple[bool | None, bool | None]:
    """What a row's words say of the two flags, read as a model would: by the words alone."""
    opened = True if "open" in parts else False if "closed" in parts else None
    extra = True if "extra training data" in parts else None
    extra = False if "no extra training data" in parts else extra
    return opened, extra


def said(line: str) -> tuple[bool | None, bool | None]:
    return read(line.split(": ", 1)[1].split(" · "))


async def test_the_text_says_each_known_flag_and_nothing_of_an_unknown(
    hostile: tuple[Client, Answers],
) -> None:
    client, answers = hostile
    serve(answers.by_path, ROWS)
    result, text = await call(client, "get_benchmark", benchmark="Bench", limit=25)
    rows = result["data"]["results"]
    assert len(rows) == len(ROWS), "the whole board on one page"
    lines = [line for line in text.splitlines() if line.startswith("- ")]
    flags = [(row["is_open"], row["uses_additional_data"]) for row in rows]
    assert [said(line) for line in lines] == flags
    assert set(flags) == set(STATES), "every combination is read"


def test_the_cli_table_says_each_known_flag_and_nothing_of_an_unknown(
    upstream: tuple[str, Answers],
) -> None:
    url, answers = upstream
    answers.by_path.clear()
    serve(answers.by_path, ROWS)
    data = run_cli(url, ["benchmark", "--name", "Bench", "--limit", "25", "--json"]).data
    markdown = run_cli(url, ["benchmark", "--name", "Bench", "--limit", "25"]).out
    body = [line for line in markdown.splitlines() if line.startswith("| ")][2:]
    cells: list[list[str]] = [[c.strip() for c in line.strip("|").split(" | ")] for line in body]
    headers = [c.strip() for c in markdown.split("\n| ", 1)[1].split("\n")[0].strip("|").split("|")]
    model, opened = headers.index("Model"), headers.index("Open")
    expected: list[Any] = []
    seen: list[Any] = []
    for row, cell in zip(data["results"], cells, strict=True):
        expected.append((row["is_open"], row["uses_additional_data"]))
        seen.append(read([cell[opened], *cell[model].split(" · ")]))
    assert seen == expected
    assert {cell[opened] for cell in cells} == {"open", "closed", "—"}
