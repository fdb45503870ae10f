"""Server settings from PWC_MCP_* / PORT / PWC_API_URL, validated once at start-up.

Every problem is collected and reported as one line each, so an operator fixes them all at once.
"""

from __future__ import annotations

import ipaddress
import os
import secrets
from collections.abc import Mapping
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from pwc_cli.transport import DEFAULT_BASE_URL
from pwc_mcp.hosts import split_host

MiB = 1024 * 1024
CATALOG_TIMEOUT = 25.0
DEFAULT_ALLOWED_HOSTS = ("localhost:*", "127.0.0.1:*", "[::1]:*")
LIMIT_RANGE = (1, 10_000)
# `unlimited` (benchmarks on loopback only): a per-minute window no machine can fill, so the
# limiter still runs and is measured but never refuses. Not offered in the error message.
UNLIMITED = "unlimited"
UNLIMITED_PER_MINUTE = 1_000_000_000
PER_MINUTE_LIMITS = ("PWC_MCP_REQUEST_LIMIT", "PWC_MCP_SEMANTIC_LIMIT")
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
# A trusted-proxy range wider than this lets anyone in it choose their identity by header.
MIN_PROXY_PREFIX = {4: 8, 6: 32}


class ConfigError(ValueError):
    """Invalid configuration; `problems` holds one message per bad setting."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__("\n".join(problems))
        self.problems = problems


@dataclass(frozen=True)
class Settings:
    host: str = "127.0.0.1"
    port: int = 7860
    api_url: str = DEFAULT_BASE_URL
    catalog_timeout: float = CATALOG_TIMEOUT
    # None means "loopback origins on any port" (what local tools such as the Inspector need).
    allowed_origins: tuple[str, ...] | None = None
    allowed_hosts: tuple[str, ...] = DEFAULT_ALLOWED_HOSTS
    # The origin advertised by /.well-known/mcp; None = derived per request, never cached.
    public_url: str | None = None
    request_limit: int = 60
    semantic_limit: int = 10
    concurrency_limit: int = 4
    global_concurrency_limit: int = 128
    trusted_proxy_cidrs: tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, ...] = ()
    rate_limit_storage: str = "memory://"
    cursor_key_current: bytes = field(default_factory=lambda: secrets.token_bytes(32), repr=False)
    cursor_key_previous: bytes | None = field(default=None, repr=False)
    cursor_key_ephemeral: bool = True
    log_level: str = "INFO"
    max_request_bytes: int = 2 * MiB
    max_response_bytes: int = 2 * MiB

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Settings:
        env = os.environ if env is None else env
        problems: list[str] = []
        values: dict[str, object] = {}

        def text(name: str) -> str | None:
            value = env.get(name)
            return value.strip() if value is not None and value.strip() else None

        if (host := text("PWC_MCP_HOST")) is not None:
            values["host"] = host
        if (port := text("PORT")) is not None:
            if port.isdigit() and 1 <= int(port) <= 65535:
                values["port"] = int(port)
            else:
                problems.append("PORT must be an integer between 1 and 65535")
        if (api := text("PWC_API_URL")) is not None:
            if api.startswith(("http://", "https://")) and _has_host(api):
                values["api_url"] = api.rstrip("/")
            else:
                problems.append("PWC_API_URL must be an http:// or https:// URL")
        if "PWC_MCP_ALLOWED_ORIGINS" in env:
            origins = _split(env["PWC_MCP_ALLOWED_ORIGINS"])
            if any("*" in origin for origin in origins):
                problems.append(
                    "PWC_MCP_ALLOWED_ORIGINS must not contain a wildcard; list each origin"
                )
            elif bad := [o for o in origins if not o.startswith(("http://", "https://"))]:
                problems.append(
                    f"PWC_MCP_ALLOWED_ORIGINS entries must be http(s) origins: {', '.join(bad)}"
                )
            values["allowed_origins"] = tuple(o.rstrip("/") for o in origins)
        if (hosts := text("PWC_MCP_ALLOWED_HOSTS")) is not None:
            entries = _split(hosts)
            if bad := [h for h in entries if split_host(h, entry=True) is None]:
                problems.append(
                    "PWC_MCP_ALLOWED_HOSTS entries must be host, host:port or host:* "
                    f"(no wildcard host): {', '.join(bad)}"
                )
            elif not entries:
                problems.append("PWC_MCP_ALLOWED_HOSTS must list at least one host")
            values["allowed_hosts"] = tuple(entries)
        if (public := text("PWC_MCP_PUBLIC_URL")) is not None:
            if (public_origin := _origin(public)) is None:
                problems.append(
                    "PWC_MCP_PUBLIC_URL must be an http(s) origin such as "
                    "https://pwc.example.org (no path, query or credentials)"
                )
            values["public_url"] = public_origin
        for name, key in (
            ("PWC_MCP_REQUEST_LIMIT", "request_limit"),
            ("PWC_MCP_SEMANTIC_LIMIT", "semantic_limit"),
            ("PWC_MCP_CONCURRENCY_LIMIT", "concurrency_limit"),
            ("PWC_MCP_GLOBAL_CONCURRENCY_LIMIT", "global_concurrency_limit"),
        ):
            if (raw := text(name)) is not None:
                low, high = LIMIT_RANGE
                if raw.isdigit() and low <= int(raw) <= high:
                    values[key] = int(raw)
                elif name in PER_MINUTE_LIMITS and raw.lower() == UNLIMITED:
                    values[key] = UNLIMITED_PER_MINUTE
                else:
                    problems.append(f"{name} must be an integer between {low} and {high}")
        if (cidrs := text("PWC_MCP_TRUSTED_PROXY_CIDRS")) is not None:
            networks = []
            for item in _split(cidrs):
                try:
                    network = ipaddress.ip_network(item, strict=False)
                except ValueError:
                    problems.append(f"PWC_MCP_TRUSTED_PROXY_CIDRS has an invalid network: {item}")
                    continue
                if network.prefixlen < MIN_PROXY_PREFIX[network.version]:
                    problems.append(
                        f"PWC_MCP_TRUSTED_PROXY_CIDRS network {item} is too wide: list your "
                        "proxies (IPv4 /8 or narrower, IPv6 /32 or narrower)"
                    )
                networks.append(network)
            values["trusted_proxy_cidrs"] = tuple(networks)
        if (storage := text("PWC_MCP_RATE_LIMIT_STORAGE")) is not None:
            if storage.startswith(("memory://", "redis://", "rediss://", "redis+unix://")):
                values["rate_limit_storage"] = storage
            else:
                problems.append("PWC_MCP_RATE_LIMIT_STORAGE must be memory:// or a redis:// URI")
        current, previous = text("PWC_MCP_CURSOR_KEY_CURRENT"), text("PWC_MCP_CURSOR_KEY_PREVIOUS")
        for name, key in (
            ("PWC_MCP_CURSOR_KEY_CURRENT", current),
            ("PWC_MCP_CURSOR_KEY_PREVIOUS", previous),
        ):
            if key is not None and len(key) < 32:
                problems.append(f"{name} must be at least 32 characters")
        if previous is not None and current is None:
            problems.append("PWC_MCP_CURSOR_KEY_PREVIOUS needs PWC_MCP_CURSOR_KEY_CURRENT")
        if current is not None:
            values["cursor_key_current"] = current.encode()
            values["cursor_key_ephemeral"] = False
        if previous is not None:
            values["cursor_key_previous"] = previous.encode()
        if values.get("rate_limit_storage", "memory://") != "memory://" and current is None:
            problems.append(
                "PWC_MCP_RATE_LIMIT_STORAGE shared by replicas needs "
                "PWC_MCP_CURSOR_KEY_CURRENT: replicas must hash client identities "
                "with the same key"
            )
        if (level := text("LOG_LEVEL")) is not None:
            if level.upper() in LOG_LEVELS:
                values["log_level"] = level.upper()
            else:
                problems.append(f"LOG_LEVEL must be one of {', '.join(LOG_LEVELS)}")
        if problems:
            raise ConfigError(problems)
        return cls(**values)  # type: ignore[arg-type]


def _split(value: str) -> list[str]:
    return [item.strip() for item in value.split(",") if item.strip()]


def _has_host(url: str) -> bool:
    try:
        return bool(urlsplit(url).hostname)
    except ValueError:  # e.g. an unclosed IPv6 bracket
        return False


def _origin(value: str) -> str | None:
    """``scheme://host[:port]`` (lower-cased) from an http(s) origin, or None if it is not one."""
    try:
        url = urlsplit(value)
        url.port  # noqa: B018  (raises ValueError on a bad port)
    except ValueError:
        return None
    if (
        url.scheme not in ("http", "https")
        or url.username is not None
        or url.password is not None
        or url.path not in ("", "/")
        or url.query
        or url.fragment
        or split_host(url.netloc, entry=False) is None
    ):
        return None
    return f"{url.scheme}://{url.netloc.lower()}"
