"""The text carries what the payload has (issue #36): over every example call of every tool
(pwc_mcp/site/examples.py) against the sample catalog, through a real MCP client, each name,
count and date of `data` appears in the text, or the text says how many rows it left out.

The facts are read from `data` by key, with no knowledge of how the text is written: a name is
the value of a naming key (`name`, `title`, `model_name`, ...) or an author, a count an integer
under a `count` key, a date a value that starts `YYYY-MM-DD`. A row of a list whose facts are all
missing from the text counts as left out, and the text must then say `N more` for that list; a
row that is shown must show each of its facts. The exceptions below are facts that answer no
plausible question or are said otherwise, each with its reason.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterator
from typing import Any

import pytest
from fastmcp import Client

from pwc_mcp.site.examples import TOOL_EXAMPLES

pytestmark = pytest.mark.anyio

EXAMPLES = [(tool, i) for tool, examples in TOOL_EXAMPLES.items() for i in range(len(examples))]
NAMES = {"name", "title", "model_name", "full_name", "paper_title", "task_name", "dataset_name"}
DATE = re.compile(r"^\d{4}-\d{2}-\d{2}")
SHOWN = 40  # characters of a name looked for: the texts clip long names, never this short

PAPER_LISTS = ("search_papers", "list_papers", "list_recent_papers", "list_trending_papers")
GROUPED = ("list_tasks", "list_benchmarks")
# (tool, or "*" for all; a pattern of a fact's path and key) -> why the text need not carry it
EXCEPTIONS: dict[tuple[str, str], str] = {
    ("*", r"\.(created_at|updated_at)$"): "when the catalog edited a record: bookkeeping",
    ("*", r"^data\.applied_filters\."): "the caller's own arguments, echoed",
    **{
        (tool, r"^data(\.results)?\[\d+\]\.authors$"): "a list row names its paper by title, "
        "ID and date; its authors are get_paper_info's (bounded there)"
        for tool in (*PAPER_LISTS, "get_related_papers")
    },
    ("get_task", r"^data\.papers\[\d+\]\.(authors|methods)"): "a task lists its papers by "
    "title, ID, date and counts; a paper's authors and methods are get_paper_info's",
    ("get_benchmark", r"^data\.results\[\d+\]\.paper_title$"): "a leaderboard row names its "
    "paper by arXiv ID and date (by title only without one): a row's line stays one line",
    ("get_benchmark", r"^data\.benchmark\."): "the benchmark's record (full name, counts) is "
    "list_benchmarks' and get_task's answer; a leaderboard counts its rows",
    **{
        (tool, r"^data\.results\[\d+\]\.(name|tasks\[\d+\]\.paper_count)$"): "a group "
        "heading (an area, a task over benchmarks) titles the rows below it; a group without "
        "rows has none to show"
        for tool in GROUPED
    },
}


def excepted(tool: str, fact: str) -> bool:
    return any(who in (tool, "*") and re.search(pattern, fact) for who, pattern in EXCEPTIONS)


def facts(node: Any, path: str = "data") -> Iterator[tuple[str, str, str, str]]:
    """(path of the row holding it, key, kind, value as looked for) of every fact below `node`."""
    items = node.items() if isinstance(node, dict) else enumerate(node)
    for key, value in items:
        where = f"{path}[{key}]" if isinstance(node, list) else path
        if isinstance(value, dict | list):
            yield from facts(value, f"{path}.{key}" if isinstance(node, dict) else where)
        elif isinstance(node, list) and isinstance(value, str) and path.endswith(".authors"):
            yield path.rsplit(".", 1)[0], "authors", "name", value
        elif isinstance(key, str) and isinstance(value, str) and key in NAMES and value.strip():
            yield where, key, "name", " ".join(value.split())[:SHOWN]
        elif isinstance(key, str) and (key == "count" or key.endswith("_count")):
            if isinstance(value, int) and not isinstance(value, bool):
                yield where, key, "count", str(value)
        elif isinstance(value, str) and DATE.match(value):
            yield where, str(key), "date", value[:10]


def present(kind: str, value: str, text: str) -> bool:
    if kind == "count":  # as a whole number, with or without thousands separators
        plain = int(value)
        return any(
            re.search(rf"(?<![\d.,]){re.escape(f)}(?![\d]|\.\d)", text)
            for f in (str(plain), f"{plain:,}")
        )
    return value in text


def row_of(path: str) -> tuple[str, str] | None:
    """(the list, the row's index) when `path` is a row of a list."""
    found = re.fullmatch(r"(.*)\[(\d+)\]", path)
    return (found.group(1), found.group(2)) if found else None


def missing(tool: str, data: Any, text: str, cited: bool = False) -> list[str]:
    """What the text lacks; with `cited` (a `cite` answer: the text is the entry, ready to
    paste, in its format's own spelling of names and title) only the date, which the entry
    holds as a year alone."""
    by_row: dict[str, list[tuple[str, str, str, bool]]] = defaultdict(list)
    for path, key, kind, value in facts(data):
        if excepted(tool, f"{path}.{key}") or (cited and f"{path}.{key}" != "data.published"):
            continue
        by_row[path].append((key, kind, value, present(kind, value, text)))
    wrong: list[str] = []
    left_out: dict[str, int] = defaultdict(int)
    for path, found in by_row.items():
        row = row_of(path)
        if row is not None and not any(seen for *_, seen in found):
            left_out[row[0]] += 1
            continue
        wrong += [
            f"{path}.{key} ({kind}) {value!r}" for key, kind, value, seen in found if not seen
        ]
    for listed, count in left_out.items():
        if not re.search(rf"\b{count:,} (?:more|later)\b", text):
            wrong.append(f"{listed}: {count} rows left out and not counted")
    return wrong


@pytest.mark.parametrize(("tool", "index"), EXAMPLES, ids=[f"{t}-{i}" for t, i in EXAMPLES])
async def test_the_text_carries_every_name_count_and_date_of_data(
    cached_client: Client, tool: str, index: int
) -> None:
    result = await cached_client.call_tool_mcp(tool, TOOL_EXAMPLES[tool][index])
    assert not result.is_error
    text = result.content[0].text
    structured = result.structured_content
    wrong = missing(tool, structured["data"], text, cited="citation" in structured)
    assert not wrong, "\n".join(wrong[:40]) + f"\n--- text:\n{text[:3000]}"
