"""`pwc` against a catalog it cannot connect to (issue #27): exit 3, the catalog named, and the
way to work offline."""

from __future__ import annotations

import socket

import httpx
import respx

from pwc_core.errors import UNREACHABLE_HINT
from tests.helpers.cli import BASE, run_cli


def test_a_closed_port_names_the_catalog_and_the_offline_hint() -> None:
    with socket.socket() as closed:  # bound, never listening: connections are refused
        closed.bind(("127.0.0.1", 0))
        url = f"http://127.0.0.1:{closed.getsockname()[1]}/api/v1"
        result = run_cli(url, ["search", "x"])
    assert result.code == 3 and result.out == ""
    assert result.err.startswith("pwc: API request failed: ") and result.err.count("\n") == 1
    assert f"the catalog at {url} cannot be reached" in result.err
    assert UNREACHABLE_HINT in result.err and "make demo" in result.err


def test_credentials_in_the_url_are_not_printed() -> None:
    with respx.mock(assert_all_mocked=True) as router:
        router.get(url__startswith="https://").mock(side_effect=httpx.ConnectError("refused"))
        result = run_cli("https://me:hunter2@catalog.test/api/v1", ["search", "x"])
    assert result.code == 3 and "hunter2" not in result.err
    assert "the catalog at https://catalog.test/api/v1 cannot be reached" in result.err


def test_a_failure_after_connecting_has_no_offline_hint() -> None:
    with respx.mock(base_url=BASE, assert_all_mocked=True) as router:
        router.get("/papers/search").mock(side_effect=httpx.RemoteProtocolError("reset"))
        result = run_cli(BASE, ["search", "x"])
    assert (result.code, result.err) == (3, "pwc: API request failed: reset\n")
