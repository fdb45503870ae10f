"""Handlers are pure: the payload never depends on how it will be shown (issue #15).

Every handler runs, against the sample catalog on loopback, with arguments that refuse to be
read where they are presentation (`--json`, the terminal, its width, extra columns): where the
output goes is main.py's and the views' business, never the handler's.
"""

from __future__ import annotations

import argparse
from collections.abc import Iterator
from typing import Any

import pytest

from pwc_core.commands import run
from pwc_core.declarations import COMMANDS, PRESENTATION, RESEARCH_COMMANDS
from pwc_core.declare import arguments
from pwc_core.transport import CatalogClient
from pwc_mcp.params import TOOLS, to_dests, validated
from pwc_mcp.sample import RunningCatalog
from pwc_mcp.site.examples import TOOL_EXAMPLES

# `flat` also guards one usage check (`--area` with `--flat`): it may be read, but it must not
# change a payload (test_flat_changes_no_payload).
UNSEEN = (PRESENTATION - {"flat"}) | {"tty", "width", "screen"}


class Unseen(argparse.Namespace):
    """Arguments whose presentation attributes fail the test when a handler reads them."""

    def __getattribute__(self, name: str) -> Any:
        if name in UNSEEN:
            raise AssertionError(f"a handler read args.{name}: presentation is the view's")
        return super().__getattribute__(name)


def unseen(command: str, values: dict[str, Any]) -> Unseen:
    return Unseen(**vars(arguments(COMMANDS[command], values)))


# Every tool's examples (pwc_mcp.site.examples, the one table) as the handler's values, plus the
# grouped and flat listings whose shape a terminal once chose.
CASES = [
    (TOOLS[tool], to_dests(tool, validated(tool, example)))
    for tool, examples in TOOL_EXAMPLES.items()
    for example in examples
] + [
    ("task list", {}),
    ("task list", {"group_by_area": True}),
    ("benchmark list", {}),
    ("benchmark list", {"group_by_area": True}),
]


@pytest.fixture(scope="module")
def client(sample: RunningCatalog) -> Iterator[CatalogClient]:
    catalog = CatalogClient(sample.url)
    yield catalog
    catalog.close()


def test_every_command_is_covered() -> None:
    assert {command for command, _ in CASES} == set(RESEARCH_COMMANDS)


@pytest.mark.parametrize(("command", "values"), CASES, ids=[c for c, _ in CASES])
def test_no_handler_reads_presentation(
    client: CatalogClient, command: str, values: dict[str, Any]
) -> None:
    assert run(unseen(command, values), client) is not None


def test_the_guard_catches_a_read() -> None:
    args = unseen("task list", {})
    with pytest.raises(AssertionError, match="args.json"):
        getattr(args, "json", None)
    with pytest.raises(AssertionError, match="args.tty"):
        getattr(args, "tty", False)


@pytest.mark.parametrize("command", ["task list", "benchmark list"])
def test_flat_changes_no_payload(client: CatalogClient, command: str) -> None:
    assert run(unseen(command, {"flat": True}), client) == run(unseen(command, {}), client)
