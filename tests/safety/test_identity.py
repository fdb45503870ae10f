"""Client identity rules, hashing and the bounded identity table."""

from __future__ import annotations

import ipaddress
from typing import Any

import pytest

from pwc_mcp.config import Settings
from pwc_mcp.edge.identity import (
    KNOWN_CHARS,
    KNOWN_ENTRIES,
    IdentityHasher,
    InFlight,
    client_identity,
    header_values,
    identity_group,
    parse_ip,
)
from pwc_mcp.edge.rate_limits import RateLimiter, identity_key

NGINX = (ipaddress.ip_network("10.0.0.0/24"), ipaddress.ip_network("fd00::/64"))


def scope(peer: str | None, *headers: tuple[str, str]) -> dict:
    return {
        "type": "http",
        "client": (peer, 50000) if peer else None,
        "headers": [(k.lower().encode(), v.encode()) for k, v in headers],
    }


def xff(value: str) -> tuple[str, str]:
    return ("X-Forwarded-For", value)


def tag(value: str) -> tuple[str, str]:
    return ("X-PwC-MCP-Client", value)


# -- direct peers ------------------------------------------------------------------------------


def test_direct_peer_is_the_identity():
    assert client_identity(scope("203.0.113.5")) == "ip:203.0.113.5"


def test_non_loopback_peer_ignores_forwarding_and_tags():
    s = scope("192.168.1.2", xff("203.0.113.9"), tag("chat-1"))
    assert client_identity(s) == "ip:192.168.1.2"
    assert client_identity(scope("10.9.9.9", tag("chat-1"))) == "ip:10.9.9.9"


def test_missing_peer_is_unknown_and_trusts_nothing():
    assert client_identity(scope(None, xff("203.0.113.9"), tag("x"))) == "unknown"


def test_ipv6_peers_group_by_64_and_mapped_ipv4_is_ipv4():
    a = client_identity(scope("2001:db8:1:2::1"))
    b = client_identity(scope("2001:db8:1:2:ffff::9"))
    assert a == b == "ip6:2001:db8:1:2::/64"
    assert client_identity(scope("2001:db8:1:3::1")) != a
    assert client_identity(scope("::ffff:198.51.100.7")) == "ip:198.51.100.7"


# -- loopback peer (nginx on the same host) ------------------------------------------------------


def test_loopback_peer_uses_right_most_hop():
    assert client_identity(scope("127.0.0.1", xff("203.0.113.9"))) == "ip:203.0.113.9"
    assert client_identity(scope("::1", xff("203.0.113.9"))) == "ip:203.0.113.9"


def test_forged_left_most_value_never_changes_identity():
    # nginx appends ($proxy_add_x_forwarded_for): the client wrote everything left of its hop.
    forged = [
        "1.1.1.1, 203.0.113.9",
        "evil, 10.0.0.1, 203.0.113.9",
        "203.0.113.77,203.0.113.9",
    ]
    for value in forged:
        assert client_identity(scope("127.0.0.1", xff(value))) == "ip:203.0.113.9"
    # two header lines are one list, in order
    s = scope("127.0.0.1", xff("6.6.6.6"), xff("203.0.113.9"))
    assert client_identity(s) == "ip:203.0.113.9"


def test_invalid_right_most_hop_falls_back_to_peer():
    for value in ("not-an-ip", "203.0.113.9, garbage", "unknown", "1.2.3.4.5", "fe80::1%eth0"):
        assert client_identity(scope("127.0.0.1", xff(value))) == "ip:127.0.0.1"


def test_hop_with_port_or_brackets_is_parsed():
    assert client_identity(scope("127.0.0.1", xff("203.0.113.9:443"))) == "ip:203.0.113.9"
    s = scope("127.0.0.1", xff("[2001:db8::1]:443"))
    assert client_identity(s) == "ip6:2001:db8::/64"


def test_loopback_client_without_xff_may_name_itself():
    assert client_identity(scope("127.0.0.1", tag("chat-0123abcd"))) == "client:chat-0123abcd"
    assert client_identity(scope("::1", tag("a" * 128))) == "client:" + "a" * 128
    assert client_identity(scope("127.0.0.1", tag("A1.b_c:d-e"))) == "client:A1.b_c:d-e"


@pytest.mark.parametrize("value", ["", "a" * 129, "has space", "a/b", "-lead", ".x", "é", "a\tb"])
def test_invalid_client_tag_falls_back_to_peer(value):
    assert client_identity(scope("127.0.0.1", tag(value))) == "ip:127.0.0.1"


def test_xff_wins_over_tag_and_two_tags_are_ignored():
    s = scope("127.0.0.1", xff("203.0.113.9"), tag("chat-1"))
    assert client_identity(s) == "ip:203.0.113.9"
    s = scope("127.0.0.1", xff("garbage"), tag("chat-1"))  # XFF present: no self-naming
    assert client_identity(s) == "ip:127.0.0.1"
    assert client_identity(scope("127.0.0.1", tag("a"), tag("b"))) == "ip:127.0.0.1"


# -- trusted proxy CIDRs --------------------------------------------------------------------------


def test_trusted_proxy_right_most_untrusted_hop():
    s = scope("10.0.0.5", xff("203.0.113.9"))
    assert client_identity(s, NGINX) == "ip:203.0.113.9"
    s = scope("10.0.0.5", xff("1.1.1.1, 203.0.113.9, 10.0.0.7, 10.0.0.8"))  # proxy chain
    assert client_identity(s, NGINX) == "ip:203.0.113.9"
    s = scope("fd00::5", xff("9.9.9.9, 2001:db8:5::1, fd00::9"))
    assert client_identity(s, NGINX) == "ip6:2001:db8:5::/64"


def test_trusted_proxy_forged_chain_and_invalid_hop():
    s = scope("10.0.0.5", xff("10.0.0.200, 203.0.113.9"))  # forged "proxy" left of the client
    assert client_identity(s, NGINX) == "ip:203.0.113.9"
    s = scope("10.0.0.5", xff("203.0.113.9, garbage, 10.0.0.7"))
    assert client_identity(s, NGINX) == "ip:10.0.0.5"  # stop at garbage: fall back to the peer


def test_trusted_proxy_tag_never_honoured():
    assert client_identity(scope("10.0.0.5", tag("chat-1")), NGINX) == "ip:10.0.0.5"
    loopback_trusted = (ipaddress.ip_network("127.0.0.0/8"),)
    assert client_identity(scope("127.0.0.1", tag("chat-1")), loopback_trusted) == "ip:127.0.0.1"


def test_trusted_proxy_without_xff_or_all_trusted_hops():
    assert client_identity(scope("10.0.0.5"), NGINX) == "ip:10.0.0.5"
    assert client_identity(scope("10.0.0.5", xff("10.0.0.3, 10.0.0.4")), NGINX) == "ip:10.0.0.3"


def test_untrusted_peer_outside_cidrs_is_itself():
    assert client_identity(scope("10.0.1.5", xff("203.0.113.9")), NGINX) == "ip:10.0.1.5"


def test_parse_ip():
    assert str(parse_ip(" 1.2.3.4 ")) == "1.2.3.4"
    assert parse_ip("[::1") is None and parse_ip("[::1]x") is None and parse_ip("") is None


# -- hashing and the table -----------------------------------------------------------------------


def test_identities_are_hashed_with_a_per_process_key():
    a, b = IdentityHasher(), IdentityHasher()
    assert a("ip:203.0.113.9") == a("ip:203.0.113.9") != b("ip:203.0.113.9")
    assert "203.0.113" not in a("ip:203.0.113.9") and len(a("x")) == 32
    assert identity_key(Settings()) is None  # memory storage: random per process


def test_shared_storage_hashes_alike_across_replicas():
    shared = Settings(
        rate_limit_storage="redis://127.0.0.1:1",
        cursor_key_current=b"k" * 32,
        cursor_key_ephemeral=False,
    )
    assert identity_key(shared) == identity_key(shared) is not None
    assert identity_key(shared) != shared.cursor_key_current
    r1, r2 = RateLimiter(shared), RateLimiter(shared)
    s = scope("203.0.113.9")
    assert r1.identify(s) == r2.identify(s)


def test_ipv6_identities_group_by_48_and_ipv4_has_no_group():
    a = client_identity(scope("2001:db8:1:2::1"))
    b = client_identity(scope("2001:db8:1:ffff::1"))
    assert a != b and identity_group(a) == identity_group(b) == "ip6site:2001:db8:1::/48"
    assert identity_group(client_identity(scope("2001:db8:2::1"))) == "ip6site:2001:db8:2::/48"
    assert identity_group("ip:203.0.113.9") is None
    assert identity_group("client:chat-1") is None and identity_group("unknown") is None


def test_limiter_identifies_with_hashes_group_and_loopback_exemption():
    limiter = RateLimiter(Settings())
    v6 = limiter.identify(scope("127.0.0.1", xff("2001:db8:1:2::1")))
    assert v6.key == limiter.hash("ip6:2001:db8:1:2::/64")
    assert v6.group == limiter.hash("ip6site:2001:db8:1::/48") and not v6.exempt
    v4 = limiter.identify(scope("203.0.113.9"))
    assert v4.group is None and not v4.exempt
    assert limiter.identify(scope("127.0.0.1")).exempt  # direct loopback: the proxy itself
    assert limiter.identify(scope("127.0.0.1", tag("chat-1"))).exempt


def test_in_flight_table_holds_only_busy_keys():
    table = InFlight(max_size=3)
    assert table.acquire([("a", 2), ("site", 3)]) is None
    assert table.acquire([("a", 2), ("site", 3)]) is None
    assert table.acquire([("a", 2), ("site", 3)]) == "busy"  # a is at its limit
    assert table.acquire([("b", 2), ("site", 3)]) is None
    assert table.acquire([("c", 2), ("site", 3)]) == "busy"  # the site is at its limit
    assert table.acquire([("c", 2), ("d", 2)]) == "full"  # 3 keys present, 2 more needed
    assert (table.active("a"), table.active("site"), len(table)) == (2, 3, 3)
    table.release(["a", "site"])
    table.release(["a", "site"])
    table.release(["b", "site"])
    assert len(table) == 0  # an idle identity leaves nothing behind for anyone to fill
    assert table.acquire([("c", 2), ("d", 2)]) is None


def test_the_header_table_follows_the_scope_it_was_built_from() -> None:
    """Built once per request; a layer that replaces or extends the header list gets new values."""
    scope: dict[str, Any] = {"headers": [(b"Host", b"a"), (b"x-forwarded-for", b"1.2.3.4")]}
    assert header_values(scope, b"host") == ["a"] and header_values(scope, b"origin") == []
    scope["headers"] = [(b"host", b"b")]
    assert header_values(scope, b"host") == ["b"]
    scope["headers"].append((b"host", b"c"))
    assert header_values(scope, b"host") == ["b", "c"]
    assert header_values({"headers": [(b"host", b"d")]}, b"host") == ["d"], "per scope"


# -- remembered identities (KnownClients) ------------------------------------------------------

PEERS = ["127.0.0.1", "::1", "10.0.0.7", "203.0.113.5", "2001:db8:1:2::1", "[::1]:80"]
HOPS = ["203.0.113.9", "10.0.0.8", "2001:db8:9::1", "not-an-ip", "198.51.100.1, 10.0.0.9", ""]
TAGS = ["chat-1", "chat-2", "bad tag!", ""]


def up_to_two(values: list[str]) -> list[list[str]]:
    return [[], *([v] for v in values), *([a, b] for a in values for b in values)]


def test_a_remembered_identity_is_the_one_computed_afresh() -> None:
    """Every combination of peer, forwarding hops and client tags, twice over, through a table
    that evicts: each request's Client is the one computed from its own inputs, so no two
    inputs ever share an entry."""
    limiter = RateLimiter(Settings(trusted_proxy_cidrs=(ipaddress.ip_network("10.0.0.0/24"),)))
    limiter.known.max_entries = 2048
    scopes = [
        scope(peer, *map(xff, hops), *map(tag, tags))
        for peer in [*PEERS, None]
        for hops in up_to_two(HOPS)
        for tags in up_to_two(TAGS)
    ]
    for s in scopes + scopes[::-1]:
        assert limiter.identify(s) == limiter._identify(s)
    assert len(limiter.known) == 2048


def test_rotating_forwarding_headers_only_churns_the_bounded_table() -> None:
    """The attack: one loopback peer sends a new X-Forwarded-For on every request. The table
    never grows past its bound, and a client it forgot is identified afresh, never as another."""
    limiter = RateLimiter(Settings())
    first = limiter.identify(scope("127.0.0.1", tag("chat-1")))
    for i in range(KNOWN_ENTRIES + 500):
        hop = f"198.51.{i // 256 % 256}.{i % 256}"
        assert limiter.identify(scope("127.0.0.1", xff(hop))).key == limiter.hash(f"ip:{hop}")
    assert len(limiter.known) == KNOWN_ENTRIES
    assert limiter.identify(scope("127.0.0.1", tag("chat-1"))) == first


def test_long_forwarding_chains_are_identified_but_not_remembered() -> None:
    limiter = RateLimiter(Settings())
    chain = ", ".join(f"198.51.100.{i}" for i in range(40))  # beyond KNOWN_CHARS
    assert len(chain) > KNOWN_CHARS
    client = limiter.identify(scope("127.0.0.1", xff(chain)))
    assert client.key == limiter.hash("ip:198.51.100.39") and len(limiter.known) == 0
