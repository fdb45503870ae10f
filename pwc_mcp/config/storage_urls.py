"""The storage URI grammar the replicas share (Redis): read by start-up validation
(pwc_mcp.config) and by the clients that connect (the shared cache, the rate-limit windows)."""

from __future__ import annotations

SCHEMES = ("redis://", "rediss://", "redis+unix://")


def redis_py_url(url: str) -> str:
    """limits spells a Unix socket redis+unix:// (one URI may serve both settings); redis-py
    spells it unix://."""
    return "unix://" + url.removeprefix("redis+unix://") if url.startswith("redis+unix://") else url


def url_problem(url: str) -> str | None:
    """Why `url` cannot be the shared cache's storage (start-up validation), or None; never
    quotes the URI, which may hold a password."""
    if not url.startswith(SCHEMES):
        return "must be a redis://, rediss:// or redis+unix:// URI"
    try:
        from redis.connection import parse_url
    except ImportError:
        return "needs the Redis client: install pwc-mcp[redis]"
    try:
        parse_url(redis_py_url(url))
    except ValueError:
        return "is not a valid Redis URI"
    return None
