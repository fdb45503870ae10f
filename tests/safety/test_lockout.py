"""Nobody can lock others out through the identity table or an IPv6 prefix (issue #14).

Every request arrives through the local proxy (a loopback peer with X-Forwarded-For), as
nginx forwards it; the identity table is scaled down so a flood stays small.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from tests.helpers.safety import Served, via


def test_a_prefix_cannot_fill_the_identity_table(serve, clock):
    srv = serve(table_size=4)
    # One-byte malformed bodies from many /64s of one /48 (what one IPv6 site holds).
    for i in range(40):
        r = srv.post(content=b"x", headers=via(f"2001:db8:1:{i:x}::1"))
        assert r.status_code == 400, r.text
    # Real work from more /64s and IPv4 addresses than the table holds.
    for i in range(8):
        assert srv.tool("get_task", via(f"2001:db8:2:{i:x}::1"), task="x").status_code == 200
        assert srv.tool("get_task", via(f"198.51.100.{i}"), task="x").status_code == 200
    assert srv.tool("get_task", via("203.0.113.50"), task="x").status_code == 200  # a newcomer


def test_a_48_shares_one_aggregate_request_budget(serve, clock):
    srv = serve(request_limit=1)  # the /48 gets 16
    for i in range(16):
        assert srv.tool("get_task", via(f"2001:db8:7:{i:x}::1"), task="x").status_code == 200
    r = srv.tool("get_task", via("2001:db8:7:ff::1"), task="x")  # a fresh /64, same site
    assert r.status_code == 429 and 1 <= int(r.headers["retry-after"]) <= 61
    assert r.json()["error"]["code"] == -32029
    assert srv.tool("get_task", via("2001:db8:8::1"), task="x").status_code == 200  # other site
    for i in range(20):  # IPv4 neighbours in one /24 are not grouped
        assert srv.tool("get_task", via(f"203.0.113.{i}"), task="x").status_code == 200
    clock.advance(61)
    assert srv.tool("get_task", via("2001:db8:7:ff::1"), task="x").status_code == 200


def _hold(srv: Served, addresses: list[str]) -> tuple[ThreadPoolExecutor, list]:
    pool = ThreadPoolExecutor(len(addresses))
    futures = [pool.submit(srv.hold, via(a)) for a in addresses]
    srv.wait_entered(len(addresses))
    return pool, futures


def test_a_48_shares_one_aggregate_concurrency_limit(serve, clock):
    srv = serve(concurrency_limit=1, global_concurrency_limit=64)  # the /48 gets 16 at once
    pool, futures = _hold(srv, [f"2001:db8:9:{i:x}::1" for i in range(16)])
    try:
        r = srv.tool("get_task", via("2001:db8:9:ff::1"), task="x")
        assert r.status_code == 429 and r.headers["retry-after"] == "1"
        assert srv.tool("get_task", via("2001:db8:a::1"), task="x").status_code == 200
    finally:
        srv.release()
        assert {f.result().status_code for f in futures} == {200}
        pool.shutdown()
    assert srv.tool("get_task", via("2001:db8:9:ff::1"), task="x").status_code == 200


def test_a_flood_of_newcomers_never_resets_a_busy_identity(serve, clock):
    srv = serve(concurrency_limit=2, table_size=3)
    pool, futures = _hold(srv, ["203.0.113.9", "203.0.113.9"])
    try:
        for i in range(10):  # churn: many identities come and go while the holder is busy
            assert srv.tool("get_task", via(f"198.51.100.{i}"), task="x").status_code == 200
            assert srv.post(content=b"x", headers=via(f"192.0.2.{i}")).status_code == 400
        r = srv.tool("get_task", via("203.0.113.9"), task="x")
        assert r.status_code == 429  # its two in-flight requests still count
    finally:
        srv.release()
        assert [f.result().status_code for f in futures] == [200, 200]
        pool.shutdown()
    assert srv.tool("get_task", via("203.0.113.9"), task="x").status_code == 200
