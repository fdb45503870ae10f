"""CLI test helpers: the fake catalog's base URL, contract fixtures, recorded query parameters."""

from __future__ import annotations

import io
import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import respx

from pwc_cli.main import main
from pwc_core.transport import CatalogClient
from tests.helpers import ROOT

BASE = "https://catalog.test/api/v1"
FIXTURES = ROOT / "tests" / "fixtures"


def fixture(name: str) -> Any:
    """A contract fixture (copied from shared/spec/fixtures into tests/fixtures)."""
    path = FIXTURES / name
    return path.read_text() if path.suffix == ".md" else json.loads(path.read_text())


@dataclass
class Result:
    code: int
    out: str
    err: str

    @property
    def data(self) -> Any:
        doc = json.loads(self.out)
        assert list(doc) == ["schema_version", "data"] and doc["schema_version"] == "v1"
        return doc["data"]


def run_cli(
    url: str, argv: Sequence[str], *, tty: bool = False, width: int | None = None
) -> Result:
    """`pwc argv` in-process against the catalog at `url` (a real HTTP client), output captured."""
    out, err = io.StringIO(), io.StringIO()
    client = CatalogClient(url)
    try:
        code = main(list(argv), client=client, stdout=out, stderr=err, tty=tty, width=width)
    finally:
        client.close()
    return Result(code, out.getvalue(), err.getvalue())


def params_of(route: respx.Route, index: int = -1) -> dict[str, list[str]]:
    """Query parameters of one recorded call of a route (repeated keys kept)."""
    request = route.calls[index].request
    result: dict[str, list[str]] = {}
    for key, value in request.url.params.multi_items():
        result.setdefault(key, []).append(value)
    return result
