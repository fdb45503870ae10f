"""create_app runs with the safety knobs it is given (the rate limiter with its identity table,
the body deadline), so the tests that scale them down test the real application."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from tests.helpers.safety import via

HOLDERS = ("198.51.100.1", "198.51.100.2")


def test_the_app_counts_in_the_limiter_and_table_it_is_given(serve, clock):
    srv = serve(table_size=len(HOLDERS), concurrency_limit=5)
    pool = ThreadPoolExecutor(len(HOLDERS))
    futures = [pool.submit(srv.hold, via(address)) for address in HOLDERS]
    srv.wait_entered(len(HOLDERS))
    try:
        assert srv.limiter.global_active == len(HOLDERS) and len(srv.limiter.table) == 2
        r = srv.tool("get_task", via("192.0.2.7"), task="x")  # a third identity: table full
        assert r.status_code == 503 and r.json()["error"]["code"] == -32029
    finally:
        srv.release()
        assert [f.result().status_code for f in futures] == [200, 200]
        pool.shutdown()
    assert srv.tool("get_task", via("192.0.2.7"), task="x").status_code == 200
