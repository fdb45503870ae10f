"""`--help` examples are declared with their command (pwc_core/declarations): every parser path,
groups and the root included, has its own, and a command declared without examples is refused."""

from __future__ import annotations

import pytest

from pwc_cli.parser import build_tree
from pwc_core.declarations import EXAMPLES, check
from pwc_core.declare import Command, Group


def test_every_parser_path_declares_its_examples() -> None:
    paths = build_tree().parsers
    assert set(paths) == set(EXAMPLES)
    for path, parser in paths.items():
        shown = (parser.epilog or "").split("examples:\n", 1)[1].split("\n\n", 1)[0]
        assert shown.splitlines() == [f"  {line}" for line in EXAMPLES[path]], path


def test_a_command_without_examples_is_refused() -> None:
    with pytest.raises(ValueError, match="declare its --help examples"):
        Command("widget", "A widget.", (), ())
    with pytest.raises(TypeError):
        Command("gadget", "A gadget.", ())  # type: ignore[call-arg]
    gizmo = Command("gizmo", "A gizmo.", (), ("pwc gizmo",), tool="get_gizmo")
    with pytest.raises(ValueError, match="declared twice"):
        check((gizmo, gizmo))
    with pytest.raises(ValueError, match="a tool is declared by two commands"):
        check((gizmo, Command("gizmo2", "Another.", (), ("pwc gizmo2",), tool="get_gizmo")))
    with pytest.raises(ValueError, match="is not declared before it"):
        check((Command("widget list", "Widgets.", (), ("pwc widget list",)),))
    check((Group("widget", "Widgets.", "widget_command", ("pwc widget list",)), gizmo))
