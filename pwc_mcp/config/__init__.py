"""Server settings from PWC_MCP_* / PORT / PWC_API_URL, validated once at start-up.

`SETTINGS` declares each variable once (its field, parser with bounds, README text); the table
drives `Settings.from_env` and renders the README's configuration table (a test keeps them equal).
The field defaults live on `Settings`, the typed record. Every problem is collected and reported
as one line each, so an operator fixes them all at once.
"""

from __future__ import annotations

import dataclasses
import os
import secrets
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from pwc_core.transport import DEFAULT_BASE_URL
from pwc_mcp.config.values import (
    Invalid,
    Network,
    Parse,
    cache_storage,
    catalog_url,
    hosts,
    integer,
    limits_storage,
    log_level,
    origins,
    proxy_networks,
    public_origin,
    signing_key,
    verbatim,
)

MiB = 1024 * 1024
CATALOG_TIMEOUT = 25.0
# The whole of one tool call or resource read, across all its catalog requests (each at most
# the catalog timeout): well below nginx's proxy_read_timeout (nginx/pwc-mcp.conf), so the call
# ends as `upstream_timeout:` and frees its worker thread before the proxy gives up on it. Also
# what a shutdown waits for (pwc_mcp.edge.drain).
CALL_TIMEOUT = 50
DEFAULT_ALLOWED_HOSTS = ("localhost:*", "127.0.0.1:*", "[::1]:*")
LIMIT_RANGE = (1, 10_000)
CURSOR_KEY_CURRENT = "PWC_MCP_CURSOR_KEY_CURRENT"
CURSOR_KEY_PREVIOUS = "PWC_MCP_CURSOR_KEY_PREVIOUS"


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
    call_timeout: float = CALL_TIMEOUT
    # None means "loopback origins on any port" (what local tools such as the Inspector need).
    allowed_origins: tuple[str, ...] | None = None
    allowed_hosts: tuple[str, ...] = DEFAULT_ALLOWED_HOSTS
    # The origin advertised by /.well-known/mcp; None = derived per request, never cached.
    public_url: str | None = None
    request_limit: int = 60
    semantic_limit: int = 10
    upstream_limit: int = 1_200
    concurrency_limit: int = 4
    global_concurrency_limit: int = 128
    trusted_proxy_cidrs: tuple[Network, ...] = ()
    rate_limit_storage: str = "memory://"
    cache_storage: str | None = None  # Redis for the answers shared by replicas (level 2)
    max_stale_seconds: int = 86_400  # last good answers served while the catalog fails (0: none)
    refresh_ahead: int = 4  # background refreshes at once (0: none)
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
        values: dict[str, Any] = {}
        given: set[str] = set()
        for setting in SETTINGS:
            raw = env.get(setting.env)
            if raw is None or (setting.blank_is_unset and not raw.strip()):
                continue
            given.add(setting.env)
            try:
                values[setting.field] = setting.parse(setting.env, raw.strip())
            except Invalid as error:
                problems.extend(error.problems)
        problems.extend(_combination_problems(values, given))
        if problems:
            raise ConfigError(problems)
        values["cursor_key_ephemeral"] = "cursor_key_current" not in values
        return cls(**values)


@dataclass(frozen=True)
class Setting:
    """One environment variable: the `Settings` field it sets, how it is read, its README row."""

    env: str
    field: str
    parse: Parse
    meaning: str  # the README's "Meaning" column
    shown: str | None = None  # the README's "Default" when the field's own default cannot say it
    blank_is_unset: bool = True  # False: an empty value is a value (an empty allowlist)

    def default_text(self) -> str:
        if self.shown is not None:
            return self.shown
        default = Settings.__dataclass_fields__[self.field].default
        if default is dataclasses.MISSING:
            raise TypeError(f"{self.env}: a factory default needs `shown`")
        if default is None or default == ():
            return "none"
        return f"`{','.join(default) if isinstance(default, tuple) else default}`"


@dataclass(frozen=True)
class Documented:
    """A variable read outside `Settings` (by `read_by`), listed in the same README table."""

    env: str
    shown: str
    meaning: str
    read_by: str


_LIMIT = integer(*LIMIT_RANGE)
_PER_MINUTE = integer(*LIMIT_RANGE, unlimited=True)

# Read in this order, so problems are reported in it; the README lists them in it too.
SETTINGS: tuple[Setting, ...] = (
    Setting("PWC_MCP_HOST", "host", verbatim, "bind address (the Docker image sets `0.0.0.0`)"),
    Setting("PORT", "port", integer(0, 65535), "listen port; `0` = any free port"),
    # The `pwc` CLI reads it too (pwc_core/transport.py), with the same default.
    Setting(
        "PWC_API_URL",
        "api_url",
        catalog_url,
        "catalog API base (CLI and server); must be an http(s) URL with a host",
    ),
    Setting(
        "PWC_MCP_ALLOWED_ORIGINS",
        "allowed_origins",
        origins,
        "browser Origin allowlist, comma-separated; a `*` is refused at start-up",
        shown="loopback origins, any port",
        blank_is_unset=False,
    ),
    Setting(
        "PWC_MCP_ALLOWED_HOSTS",
        "allowed_hosts",
        hosts,
        "Host allowlist, `host`, `host:port` or `host:*`; a wildcard host (`*`) is refused at "
        "start-up",
    ),
    Setting(
        "PWC_MCP_PUBLIC_URL",
        "public_url",
        public_origin,
        "public origin advertised by `/.well-known/mcp` (e.g. `https://paperswithcode.co`); "
        "no path, query or credentials",
    ),
    Setting(
        "PWC_MCP_REQUEST_LIMIT", "request_limit", _PER_MINUTE, "MCP requests per minute per client"
    ),
    Setting(
        "PWC_MCP_SEMANTIC_LIMIT",
        "semantic_limit",
        _PER_MINUTE,
        "semantic/hybrid `search_papers` calls per minute per client",
    ),
    Setting(
        "PWC_MCP_UPSTREAM_LIMIT",
        "upstream_limit",
        _PER_MINUTE,
        "catalog requests per minute per client, caused by its calls ([why](#security-model))",
    ),
    Setting(
        "PWC_MCP_CONCURRENCY_LIMIT", "concurrency_limit", _LIMIT, "concurrent requests per client"
    ),
    Setting(
        "PWC_MCP_GLOBAL_CONCURRENCY_LIMIT",
        "global_concurrency_limit",
        _LIMIT,
        "concurrent requests overall; also sizes the tool thread pool",
    ),
    Setting(
        "PWC_MCP_CALL_TIMEOUT",
        "call_timeout",
        integer(1, CALL_TIMEOUT),
        "seconds one tool call may take in all; a shutdown waits this long for calls in flight "
        "([Stopping](#stopping-without-cutting-a-call))",
    ),
    Setting(
        "PWC_MCP_TRUSTED_PROXY_CIDRS",
        "trusted_proxy_cidrs",
        proxy_networks,
        "proxies whose `X-Forwarded-For` is trusted (right-most untrusted hop); ranges wider "
        "than IPv4 /8 or IPv6 /32 are refused",
    ),
    Setting(
        "PWC_MCP_RATE_LIMIT_STORAGE",
        "rate_limit_storage",
        limits_storage,
        "`limits` storage URI, e.g. `redis://127.0.0.1:6379` to share limits between replicas",
    ),
    Setting(
        "PWC_MCP_CACHE_STORAGE",
        "cache_storage",
        cache_storage,
        "Redis URI: catalog answers and single flight shared by replicas ([Scale out](#scale-out))",
    ),
    Setting(
        "PWC_MCP_MAX_STALE_SECONDS",
        "max_stale_seconds",
        integer(0, 7 * 86_400),
        "serve a call's last good answer up to this old, labelled, while the catalog fails "
        "for it; `0` never ([Performance](#performance))",
    ),
    Setting(
        "PWC_MCP_REFRESH_AHEAD",
        "refresh_ahead",
        integer(0, 64),
        "background refreshes at once of answers read in their TTL's last fifth; `0` none",
    ),
    Setting(
        CURSOR_KEY_CURRENT,
        "cursor_key_current",
        signing_key,
        "`read_paper` cursor signing key, ≥ 32 characters; set in production",
        shown="ephemeral (a warning, except with `--sample-catalog`)",
    ),
    Setting(
        CURSOR_KEY_PREVIOUS,
        "cursor_key_previous",
        signing_key,
        "the previous key, still accepted during a rotation",
    ),
    Setting("LOG_LEVEL", "log_level", log_level, "`DEBUG`, `INFO`, `WARNING`, `ERROR`, `CRITICAL`"),
)

READ_ELSEWHERE: tuple[Documented, ...] = (
    Documented(
        "PWC_SAMPLE_PORT",
        "a free port",
        "the sample catalog's port with `--sample-catalog` (or `--sample-port`; `0` = any free "
        "port)",
        read_by="pwc_mcp/cli.py (SAMPLE_PORT_ENV): a command-line option's fallback",
    ),
)


def _combination_problems(values: Mapping[str, Any], given: set[str]) -> list[str]:
    """Rules between settings, checked once each setting has been read on its own."""
    problems = []
    if CURSOR_KEY_PREVIOUS in given and CURSOR_KEY_CURRENT not in given:
        problems.append(f"{CURSOR_KEY_PREVIOUS} needs {CURSOR_KEY_CURRENT}")
    for env, field_, why in (  # storages shared by replicas, and what needs the same key
        ("PWC_MCP_RATE_LIMIT_STORAGE", "rate_limit_storage", "hash client identities"),
        ("PWC_MCP_CACHE_STORAGE", "cache_storage", "name and sign shared answers"),
    ):
        if values.get(field_, "memory://") != "memory://" and CURSOR_KEY_CURRENT not in given:
            problems.append(
                f"{env} shared by replicas needs {CURSOR_KEY_CURRENT}: "
                f"replicas must {why} with the same key"
            )
    return problems


def configuration_table() -> str:
    """The README's "## Configuration" table, rendered from the declarations."""
    rows = [("Variable", "Default", "Meaning"), ("---", "---", "---")]
    rows += [(f"`{s.env}`", s.default_text(), s.meaning) for s in SETTINGS]
    rows += [(f"`{d.env}`", d.shown, d.meaning) for d in READ_ELSEWHERE]
    return "\n".join(f"| {' | '.join(row)} |" for row in rows)
