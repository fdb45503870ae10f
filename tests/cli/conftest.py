"""CLI test harness: a respx-mocked catalog at a fake base URL and an in-process `pwc` runner."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import respx

from tests.helpers.cli import BASE, Result, run_cli


@pytest.fixture
def api() -> Iterator[respx.MockRouter]:
    """respx router for the fake catalog; unmatched requests fail the test."""
    with respx.mock(base_url=BASE, assert_all_called=False, assert_all_mocked=True) as router:
        yield router


@pytest.fixture
def pwc(api: respx.MockRouter):
    """Run `pwc ARGV...` in-process; `tty=True` simulates a terminal `width` columns wide."""

    def run(*argv: str, tty: bool = False, width: int = 300) -> Result:
        return run_cli(BASE, argv, tty=tty, width=width)

    return run


@pytest.fixture
def whole_board(api: respx.MockRouter) -> respx.Route:
    """ImageNet's board before any filter, empty: a filtered leaderboard also reads it, for the
    directions and the scopes (README.md#leaderboards), and a test of the filtered read
    needs no rows there."""
    return api.get("datasets/205/evaluations/").respond(json={"count": 0, "results": []})
