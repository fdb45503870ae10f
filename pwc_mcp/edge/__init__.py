"""The HTTP edge: what every request meets before a tool runs.

Host and Origin checks, body bounds and the JSON-RPC shape check (guards, jsonrpc), who a
request is counted against (identity), what it may spend (admission, rate_limits, windows),
and the content-free operations log (telemetry). The edge imports no caching, answers, site
or tools: it decides whether a request is served, never what the answer is.
"""
