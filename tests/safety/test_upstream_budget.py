"""An upstream budget per client (#37): the catalog requests one identity's calls may cause a
minute are bounded by configuration, not by the tools' fan-out. The attack that landed: one
anonymous address drove about 2,800 catalog requests a minute through `against_sota` (47 a
call) and 26 per 25-row search, within its 60 calls a minute.

The real app on loopback over the sample catalog, whose own counters are the oracle for the
requests that reached it; the windows' clock is the test's (`clock`), so nothing sleeps."""

from __future__ import annotations

from typing import Any

import httpx

from pwc_mcp.config import Settings
from pwc_mcp.edge.rate_limits import RATE_LIMITED
from pwc_mcp.site.examples import TOOL_EXAMPLES
from tests.helpers.safety import FakeTime, GatedUpstream, Served, via

ATTACKER = {"X-PwC-MCP-Client": "attacker"}
VICTIM = {"X-PwC-MCP-Client": "victim"}
REFUSED = "rate_limited: catalog request budget reached; retry in "


def result(answer: httpx.Response) -> dict[str, Any]:
    assert answer.status_code == 200, answer.text
    found: dict[str, Any] = answer.json()["result"]
    return found


def made(upstream: GatedUpstream) -> int:
    """Requests the catalog has answered so far (its own count)."""
    return int(upstream.sample.state.stats.total())


def test_a_call_stops_at_its_clients_budget_and_the_next_is_refused_up_front(
    serve: Any, upstream: GatedUpstream, clock: FakeTime
) -> None:
    served: Served = serve(upstream_limit=10, request_limit=1_000)
    before = made(upstream)
    # a cold 25-row list: 1 list request and 25 paper records for the snippets (26 in all)
    crossing = result(served.tool("list_recent_papers", ATTACKER, limit=25))
    assert crossing["isError"] and crossing["content"][0]["text"].startswith(REFUSED)
    assert made(upstream) - before == 10, "the 11th request was never made"
    # spent: refused before any work, with the window's own wait, spending no request
    refused = served.tool("get_task", ATTACKER, task="image-classification")
    assert refused.status_code == 429 and refused.headers["retry-after"] == "61"
    assert refused.json()["error"]["code"] == RATE_LIMITED
    assert refused.json()["error"]["message"] == REFUSED + "61 s"
    assert made(upstream) - before == 10
    # another client has its own budget: the same call is answered (5 requests: 1 task, 4 boards)
    victim = result(served.tool("get_task", VICTIM, task="image-classification"))
    assert not victim["isError"] and made(upstream) - before == 15
    clock.advance(30)
    assert served.tool("get_task", ATTACKER, task="image-classification").status_code == 429
    clock.advance(31)  # the window has room again
    again = result(served.tool("get_task", ATTACKER, task="image-classification"))
    assert not again["isError"]


def test_a_sites_clients_share_its_budget(
    serve: Any, upstream: GatedUpstream, clock: FakeTime
) -> None:
    """The same identity rules as the call limits: every /64 of an IPv6 /48 also spends the
    site's budget (16 x), so rotating through /64s does not multiply it."""
    served: Served = serve(upstream_limit=1, request_limit=1_000)
    site = "2001:db8:7:"
    answers = [
        served.tool("search_papers", via(f"{site}{n:x}::1"), query=f"nothing{n}", mode="keyword")
        for n in range(1, 18)  # each one catalog search, found empty: no snippet to read
    ]
    spent = [a.status_code == 429 or result(a)["isError"] for a in answers]
    assert spent == [False] * 16 + [True], "16 /64s spend the site's 16 requests"


def test_honest_use_never_meets_the_default_budget(serve: Any, upstream: GatedUpstream) -> None:
    """Every example call, cold, from one client: none is refused, and 60 calls a minute of
    their mean fan-out stay under a quarter of the default budget (docs/decisions.md)."""
    served: Served = serve()
    served.release()  # no request is held (get_method's route is the gated one)
    before, calls = made(upstream), 0
    for tool, examples in TOOL_EXAMPLES.items():
        for arguments in examples:
            assert not result(served.tool(tool, VICTIM, **arguments))["isError"], tool
            calls += 1
    mean = (made(upstream) - before) / calls
    assert 60 * mean * 4 <= Settings().upstream_limit, mean
