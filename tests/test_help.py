"""`--help` examples are declared with their command (pwc_cli/parsers): every parser path, groups
and the root included, has its own, and a command declared without examples is refused."""

from __future__ import annotations

import argparse

import pytest

from pwc_cli.argparsing import PwcParser
from pwc_cli.parser import EXAMPLES, build_parser
from pwc_cli.parsers import Builder


def parser_paths() -> dict[str, argparse.ArgumentParser]:
    """Every parser of the real tree by path ("" is the root), found by walking it."""
    root, _ = build_parser()
    found: dict[str, argparse.ArgumentParser] = {}

    def walk(parser: argparse.ArgumentParser, path: str) -> None:
        found[path] = parser
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for name, sub in action.choices.items():
                    walk(sub, f"{path} {name}".strip())

    walk(root, "")
    return found


def test_every_parser_path_declares_its_examples() -> None:
    paths = parser_paths()
    assert set(paths) == set(EXAMPLES)
    for path, parser in paths.items():
        shown = (parser.epilog or "").split("examples:\n", 1)[1].split("\n\n", 1)[0]
        assert shown.splitlines() == [f"  {line}" for line in EXAMPLES[path]], path


def test_a_command_without_examples_is_refused() -> None:
    b = Builder(PwcParser)
    top = PwcParser(prog="pwc").add_subparsers(parser_class=PwcParser)
    with pytest.raises(ValueError, match="at least one example"):
        b.leaf(top, "widget", "widget", "A widget.", examples=())
    with pytest.raises(TypeError):
        b.leaf(top, "gadget", "gadget", "A gadget.")  # type: ignore[call-arg]
    b.leaf(top, "gizmo", "gizmo", "A gizmo.", examples=("pwc gizmo",))
    with pytest.raises(ValueError, match="declared twice"):
        b.leaf(top, "gizmo2", "gizmo", "Another gizmo.", examples=("pwc gizmo",))
