"""Side-by-side benchmarks for `pwc-mcp` (run with `make bench` or `python -m bench`).

Not part of the test suite. Every server under test runs in its own uvicorn subprocess on
loopback and is driven by the same asyncio/httpx load generator, alternating servers round by
round so that machine noise hits all of them alike:

* `pwc-mcp` against the bundled sample catalog (limits raised),
* the framework floor: a minimal FastMCP stateless server with one tool (`bench.floor`),
* the bare ASGI ceiling: one Starlette POST route returning fixed JSON-RPC bytes.

Results go to `bench/results/latest.md` and `latest.json` (git-ignored). Every target is reported
met or missed; the process exits non-zero only on a gross regression against the recorded run
(`bench/targets.py`, `bench/recorded.json`).
"""
