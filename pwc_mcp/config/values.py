"""The grammar of setting values: each parser turns one variable's stripped text into its typed
value or an `Invalid` naming the variable (pwc_mcp.config declares which variable takes which)."""

from __future__ import annotations

import ipaddress
from collections.abc import Callable
from typing import Any

from pwc_mcp.config.hosts import has_host, http_origin, split_host
from pwc_mcp.config.storage_urls import url_problem  # it imports the redis client only when asked

# `unlimited` (benchmarks on loopback only): a per-minute window no machine can fill, so the
# limiter still runs and is measured but never refuses. Not offered in the error message.
UNLIMITED = "unlimited"
UNLIMITED_PER_MINUTE = 1_000_000_000
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
# A trusted-proxy range wider than this lets anyone in it choose their identity by header.
MIN_PROXY_PREFIX = {4: 8, 6: 32}
Network = ipaddress.IPv4Network | ipaddress.IPv6Network


class Invalid(ValueError):
    """A setting's value is unusable: one message per problem, each naming the variable."""

    def __init__(self, *problems: str) -> None:
        super().__init__("\n".join(problems))
        self.problems = list(problems)


Parse = Callable[[str, str], Any]  # (variable name, stripped value) -> typed value, or Invalid


def integer(low: int, high: int, *, unlimited: bool = False) -> Parse:
    """An integer in [low, high]; `unlimited` also accepts UNLIMITED (per-minute limits)."""

    def parse(name: str, raw: str) -> int:
        number = decimal(raw)
        if number is not None and low <= number <= high:
            return number
        if unlimited and raw.lower() == UNLIMITED:
            return UNLIMITED_PER_MINUTE
        raise Invalid(f"{name} must be an integer between {low} and {high}")

    return parse


def verbatim(name: str, raw: str) -> str:
    return raw


def catalog_url(name: str, raw: str) -> str:
    if raw.startswith(("http://", "https://")) and has_host(raw):
        return raw.rstrip("/")
    raise Invalid(f"{name} must be an http:// or https:// URL")


def origins(name: str, raw: str) -> tuple[str, ...]:
    origins = split(raw)
    if any("*" in origin for origin in origins):
        raise Invalid(f"{name} must not contain a wildcard; list each origin")
    if bad := [o for o in origins if not o.startswith(("http://", "https://"))]:
        raise Invalid(f"{name} entries must be http(s) origins: {', '.join(bad)}")
    return tuple(o.rstrip("/") for o in origins)


def hosts(name: str, raw: str) -> tuple[str, ...]:
    entries = split(raw)
    if bad := [h for h in entries if split_host(h, entry=True) is None]:
        raise Invalid(
            f"{name} entries must be host, host:port or host:* (no wildcard host): {', '.join(bad)}"
        )
    if not entries:
        raise Invalid(f"{name} must list at least one host")
    return tuple(entries)


def public_origin(name: str, raw: str) -> str:
    if (origin := http_origin(raw)) is None:
        raise Invalid(
            f"{name} must be an http(s) origin such as https://pwc.example.org "
            "(no path, query or credentials)"
        )
    return origin


def proxy_networks(name: str, raw: str) -> tuple[Network, ...]:
    networks: list[Network] = []
    problems: list[str] = []
    for item in split(raw):
        try:
            network = ipaddress.ip_network(item, strict=False)
        except ValueError:
            problems.append(f"{name} has an invalid network: {item}")
            continue
        if network.prefixlen < MIN_PROXY_PREFIX[network.version]:
            problems.append(
                f"{name} network {item} is too wide: list your proxies "
                "(IPv4 /8 or narrower, IPv6 /32 or narrower)"
            )
        networks.append(network)
    if problems:
        raise Invalid(*problems)
    return tuple(networks)


def limits_storage(name: str, raw: str) -> str:
    if raw.startswith(("memory://", "redis://", "rediss://", "redis+unix://")):
        return raw
    raise Invalid(f"{name} must be memory:// or a redis:// URI")


def cache_storage(name: str, raw: str) -> str:
    if (problem := url_problem(raw)) is not None:
        raise Invalid(f"{name} {problem}")
    return raw


def signing_key(name: str, raw: str) -> bytes:
    if len(raw) < 32:
        raise Invalid(f"{name} must be at least 32 characters")
    return raw.encode()


def log_level(name: str, raw: str) -> str:
    if raw.upper() in LOG_LEVELS:
        return raw.upper()
    raise Invalid(f"{name} must be one of {', '.join(LOG_LEVELS)}")


def split(value: str) -> list[str]:
    return [item.strip() for item in value.split(",") if item.strip()]


def decimal(raw: str) -> int | None:
    if not raw.isdigit():
        return None
    try:
        return int(raw)
    except ValueError:  # str.isdigit() accepts digits such as "²" that int() refuses
        return None
