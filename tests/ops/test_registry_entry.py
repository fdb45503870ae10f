"""deploy/registry/server.json, the MCP Registry entry: valid against the registry's documented
format (deploy/registry/server.schema.json), remote-only at the hosted endpoint, and versioned as
the package is (`make regen` writes it; tests/test_regen.py keeps it current)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from jsonschema import Draft7Validator

from pwc_mcp import __version__
from pwc_mcp.site import server_card
from pwc_mcp.site.connect import HOSTED_ENDPOINT
from tests.helpers.ops import ROOT

REGISTRY = ROOT / "deploy" / "registry"


@pytest.fixture(scope="module")
def validator() -> Draft7Validator:
    schema = json.loads((REGISTRY / "server.schema.json").read_text(encoding="utf-8"))
    Draft7Validator.check_schema(schema)
    return Draft7Validator(schema)


@pytest.fixture(scope="module")
def entry() -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads((REGISTRY / "server.json").read_text(encoding="utf-8"))
    return loaded


def problems(validator: Draft7Validator, document: dict[str, Any]) -> list[str]:
    return [error.message for error in validator.iter_errors(document)]


def test_the_entry_is_valid(validator: Draft7Validator, entry: dict[str, Any]) -> None:
    assert problems(validator, entry) == []


def test_the_entry_is_the_hosted_remote_in_the_namespace_of_its_domain(
    entry: dict[str, Any],
) -> None:
    assert entry["$schema"] == server_card.REGISTRY_SCHEMA
    assert entry["remotes"] == [{"type": "streamable-http", "url": HOSTED_ENDPOINT}]
    assert "packages" not in entry, "remote-only: nothing to install"
    # DNS ownership of paperswithcode.co proves the co.paperswithcode namespace.
    assert entry["name"].startswith(f"{server_card.NAMESPACE}/")
    assert ".".join(reversed(server_card.NAMESPACE.split("."))) in HOSTED_ENDPOINT


def test_the_entry_carries_the_package_version(entry: dict[str, Any]) -> None:
    assert entry["version"] == __version__


@pytest.mark.parametrize(
    ("change", "why"),
    [
        ({"name": "paperswithcode"}, "a name without its namespace"),
        ({"name": "co.paperswithcode/pwc/extra"}, "a name with two slashes"),
        ({"description": "x" * 101}, "a description over 100 characters"),
        ({"version": "^0.3.0"}, "a version range"),
        ({"version": "0.x"}, "a wildcard version"),
        ({"version": "latest"}, "latest"),
        ({"remotes": []}, "no remote"),
        ({"remotes": [{"type": "stdio", "url": HOSTED_ENDPOINT}]}, "a local transport"),
        ({"remotes": [{"type": "streamable-http", "url": "ftp://x/mcp"}]}, "a non-HTTP URL"),
        (
            {
                "$schema": "https://static.modelcontextprotocol.io/schemas/2025-09-29/server.schema.json"
            },
            "an older format",
        ),
        ({"websiteURL": "https://paperswithcode.co/"}, "a misspelt field"),
    ],
)
def test_the_schema_refuses(
    validator: Draft7Validator, entry: dict[str, Any], change: dict[str, Any], why: str
) -> None:
    assert problems(validator, entry | change), f"{why} was accepted"


def test_a_missing_field_is_refused(validator: Draft7Validator, entry: dict[str, Any]) -> None:
    for field in ("name", "version", "description", "remotes"):
        assert problems(validator, {k: v for k, v in entry.items() if k != field}), field
