"""No addresses in errors (issue #24): an upstream rejection that names IP addresses, host
names, ports or paths reaches neither a `pwc` user nor an MCP client with them, while its
ordinary words and numbers do."""

from __future__ import annotations

import ipaddress
import json
import re
from collections.abc import Iterator
from typing import Any

import pytest
from fastmcp import Client
from hypothesis import given
from hypothesis import strategies as st
from starlette.applications import Starlette
from starlette.routing import Route

from pwc_core.errors import upstream_detail
from pwc_mcp.answers.tool_errors import rejection
from pwc_mcp.server import build_server
from pwc_mcp.serving.localserver import serve_in_thread
from tests.helpers.cli import run_cli
from tests.helpers.mcp import Answers, error_of, make_service

ORDINARY = "limit must be <= 100 on page 3"
ports = st.integers(0, 65535).map(str)
zones = st.from_regex(r"[A-Za-z0-9_.\-]{1,8}", fullmatch=True)
label = st.from_regex(r"[a-z]([a-z0-9\-]{0,8}[a-z0-9])?", fullmatch=True)
segment = st.from_regex(r"[A-Za-z0-9_.\-]{1,10}", fullmatch=True)


@st.composite
def ipv4(draw: st.DrawFn) -> tuple[str, str]:
    """(as written, the address itself)."""
    address = str(draw(st.ip_addresses(v=4)))
    port = draw(st.none() | ports)
    return (address if port is None else f"{address}:{port}"), address


@st.composite
def ipv6(draw: st.DrawFn) -> tuple[str, str]:
    ip = draw(st.ip_addresses(v=6))
    address = draw(
        st.sampled_from([str(ip), ip.exploded, str(ip).upper()])
        | ipv4().map(lambda written: "::ffff:" + written[1])  # IPv4-mapped
    )
    zone = draw(st.none() | zones)
    written = address if zone is None else f"{address}%{zone}"
    if draw(st.booleans()):
        port = draw(st.none() | ports)
        written = f"[{written}]" if port is None else f"[{written}]:{port}"
    return written, address


@st.composite
def host(draw: st.DrawFn) -> tuple[str, str]:
    kind = draw(st.sampled_from(["dotted", "localhost", "bare"]))
    if kind == "dotted":
        names = draw(st.lists(label, min_size=1, max_size=3))
        name = ".".join([*names, draw(st.from_regex(r"[a-z]{2,6}", fullmatch=True))])
    else:
        name = "localhost" if kind == "localhost" else draw(label)
    port = draw(st.integers(10, 65535).map(str) if kind == "bare" else st.none() | ports)
    written = name if port is None else f"{name}:{port}"
    return written, written


@st.composite
def path(draw: st.DrawFn) -> tuple[str, str]:
    parts = draw(st.lists(segment, min_size=1, max_size=4))
    written = draw(
        st.sampled_from(
            [
                "/" + "/".join(parts),
                draw(st.sampled_from("CDcz")) + ":\\" + "\\".join(parts),
                "\\\\" + "\\".join(["srv", *parts]),
            ]
        )
    )
    return written, written


internal = ipv4() | ipv6() | host() | path()
left = st.sampled_from(["", "(", "'", '"', "=", "at ", "[", "<"])
right = st.sampled_from(["", ")", "'", '"', ":", ".", ",", "]", ">"])


def addresses_in(text: str) -> list[str]:
    """Every token of `text` that `ipaddress` reads as an address, in any of its spellings."""
    found = []
    for token in re.split(r"[\s,;()\[\]'\"=<>]+", text):
        for spelling in {
            token,
            token.strip(".:"),
            token.split("%")[0],
            token.rsplit(":", 1)[0],
        }:
            try:
                ipaddress.ip_address(spelling)
            except ValueError:
                continue
            found.append(token)
    return found


def cleaned(detail: Any) -> dict[str, str]:
    """The detail as `pwc` says it and as the MCP server says it."""
    body = json.dumps({"detail": detail})
    return {"pwc": upstream_detail(body), "mcp": rejection(body)}


@given(st.lists(st.tuples(left, internal, right), min_size=1, max_size=3))
def test_no_address_survives_cleaning(embedded: list[tuple[str, tuple[str, str], str]]) -> None:
    said = " and ".join(f"{before}{written}{after}" for before, (written, _), after in embedded)
    for where, text in cleaned(f"{ORDINARY}; rejected by {said}").items():
        assert text.startswith(f"{ORDINARY}; rejected by"), where
        assert addresses_in(text) == [], where
        for _, (written, address), _ in embedded:
            assert written not in text and address not in text, (where, text)


@pytest.mark.parametrize(
    "detail",
    [
        "limit must be <= 100",
        "page 3 of 7 at 12:30:00, ratio 1:2, e.g. v1.2.3 and 3.14",
        "query must be 1-500 characters and/or a title",
    ],
)
def test_ordinary_words_and_numbers_stay(detail: str) -> None:
    assert set(cleaned(detail).values()) == {detail}


# --- end to end: a catalog on loopback that names its internals ------------------------------

LEAKY = (
    "no route from fe80::1%eth0 to [2001:db8:5::9]:8080 (::ffff:10.0.0.1, 10.0.0.7:5432, "
    "db-1.internal.example, localhost:5432) in /var/lib/catalog/x.py, C:\\srv\\app"
)
NAMED = [
    "fe80::1",
    "eth0",
    "2001:db8:5::9",
    "8080",
    "10.0.0",
    "5432",
    "db-1",
    "internal.example",
    "localhost",
    "/var/lib",
    "x.py",
    "C:\\",
]


@pytest.fixture(scope="module")
def catalog() -> Iterator[tuple[str, Answers]]:
    answers = Answers()
    app = Starlette(routes=[Route("/{rest:path}", answers.respond)])
    with serve_in_thread(app, name="leaky-catalog", lifespan="off") as running:
        yield running.origin + "/api/v1", answers


DETAILS = [LEAKY, [{"loc": ["query", "q"], "msg": LEAKY}]]


@pytest.mark.parametrize("status", [400, 422])
@pytest.mark.parametrize("detail", DETAILS, ids=["sentence", "validation list"])
def test_pwc_says_no_address(catalog: tuple[str, Answers], status: int, detail: Any) -> None:
    url, answers = catalog
    answers.by_path["papers/search"] = (status, {"detail": detail})
    result = run_cli(url, ["search", "anything"])
    assert result.code == 2 and result.err.startswith("pwc: the catalog rejected the request")
    assert "no route from" in result.err
    assert [n for n in NAMED if n in result.err] == [] and addresses_in(result.err) == []


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.mark.anyio
@pytest.mark.parametrize("status", [400, 422])
async def test_a_tool_says_no_address(catalog: tuple[str, Answers], status: int) -> None:
    url, answers = catalog
    answers.by_path["papers/search"] = (status, {"detail": LEAKY})
    async with Client(build_server(make_service(url))) as client:
        text = await error_of(client, "search_papers", query="anything")
    assert text.startswith("invalid_argument: no route from")
    assert [n for n in NAMED if n in text] == [] and addresses_in(text) == []
