"""The README is the manual: every `pwc` example in it runs against the sample catalog, and the
examples its prose names are the table's. Its tool table, counts, figures and text samples are
generated (`make regen`; tests/test_regen.py); the tool examples run in tests/mcp/test_tools.py."""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

import pytest

from pwc_mcp.site.examples import PROMPT_EXAMPLES, RESOURCE_EXAMPLES, TOOL_EXAMPLES
from tests.helpers import ROOT
from tests.helpers.cli import run_cli

README = (ROOT / "README.md").read_text()
CLI_LINES = [
    re.sub(r"\s+#.*$", "", line).split(" > ")[0]
    for line in README.splitlines()
    if line.startswith("pwc ")
]


def test_the_readme_has_examples() -> None:
    assert len(CLI_LINES) >= 15


def test_the_resource_and_prompt_examples_it_names_are_the_tables() -> None:
    uris = re.findall(r"^\| `pwc://.*e\.g\. `(pwc://[^`]+)`", README, re.M)
    assert uris and set(uris) <= set(RESOURCE_EXAMPLES.values())
    prompts = re.findall(r"`(\w+)` with `(\{.*?\})`\.", README)
    assert prompts and all(PROMPT_EXAMPLES[name] == json.loads(a) for name, a in prompts)


def test_the_text_samples_show_an_example_per_tool_family() -> None:
    shown = re.findall(r"<!-- generated: text (\w+) (\d+) -->", README)
    assert {tool for tool, _ in shown} >= {"get_paper_lineage", "get_conference", "get_benchmark"}
    assert all(int(index) < len(TOOL_EXAMPLES[tool]) for tool, index in shown)


@pytest.mark.parametrize("line", CLI_LINES)
def test_cli_example_runs(
    line: str, sample, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)  # an example may write a file (`pwc skills add`)
    result = run_cli(sample.url, shlex.split(line)[1:])
    assert result.code == 0, result.err
    assert result.out
    assert "# no results" not in result.err  # an example shows something
