"""CLI test harness: a respx-mocked catalog at a fake base URL and an in-process `pwc` runner."""

from __future__ import annotations

import io
import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import respx

from pwc_cli.main import main
from pwc_cli.transport import CatalogClient

BASE = "https://catalog.test/api/v1"
FIXTURES = Path(__file__).resolve().parents[2] / "tests" / "fixtures"


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


@pytest.fixture
def api() -> Iterator[respx.MockRouter]:
    """respx router for the fake catalog; unmatched requests fail the test."""
    with respx.mock(base_url=BASE, assert_all_called=False, assert_all_mocked=True) as router:
        yield router


@pytest.fixture
def pwc(api: respx.MockRouter):
    """Run `pwc ARGV...` in-process; `tty=True` simulates a terminal `width` columns wide."""

    def run(*argv: str, tty: bool = False, width: int = 300) -> Result:
        out, err = io.StringIO(), io.StringIO()
        client = CatalogClient(BASE)
        try:
            code = main(list(argv), client=client, stdout=out, stderr=err, tty=tty, width=width)
        finally:
            client.close()
        return Result(code, out.getvalue(), err.getvalue())

    return run


def params_of(route: respx.Route, index: int = -1) -> dict[str, list[str]]:
    """Query parameters of one recorded call of a route (repeated keys kept)."""
    request = route.calls[index].request
    result: dict[str, list[str]] = {}
    for key, value in request.url.params.multi_items():
        result.setdefault(key, []).append(value)
    return result
