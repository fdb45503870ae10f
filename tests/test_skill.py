"""The agent skill (pwc_core.skill) against the command declarations it is generated from: the
Agent Skills front matter, every research command with every flag, example and tool, the exit
codes of the error classes, the `--json` advice; and no flag it names that pwc lacks."""

from __future__ import annotations

import re

import pytest
import yaml

from pwc_core import errors, skill
from pwc_core.declarations import COMMANDS, OWN_COMMANDS, RESEARCH_COMMANDS

TEXT = skill.markdown()
FRONT, BODY = re.fullmatch(r"---\n(.*?)\n---\n(.*)", TEXT, re.S).groups()  # type: ignore[union-attr]
SECTIONS = {
    m[1]: m[2]
    for m in re.finditer(
        r"^### `pwc (.+?)(?: NAME| [A-Z]+| \[options\])*`\n(.*?)(?=^##|\Z)", BODY, re.S | re.M
    )
}


def test_front_matter_is_an_agent_skill() -> None:
    meta = yaml.safe_load(FRONT)
    assert set(meta) == {"name", "description"}
    assert meta["name"] == skill.NAME == skill.URI.split("/")[2]  # the directory's name
    assert re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", meta["name"]) and len(meta["name"]) <= 64
    assert meta["description"] == skill.SUMMARY and 0 < len(meta["description"]) <= 1024


def test_one_section_per_research_command_and_none_else() -> None:
    assert list(SECTIONS) == list(RESEARCH_COMMANDS)
    assert not set(SECTIONS) & OWN_COMMANDS


@pytest.mark.parametrize("path", RESEARCH_COMMANDS)
def test_a_command_section_holds_its_flags_examples_and_tool(path: str) -> None:
    command, shown = COMMANDS[path], SECTIONS[path]
    assert command.help in shown
    for param in command.cli():
        for flag in param.flags or (param.flag,):
            assert re.search(rf"`{re.escape(flag)}[ `]", shown), (path, flag)
        assert param.help in shown, (path, param.dest)
    examples = re.search(r"```bash\n(.*?)```", shown, re.S)
    assert examples and examples[1].splitlines() == list(command.examples)
    assert f"`{command.tool}`" in shown


def test_the_exit_codes_are_the_error_classes() -> None:
    def classes(cls: type[errors.PwcError]) -> list[type[errors.PwcError]]:
        return [cls, *(c for sub in cls.__subclasses__() for c in classes(sub))]

    raised = {c.exit_code for c in classes(errors.PwcError) if c is not errors.PwcError}
    assert raised | {0} == set(errors.EXIT_CODES)
    codes = BODY.split("## Exit codes", 1)[1].split("## Commands", 1)[0]
    for code, meaning in errors.EXIT_CODES.items():
        assert f"`{code}`: {meaning}" in codes


def test_it_says_when_to_prefer_json() -> None:
    assert "## Output: when to prefer `--json`" in BODY and skill.JSON_ADVICE in BODY
    assert all("--json" in f for p in RESEARCH_COMMANDS for f in [SECTIONS[p]])


def test_every_flag_it_names_exists() -> None:
    declared = {flag for command in COMMANDS.values() for p in command.params for flag in p.flags}
    declared.add("--help")  # argparse's, on every command
    named = set(re.findall(r"(?<![\w-])(--?[a-z][a-z-]*)", TEXT))
    assert named <= declared, named - declared
