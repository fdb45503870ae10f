"""One declaration per setting drives parsing and the README's configuration table."""

from __future__ import annotations

import ast
import dataclasses
import re

import pytest

from pwc_mcp import cli
from pwc_mcp.config import READ_ELSEWHERE, SETTINGS, ConfigError, Settings, configuration_table
from tests.helpers import PACKAGES, ROOT

# Fields that code sets, never the environment.
NOT_FROM_ENV = {
    "catalog_timeout",
    "cursor_key_ephemeral",
    "max_request_bytes",
    "max_response_bytes",
}


def readme_table() -> list[str]:
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    start = lines.index("## Configuration")
    table = []
    for line in lines[start + 1 :]:
        if line.startswith("|"):
            table.append(line)
        elif table:
            break
    return table


def test_the_readme_configuration_table_is_the_rendered_one() -> None:
    rendered = configuration_table()
    assert readme_table() == rendered.splitlines(), f"paste into README.md:\n{rendered}"


def test_every_field_the_environment_sets_is_declared_once() -> None:
    declared = [s.field for s in SETTINGS]
    assert len(declared) == len(set(declared))
    fields = {f.name for f in dataclasses.fields(Settings)}
    assert set(declared) == fields - NOT_FROM_ENV
    names = [s.env for s in SETTINGS] + [d.env for d in READ_ELSEWHERE]
    assert len(names) == len(set(names))


def test_every_variable_the_packages_name_is_documented() -> None:
    documented = {s.env for s in SETTINGS} | {d.env for d in READ_ELSEWHERE}
    named = {
        node.value
        for package in PACKAGES
        for path in ROOT.glob(f"{package}/**/*.py")
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and re.fullmatch(r"PWC_[A-Z0-9_]+", node.value)
    }
    assert {"PWC_API_URL", cli.SAMPLE_PORT_ENV} <= named
    assert named <= documented, named - documented


@pytest.mark.parametrize("setting", [s for s in SETTINGS if s.shown is None], ids=lambda s: s.env)
def test_the_documented_default_set_explicitly_is_the_default(setting) -> None:
    text = setting.default_text()
    if text == "none":
        return
    settings = Settings.from_env({setting.env: text.strip("`")})
    assert getattr(settings, setting.field) == getattr(Settings(), setting.field)


@pytest.mark.parametrize(
    ("name", "value", "message"),
    [
        ("PORT", "²", "PORT must be an integer between 0 and 65535"),
        (
            "PWC_MCP_REQUEST_LIMIT",
            "¹⁰",
            "PWC_MCP_REQUEST_LIMIT must be an integer between 1 and 10000",
        ),
    ],
)
def test_a_digit_that_is_not_a_number_is_a_config_error(
    name: str, value: str, message: str
) -> None:
    """str.isdigit() accepts superscripts that int() refuses: one line, never a traceback."""
    with pytest.raises(ConfigError) as info:
        Settings.from_env({name: value})
    assert info.value.problems == [message]
